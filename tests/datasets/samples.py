"""Real-format samples for the dataset tests, written here (no fixture files to keep in sync)."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city's name"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    },
}

PROSE = [
    "It was the best of times, it was the worst of times.",
    "Call me Ishmael. Some years ago, never mind how long precisely, I thought I would sail about a little.",
    "Happy families are all alike; every unhappy family is unhappy in its own way.",
    "In a hole in the ground there lived a hobbit.",
    "Whan that Aprille with his shoures soote the droghte of March hath perced to the roote.",
]


def batch_lines(n: int = 12) -> list[dict]:
    """OpenAI Batch requests as the Batch API documents them: custom_id, method, url, body."""
    out = []
    for i in range(n):
        messages = [
            {"role": "system", "content": "You answer in one sentence."},
            {"role": "user", "content": PROSE[i % len(PROSE)] + f" Summarise this ({i})."},
        ]
        if i % 3 == 1:
            messages += [
                {"role": "assistant", "content": "A summary."},
                {"role": "user", "content": "Shorter."},
            ]
        body: dict = {"model": "gpt-4o-mini", "messages": messages, "max_tokens": 50 + i}
        if i % 4 == 2:
            body["tools"] = [WEATHER_TOOL]
        out.append(
            {"custom_id": f"request-{i + 1}", "method": "POST", "url": "/v1/chat/completions", "body": body}
        )
    return out


def finetune_lines(n: int = 10) -> list[dict]:
    """Chat fine-tuning examples with a tool and a weight-0 assistant message on every other row."""
    out = []
    for i in range(n):
        messages = [
            {"role": "system", "content": "Marv is a factual chatbot that is also sarcastic."},
            {"role": "user", "content": f"What is the capital of France? ({i})"},
            {"role": "assistant", "content": "Paris, as if everyone doesn't know that already.", "weight": 0},
            {"role": "user", "content": "Can you be more sarcastic?"},
            {"role": "assistant", "content": "Paris, as if everyone doesn't know that already. " * (1 + i % 3),
             "weight": 1},
        ]  # fmt: skip
        if i % 2:
            messages[2].pop("weight")
        row: dict = {"messages": messages}
        if i % 5 == 0:
            row["tools"] = [WEATHER_TOOL]
        out.append(row)
    return out


def jsonl(objs: list[dict], *, extra: list[str] = ()) -> bytes:
    lines = [json.dumps(o) for o in objs] + list(extra)
    return ("\n".join(lines) + "\n").encode()


def csv_bytes() -> bytes:
    rows = ["id,question,answer"]
    for i, p in enumerate(PROSE):
        rows.append(f'q{i},"{p.replace(chr(34), chr(34) * 2)}","An answer,\nover two lines ({i})."')
    return ("\n".join(rows) + "\n").encode()


def parquet_bytes() -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {"id": [f"p{i}" for i in range(len(PROSE))], "prompt": PROSE, "score": list(range(len(PROSE)))}
    )
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


REPO_FILES = {
    "proj/.gitignore": "build/\n*.log\n!keep.log\n",
    "proj/README.md": "# Project\n\nA small project to count.\n",
    "proj/src/app.py": "def main():\n    print('hello world')\n\n\nif __name__ == '__main__':\n    main()\n",
    "proj/src/util.py": "import os\n\n\ndef here():\n    return os.getcwd()\n" * 20,
    "proj/src/sub/.gitignore": "secret.txt\n",
    "proj/src/sub/secret.txt": "do not count me",
    "proj/src/sub/kept.txt": "count me",
    "proj/debug.log": "a log line\n",
    "proj/keep.log": "this log is kept\n",
    "proj/build/out.js": "console.log(1)\n",
    "proj/node_modules/left-pad/index.js": "module.exports = 1;\n",
    "proj/poetry.lock": "[[package]]\nname = 'x'\n",
    "proj/docs/guide.md": "## Guide\n\n" + "Read this guide carefully. " * 200,
}
REPO_BINARY = {"proj/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00", "proj/data.txt": b"ab\x00cd"}


def repo_zip(files: dict[str, str] = REPO_FILES, binary: dict[str, bytes] = REPO_BINARY) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(name, text)
        for name, data in binary.items():
            z.writestr(name, data)
    return buf.getvalue()


def tar_gz(members: dict[str, bytes], *, links: dict[str, str] = {}) -> bytes:  # noqa: B006 - read only
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        for name, target in links.items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            t.addfile(info)
    return buf.getvalue()

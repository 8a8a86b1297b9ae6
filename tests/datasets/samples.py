"""Real-format samples for the dataset tests, written here (no fixture files to keep in sync)."""

from __future__ import annotations

import io
import json
import struct
import tarfile
import zipfile
import zlib

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


def _zipcrypto_update(keys: list[int], byte: int) -> None:
    def crc(value: int, b: int) -> int:
        return zlib.crc32(bytes([b]), value ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    keys[0] = crc(keys[0], byte)
    keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
    keys[2] = crc(keys[2], keys[1] >> 24)


def zipcrypto_zip(files: dict[str, bytes], encrypted: set[str], password: bytes) -> bytes:
    """A zip whose `encrypted` members use the traditional PKWARE encryption that `zip -e` writes
    (APPNOTE.TXT 6.1), stored uncompressed; Python's zipfile reads them back with the password."""
    out, central = io.BytesIO(), []
    for name, data in files.items():
        crc32 = zlib.crc32(data)
        body, flags = data, 0
        if name in encrypted:
            keys = [0x12345678, 0x23456789, 0x34567890]
            for b in password:
                _zipcrypto_update(keys, b)
            plain = bytes(range(11)) + bytes([crc32 >> 24])  # the 12-byte header ends with the CRC's top byte
            enc = bytearray()
            for p in plain + data:
                t = (keys[2] | 2) & 0xFFFF
                enc.append(p ^ (((t * (t ^ 1)) >> 8) & 0xFF))
                _zipcrypto_update(keys, p)
            body, flags = bytes(enc), 0x1
        raw = name.encode()
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, 0, 0, 0x21, crc32, len(body), len(data),
                              len(raw), 0) + raw + body)  # fmt: skip
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, 0, 0, 0x21, crc32, len(body),
                                   len(data), len(raw), 0, 0, 0, 0, 0o100644 << 16, offset) + raw)  # fmt: skip
    cd_start = out.tell()
    out.write(b"".join(central))
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), out.tell() - cd_start,
                          cd_start, 0))  # fmt: skip
    return out.getvalue()

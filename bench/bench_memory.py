"""Server memory after the last session leaves: sessions upload a large tokenizer.json, close, and
the server's resident set is read until it is back near where it was before they came.

    python bench/bench_memory.py            # two sessions, a 59.9 MB tokenizer.json each (3.6M
                                            # entries), the app's own 120 s session TTL; RSS 60 s
                                            # after the last one left
    python bench/bench_memory.py --quick    # one session, ~15 MB
    python bench/bench_memory.py --help

It starts a real `streamlit run` server (bench/bench_serving.py's `start_server`, XSRF off so
its websocket client can upload; MALLOC_ARENA_MAX=2 as in the Dockerfile) and drives it as the browser does: each session opens the
workspace, puts the file into the sidebar's "Your own tokenizers" uploader, presses "Add
tokenizer" and checks the page says it was added, then closes its tab. Memory is VmRSS of the
server process (its worker processes are counted apart: a worker is recycled once it grew).

Goal (issue #31): 60 s after the last session left, the server's RSS within 100 MB of the
warm-up's (one session opened the workspace, so the built-in tokenizers are loaded).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_serving import (  # noqa: E402
    MemoryWatch,
    Session,
    _rss_mb,
    alerts,
    free_port,
    start_server,
)

TARGET_MB = 100.0  # over the warm-up's RSS, 60 s after the last session left
UPLOAD_SERVER_ENV = {"STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION": "false"}


def big_tokenizer_json(target_bytes: int, *, seed: int = 0) -> bytes:
    """A valid byte-level BPE tokenizer.json of about `target_bytes` (vocabulary and merges, about
    40,000 entries per MB), its tokens random strings of the byte alphabet built merge by merge."""
    printable = [chr(c) for c in range(ord("!"), ord("~") + 1)]
    keep = printable + [chr(c) for c in range(0xA1, 0xAD)] + [chr(c) for c in range(0xAE, 0x100)]
    alphabet = keep + [chr(256 + n) for n in range(256 - len(keep))]  # GPT-2's 256 byte characters
    vocab = {c: i for i, c in enumerate(alphabet)}
    tokens, merges = list(alphabet), []
    rng = random.Random(seed)
    size = 0
    while size < target_bytes:
        left = tokens[rng.randrange(len(tokens))] if rng.random() < 0.7 else rng.choice(printable)
        right = rng.choice(printable)
        token = left + right
        if token in vocab or len(token) > 12:
            continue
        vocab[token] = len(vocab)
        tokens.append(token)
        merges.append(f"{left} {right}")
        # what the two entries take in the file: '"token": id, ' and '"left right", '
        size += 2 * len(token.encode()) + len(str(len(vocab))) + 11
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": byte_level, "post_processor": None, "decoder": byte_level,
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": vocab, "merges": merges,
        },
    }  # fmt: skip
    return json.dumps(doc, ensure_ascii=False).encode()


async def upload_tokenizer(
    port: int, data: bytes, name: str, *, added: list[str] | None = None, stay: asyncio.Event | None = None
) -> str:
    """One session: open the workspace, add `data` as its own tokenizer.json (then noted in
    `added`), leave (after `stay` is set, if given). Returns what the page said."""
    s = Session(port)
    await s.open(timeout=300)
    await s.set(custom_tok_kind="hf", timeout=300)
    await s.upload("custom_tok_file", name, data)
    rerun = await s.set(custom_tok_name=name, click="custom_tok_add", timeout=600)
    said = " ".join(alerts(rerun))
    if "Added" not in said:
        await s.close()
        raise RuntimeError(f"the page did not add the tokenizer: {said[:300]!r}")
    if added is not None:
        added.append(name)
    if stay is not None:
        await stay.wait()
    await s.close()
    return said


async def warm_up(port: int) -> None:
    """One session opens the workspace (the built-in tokenizers load) and leaves."""
    s = Session(port)
    await s.open(timeout=300)
    await s.close()


def wait_for_rss(pid: int, at_most: float, deadline: float) -> float:
    """Poll the server's RSS until it is at most `at_most` MB or `deadline` (monotonic) passes."""
    rss = _rss_mb(pid)
    while rss > at_most and time.monotonic() < deadline:
        time.sleep(1.0)
        rss = _rss_mb(pid)
    return rss


async def run(args: argparse.Namespace) -> dict:
    data = big_tokenizer_json(int(args.mb * 1_000_000))
    port = free_port()
    env = {**UPLOAD_SERVER_ENV, "TW_WORKERS": "1", "MALLOC_ARENA_MAX": args.malloc_arenas}
    proc = start_server(port, env, session_ttl=args.ttl)
    watch = MemoryWatch(proc.pid)
    res: dict = {"file_mb": len(data) / 1e6, "sessions": args.sessions, "ttl": args.ttl}
    try:
        await warm_up(port)
        await asyncio.sleep(5)
        res["warm_mb"] = _rss_mb(proc.pid)
        watch.reset_peak()
        stay, added = asyncio.Event(), []
        uploads = [
            asyncio.create_task(upload_tokenizer(port, data, f"big-{i}.json", added=added, stay=stay))
            for i in range(args.sessions)
        ]
        while len(added) < args.sessions and not any(t.done() for t in uploads):
            await asyncio.sleep(0.5)
        # every session has added its tokenizer (or one failed): all leave together
        res["with_sessions_mb"] = _rss_mb(proc.pid)
        stay.set()
        await asyncio.gather(*uploads)
        left = time.monotonic()
        res["peak_mb"] = watch.peak_server
        timeline = []
        while (t := time.monotonic() - left) < args.after:
            timeline.append((round(t), round(_rss_mb(proc.pid))))
            await asyncio.sleep(5)
        res["after_mb"] = _rss_mb(proc.pid)
        res["timeline"] = timeline
    finally:
        watch.stop()
        proc.terminate()
        proc.wait(timeout=30)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one session, a ~15 MB file")
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument(
        "--mb", type=float, default=59.3, help="about the size of the tokenizer.json (MB): 59.3 gives 59.9"
    )
    ap.add_argument("--ttl", type=int, default=120, help="the server's disconnectedSessionTTL (s)")
    ap.add_argument(
        "--malloc-arenas", default="2", help="the server's MALLOC_ARENA_MAX (the Dockerfile's: 2)"
    )
    ap.add_argument("--after", type=float, default=60.0, help="seconds after the last session left")
    args = ap.parse_args()
    if args.quick:
        args.sessions, args.mb = 1, 15.0
    res = asyncio.run(run(args))
    print(
        f"tokenizer.json: {res['file_mb']:.1f} MB, {res['sessions']} session(s), session TTL {res['ttl']} s"
    )
    print(f"warm-up RSS: {res['warm_mb']:.0f} MB; with the sessions: {res['with_sessions_mb']:.0f} MB; "
          f"peak {res['peak_mb']:.0f} MB")  # fmt: skip
    print("after the last left (s, MB): " + ", ".join(f"{t}:{m}" for t, m in res["timeline"]))
    over = res["after_mb"] - res["warm_mb"]
    verdict = "ok" if over <= TARGET_MB else "OVER"
    print(f"{args.after:.0f} s after: {res['after_mb']:.0f} MB, warm-up + {over:.0f} MB "
          f"(goal: + {TARGET_MB:.0f} MB at most): {verdict}")  # fmt: skip
    if over > TARGET_MB:
        sys.exit(1)


if __name__ == "__main__":
    main()

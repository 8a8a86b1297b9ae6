"""What a crafted share link costs the server: a chat of many empty messages, many empty versions.

    python bench/bench_link_caps.py              # this checkout
    python bench/bench_link_caps.py /path/to/an/older/checkout

Opens the prompt workspace headless (Streamlit's AppTest, no browser) with each link and reports
the first run and one rerun (a rerun is what every keystroke costs). Bytes alone do not bound
the work: 3,600 bytes of `["user",""],` are 300 messages, 3,000 bytes of `{},` 1,000 versions.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from tokenizer_core.workspace import pack_text  # noqa: E402

MODELS = "gpt-4o,llama-3.1,qwen3"
LINKS = {
    "plain chat": {"tok": MODELS, "mode": "chat"},
    "300 empty messages": {"tok": MODELS, "mode": "chat",
                           "zm": pack_text(json.dumps([["user", ""]] * 300, separators=(",", ":")))},
    "1,000 empty versions": {"tok": MODELS, "zv": pack_text(json.dumps([{}] * 1_000, separators=(",", ":")))},
}  # fmt: skip


def timed(params: dict[str, str]) -> tuple[float, float, int]:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=900)
    at.query_params.update(params)
    t = time.perf_counter()
    at.run()
    first = time.perf_counter() - t
    t = time.perf_counter()
    at.run()
    return first, time.perf_counter() - t, len(at.exception)


def main() -> None:
    timed({"tok": "gpt-4o"})  # warm-up: tokenizers loaded, modules imported
    for label, params in LINKS.items():
        first, rerun, errors = timed(params)
        print(f"{label}: first run {first:.2f} s, rerun {rerun:.2f} s, exceptions {errors}", flush=True)


if __name__ == "__main__":
    main()

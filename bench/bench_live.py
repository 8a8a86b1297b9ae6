"""Live counting in a real Chromium: the time from a keystroke to the new counts on the page.

    python bench/bench_live.py            # 1 KB and 10 KB, 30 edits each
    python bench/bench_live.py --quick    # 1 KB and 10 KB, 8 edits each
    python bench/bench_live.py --quick --sizes 1,10,20,50,100   # where live updates start to lag
    python bench/bench_live.py --before /path/to/old/checkout   # the workspace of another checkout too

Starts the app (`streamlit run`, headless) and Debian's Chromium (never `playwright install`),
puts a text of the given size into the prompt workspace's box with the three default models,
then types one character at the end, 30 times. Each edit is timed inside the page, from the
`keydown` event to the moment the first model's count shows the number expected for the new
text (a MutationObserver; the expected number comes from the same tokenizer in this process).
The time includes the box's pause before it sends (PAUSE_MS). Reference measured in the same
run: the same box on a minimal Streamlit page that shows only the o200k_base count, drawn as the
workspace draws it (one count card; the page is written to a temporary folder), so "workspace /
reference" is what the workspace page itself costs on a machine as loaded as it is. Goal: at
10 KB, within 1.15x of the reference (the box's pause and Streamlit's round trip are the floor).

The workspace is measured twice on the same server: as users get it (the box asks the server's
count route for the counts, ui/count_api.py, and writes them on the cards before its rerun),
and with that route blocked in the browser ("rerun only": the counts drawn by the rerun of the
box and its counts, as before the route). The rest of the page follows once typing stops
(ui/fast_first.py), after the time measured here.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import launch  # noqa: E402

WATCH = """([label, want]) => { window.__twSeen = null;
  const resolve = (t) => { window.__twSeen = t; };
  const find = () => [...document.querySelectorAll('.st-key-workspace_counts [data-testid=stMarkdown], .st-key-counter_counts [data-testid=stMarkdown]')]
      .find(m => m.querySelector('p').innerText.trim() === label);
  const done = () => {
    const m = find();
    const v = m && m.querySelector('h3');
    if (v && v.innerText.trim() === want) { obs.disconnect(); resolve(performance.now()); return true; }
    return false;
  };
  const obs = new MutationObserver(done);
  obs.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""

KEYDOWN = """() => { window.__twKey = null;
  const host = [...document.querySelectorAll('[data-testid^=stBidiComponent]')]
      .find(h => (h.shadowRoot || h).querySelector('textarea.tw-live-box'));
  const box = (host.shadowRoot || host).querySelector('textarea.tw-live-box');
  box.addEventListener('keydown', () => { window.__twKey = performance.now(); }, {once: true}); }"""


RERUN = "workspace, rerun only"  # the page with its count route blocked in the browser
BEFORE = "workspace, --before"  # the workspace of another checkout (--before), as users get it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("streamlit exited")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("streamlit did not start")


def _text(size: int) -> str:
    from tokenizer_core.tokenizers import load_sample

    base = load_sample("mixed")
    return (base * (size // len(base) + 1))[:size]


def measure(page, text: str, edits: int, label: str, tok) -> list[float]:
    box = page.locator("textarea.tw-live-box")
    box.fill(text)
    box.press("Control+Enter")
    page.wait_for_timeout(1500)
    times = []
    current = text
    shown = tok.count(current)
    for _ in range(edits):
        # a character that changes the count, so the page cannot already show the number waited for
        ch = next(c for c in "!#%&*+;=?@^|~$" if tok.count(current + c) != shown)
        current += ch
        shown = tok.count(current)
        want = f"{shown:,}"
        page.evaluate(KEYDOWN)
        page.evaluate(WATCH, [label, want])
        box.press("End")
        page.keyboard.type(ch)
        page.wait_for_function("() => window.__twSeen !== null", timeout=60_000)
        t_seen = page.evaluate("() => window.__twSeen")
        t_key = page.evaluate("() => window.__twKey")
        times.append(t_seen - t_key)
        page.wait_for_timeout(400)  # let the rest of the page finish drawing
    return times


REFERENCE_PAGE = """
import sys
sys.path.insert(0, {root!r})
import streamlit as st
from tokenizer_core import load_builtin
from tokenizer_core.workspace.count_cards import COUNTS_KEY, CountCard, count_card_markdown
from ui.live_text import live_text_area

tok = st.cache_resource(lambda: load_builtin("o200k_base"))()
text = live_text_area("ref_text", label="Text", live_limit=10**9)
with st.container(horizontal=True, key=COUNTS_KEY):
    st.markdown(count_card_markdown(CountCard("o200k_base", tok.count(text))), width="content")
"""


def _server(script: Path, cwd: Path = ROOT) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none"],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "TOKENIZER_WORKBENCH_LIVE_LIMIT": str(10**9)},  # live at every size measured
    )  # fmt: skip
    _wait_healthy(url, proc)
    return proc, url


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="8 edits per size")
    ap.add_argument("--verbose", action="store_true", help="print every edit's time")
    ap.add_argument("--sizes", default="1,10", help="text sizes in KB, comma-separated (default 1,10)")
    ap.add_argument("--before", type=Path, default=None, help="another checkout of the app to measure too")
    args = ap.parse_args()
    sizes = [int(float(k) * 1000) for k in args.sizes.split(",")]
    edits = 8 if args.quick else 30

    import tempfile

    from playwright.sync_api import sync_playwright

    from tokenizer_core import load_builtin
    from tokenizer_core.catalog.entries import DEFAULT_CHOICES, MODELS
    from ui.live_text import PAUSE_MS

    tok = load_builtin("o200k_base")
    results: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        ref = Path(tmp) / "reference_page.py"
        ref.write_text(REFERENCE_PAGE.format(root=str(ROOT)), encoding="utf-8")
        browser = launch(pw)
        servers = [(ref, ROOT, ["reference"]), (ROOT / "streamlit_app.py", ROOT, ["workspace", RERUN])]
        if args.before:
            servers.append((args.before.resolve() / "streamlit_app.py", args.before.resolve(), [BEFORE]))
        for script, cwd, names in servers:
            proc, url = _server(script, cwd)
            try:
                for name in names:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    if name == RERUN:  # the count route out of reach: the rerun alone draws the counts
                        page.route("**/api/counts", lambda route: route.abort())
                    page.goto(url)
                    page.locator("textarea.tw-live-box").wait_for(timeout=60_000)
                    page.wait_for_timeout(2000)
                    for size in sizes:
                        results[name, size] = measure(page, _text(size), edits, "o200k_base", tok)
                        if args.verbose:
                            print(name, size, " ".join(f"{t:.0f}" for t in results[name, size]))
                    page.close()
            finally:
                proc.terminate()
                proc.wait(timeout=10)
        browser.close()
    models = ", ".join(MODELS[m].name for m in DEFAULT_CHOICES)
    print(
        f"keystroke -> counts shown (live at every size); workspace with {models}; {edits} edits; the box waits {PAUSE_MS} ms"
    )
    for size in sizes:
        r = results["reference", size]
        rp50 = statistics.median(r)
        for name in ("workspace", RERUN, BEFORE):
            if (name, size) not in results:
                continue
            w = results[name, size]
            wp50 = statistics.median(w)
            print(
                f"{size // 1000:>3} KB: {name:<22} median {wp50:6.0f} ms, p95 {_pct(w, 0.95):6.0f} ms | "
                f"reference median {rp50:6.0f} ms, p95 {_pct(r, 0.95):6.0f} ms | / reference {wp50 / rp50:.2f}x"
            )


if __name__ == "__main__":
    main()

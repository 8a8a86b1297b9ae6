"""Live counting in a real Chromium: the time from a keystroke to the new counts on the page.

    python bench/bench_live.py            # 1 KB and 10 KB, 30 edits each
    python bench/bench_live.py --quick    # 1 KB and 10 KB, 8 edits each

Starts the app (`streamlit run`, headless) and Debian's Chromium (never `playwright install`),
puts a text of the given size into the prompt workspace's box with the three default models,
then types one character at the end, 30 times. Each edit is timed inside the page, from the
`keydown` event to the moment the first model's count shows the number expected for the new
text (a MutationObserver; the expected number comes from the same tokenizer in this process).
The time includes the box's pause before it sends (PAUSE_MS). Reference measured in the same
run: the same edit with the page doing nothing but echoing the count is not available in
Streamlit, so the pause itself is the floor (a latency minus the pause is the app's own part).
Goal: median under 300 ms at 10 KB on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

WATCH = """([label, want]) => { window.__twSeen = null;
  const resolve = (t) => { window.__twSeen = t; };
  const find = () => [...document.querySelectorAll('[data-testid=stMetric]')]
      .find(m => m.innerText.includes(label));
  const done = () => {
    const m = find();
    const v = m && m.querySelector('[data-testid=stMetricValue]');
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
    from tokenizer_core import load_sample

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


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="8 edits per size")
    ap.add_argument("--verbose", action="store_true", help="print every edit's time")
    args = ap.parse_args()
    edits = 8 if args.quick else 30

    from playwright.sync_api import sync_playwright

    from tokenizer_core import load_builtin
    from tokenizer_core.counter.models import DEFAULT_CHOICES, MODELS
    from ui.live_text import PAUSE_MS

    tok = load_builtin("o200k_base")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "streamlit_app.py"), "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
         "--server.fileWatcherType=none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_healthy(url, proc)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True
            )
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.locator("textarea.tw-live-box").wait_for(timeout=60_000)
            page.wait_for_timeout(2000)
            models = ", ".join(MODELS[m].name for m in DEFAULT_CHOICES)
            print(f"keystroke -> counts shown, models {models}; {edits} edits; the box waits {PAUSE_MS} ms")
            for size in (1_000, 10_000):
                times = measure(page, _text(size), edits, "o200k_base", tok)
                if args.verbose:
                    print(" ".join(f"{t:.0f}" for t in times))
                p50, p95 = statistics.median(times), _pct(times, 0.95)
                print(f"{size // 1000:>3} KB: median {p50:6.0f} ms  p95 {p95:6.0f} ms  "
                      f"(app's own part after the pause: median {p50 - PAUSE_MS:.0f} ms; "
                      f"median / pause = {p50 / PAUSE_MS:.2f}x)")  # fmt: skip
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()

"""Token views on the wire and in the browser: bytes per rerun and draw time, in real Chromium.

    python bench/bench_views.py                  # this checkout, 10 KB of prose, 3 reruns
    python bench/bench_views.py --quick          # 1 rerun
    python bench/bench_views.py --root DIR       # another checkout (e.g. `git archive main`)
    python bench/bench_views.py --pages          # also the bytes of loading every page

1. The counter with its three default tokenizers and 10,000 bytes of English prose: the bytes
   the server sends (every websocket frame, summed from the action to the end of the run) for
   a rerun after an edit of the text (new counts, chart and views). Goal: < 150 KB per rerun.
2. Draw time in Chromium: the component records `performance.now()` around building the spans
   plus their layout (``data-draw-ms``; the rest of the page's pending layout is flushed first). Reference, same browser, same run: the old HTML view
   (`segments_html`, style per span) of the same segments set with ``innerHTML`` plus layout.
   Goal: < 100 ms.
3. Payload of the view alone, computed in Python: the old HTML for three tokenizers against the
   component's data (`view_payload`), same segments.

Needs Debian's Chromium (bench/browser.py) and the `playwright` package (never
`playwright install`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.browser import launch  # noqa: E402
from bench.corpus import english_prose  # noqa: E402

PAGES = ["", "bpe", "languages", "identifiers", "chunks"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(root: Path) -> Iterator[str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile("w+", prefix="bench-views-", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(root / "streamlit_app.py"),
         "--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
         "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"],
        cwd=root, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(root)},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"streamlit did not start:\n{log.read()[-2000:]}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


class Wire:
    """Counts the app websocket's received bytes and finished script runs."""

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.ForwardMsg = ForwardMsg
        self.bytes = 0
        self.finished = 0
        page.on("websocket", self._attach)
        self.page = page

    def _attach(self, ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        data = payload if isinstance(payload, (bytes, bytearray)) else payload.encode("utf-8")
        self.bytes += len(data)
        try:
            msg = self.ForwardMsg.FromString(bytes(data))
        except Exception:  # noqa: BLE001  (a text frame)
            return
        finished = msg.WhichOneof("type") == "script_finished"
        if finished and msg.script_finished != self.ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self.finished += 1

    def run(self, action) -> int:
        """Bytes received from `action` until its run has finished (and late frames arrived)."""
        before_n, before_b = self.finished, self.bytes
        action()
        deadline = time.monotonic() + 120
        while self.finished <= before_n:
            if time.monotonic() > deadline:
                raise TimeoutError("the app did not finish a run")
            self.page.wait_for_timeout(20)
        self.page.wait_for_timeout(300)
        return self.bytes - before_b


def old_html(text: str) -> list[str]:
    """The previous view's HTML for the counter's three default tokenizers (as the page drew it)."""
    from tokenizer_core import load_builtin
    from tokenizer_core.tokenizers import DEFAULT_IDS, segments_html, unshared_boundaries

    toks = [load_builtin(t) for t in DEFAULT_IDS]
    segs = [t.segments(text) for t in toks]
    marks = unshared_boundaries(*segs)
    return [segments_html(s, marked=m) for s, m in zip(segs, marks)]


def new_payload(text: str) -> bytes:
    from tokenizer_core import load_builtin
    from tokenizer_core.tokenizers import (
        DEFAULT_IDS,
        TokenPane,
        token_view_data,
        unshared_boundaries,
        view_payload,
    )

    toks = [load_builtin(t) for t in DEFAULT_IDS]
    segs = [t.segments(text) for t in toks]
    marks = unshared_boundaries(*segs)
    panes = [TokenPane(t.info.name, s, marked=m) for t, s, m in zip(toks, segs, marks)]
    return view_payload(token_view_data(text, panes))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--root", type=Path, default=ROOT, help="checkout whose app to measure")
    ap.add_argument("--pages", action="store_true", help="also measure loading every page")
    ap.add_argument("--bytes", type=int, default=10_000)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    text = english_prose(args.bytes)
    reruns = 1 if args.quick else 3
    print(f"text: {len(text.encode()):,} bytes of English prose; app: {args.root}")
    with server(args.root.resolve()) as url, sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(60_000)
        wire = Wire(page)
        load = wire.run(lambda: page.goto(url))
        main = page.get_by_test_id("stMain")
        live = main.locator(
            "textarea.tw-live-box"
        )  # the workspace's live text box (older pages: st.text_area)
        area = live if live.count() else main.get_by_test_id("stTextArea").locator("textarea").first
        area.fill(text)
        typed = wire.run(lambda: area.press("Control+Enter"))
        page.locator(".tw-tokens").first.wait_for()
        sizes, draws = [], []
        for i in range(reruns):
            # an edit at the end: new counts, chart and views (a repeat could be served from the
            # browser's message cache, which would understate the bytes)
            area.fill(f"{text} edit {i}")
            sizes.append(wire.run(lambda: area.press("Control+Enter")))
            page.wait_for_timeout(200)
            ms = (
                page.locator(".tw-view").first.get_attribute("data-draw-ms")
                if page.locator(".tw-view").count()
                else None
            )
            if ms is not None:
                draws.append(float(ms))
        print(f"counter, first load: {load / 1e3:,.1f} KB; typing the text: {typed / 1e3:,.1f} KB")
        print(
            f"counter, rerun after an edit of the text (median of {reruns}): "
            f"{statistics.median(sizes) / 1e3:,.1f} KB (goal < 150 KB)"
        )
        if draws:
            print(
                f"component draw time (build + layout), median: {statistics.median(draws):.1f} ms (goal < 100 ms)"
            )
        # reference: the old HTML of the same segments, parsed and laid out in the same browser
        html = old_html(text)
        ref = page.evaluate(
            """(parts) => {
                const host = document.createElement('div');
                host.style.cssText = 'position:absolute;left:0;top:0;width:1300px;display:grid;'
                    + 'grid-template-columns:1fr 1fr';
                document.body.appendChild(host);
                const times = [];
                for (let r = 0; r < 3; r++) {
                    host.replaceChildren();
                    const t0 = performance.now();
                    for (const h of parts) { const d = document.createElement('div'); d.innerHTML = h;
                        host.appendChild(d); }
                    void host.offsetHeight;
                    times.push(performance.now() - t0);
                }
                host.remove();
                times.sort((a, b) => a - b);
                return times[1];
            }""",
            html,
        )
        print(f"reference: old HTML view (innerHTML + layout) in the same browser: {ref:.1f} ms")
        old = sum(len(h.encode()) for h in html)
        new = len(new_payload(text))
        print(f"view data alone, computed in Python: old HTML {old / 1e3:,.1f} KB, new {new / 1e3:,.1f} KB "
              f"({old / new:.1f}x smaller)")  # fmt: skip
        if args.pages:
            for path in PAGES:
                b = wire.run(lambda p=path: page.goto(f"{url}/{p}"))
                page.wait_for_timeout(500)
                print(f"page /{path}: {b / 1e3:,.1f} KB on load")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

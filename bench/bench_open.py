"""Opening the app: a fresh browser tab -> the first token count on the home page, against
`streamlit hello` served by the same Streamlit in the same run.

    python bench/bench_open.py                       # 8 tabs per server, medians
    python bench/bench_open.py --quick               # 4 tabs per server
    python bench/bench_open.py --before /work/main   # also another checkout of the app, same run
    python bench/bench_open.py --sections            # when each part appears; the first run's messages
    python bench/bench_open.py --server-only 40 --before /work/main   # no browser: 40 fresh sessions each

Starts headless servers with the installed Streamlit: the app (`streamlit run streamlit_app.py`,
with the repository's .streamlit/config.toml), optionally a second checkout of it (--before), and
Streamlit's own demo (`streamlit hello`), and warms each with one tab (the app's tokenizers are
loaded, every server has sent its static files once). Then it opens fresh tabs, taking the
servers in turn (the order reversed every round): each tab is a new browser context, so an empty
HTTP cache as on a first visit, in Debian's Chromium. A script added to the page before it loads
notes, on the page's own clock (0 = the navigation started):

* first content: the app's first token count (a count card showing a number), hello's first heading
  ("Welcome to Streamlit!"), each at the animation frame after it entered the page;
* settled: the last change to the page before it stays still for a second with no run going.

"first count / hello" is the figure to watch (goal: at most 1.3x). The watcher runs on the page's
main thread at every change to the page, so both pages watch one part alike for it; --sections
watches every part of the home page (about a dozen queries per change) and its times run later.
Also printed: the app server's CPU time per tab (from /proc; steadier than wall time on a loaded
machine), and the bytes each tab received (websocket, and HTTP with an empty cache). With --sections: when each part
of the home page appears (median over the tabs), and a websocket client's view of a fresh
session's first run: when the server sent each element, and its size.

--server-only N leaves the browser out: N fresh sessions per server from a websocket client that
asks for the page as the browser does (`server_trace`), servers taken in turn, each session's
server CPU (from /proc, 0.3 s after its last message) and time to its last message. Steadier
than a browser tab on a busy machine: what the app's own code costs a new visitor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.browser import launch  # noqa: E402

# Parts of the home page, in page order: a name, a CSS selector of what shows it drawn, and a
# text it must contain ("" for any text, None when any match will do).
SECTIONS = [
    ("sidebar", "[data-testid=stSidebar] [data-testid=stExpander]", None),
    ("title", "[data-testid=stMain] h1", "Prompt workspace"),
    ("model picker", "[data-testid=stMain] .stMultiSelect", None),
    ("text box", "textarea.tw-live-box", None),
    (
        "first count",
        ".st-key-workspace_counts h3, .st-key-counter_counts h3, [data-testid=stMetricValue]",
        "",
    ),  # a card (a metric before)
    ("count table", "[data-testid=stMain] [data-testid=stDataFrame] canvas", None),
    ("chart", "[data-testid=stVegaLiteChart] svg, [data-testid=stVegaLiteChart] canvas", None),
    ("token views", ".tw-tokens .t", None),
    ("cost section", "[data-testid=stMain] h3", "Cost per request"),
    ("versions", "[data-testid=stMain] h3", "Prompt versions"),
    ("about", "[data-testid=stMain] [data-testid=stExpander] summary", "About these tokenizers"),
]
HELLO = [("hello heading", "[data-testid=stMain] h1", "")]
FIRST = {"app": "first count", "hello": "hello heading"}

# Runs before the page's own scripts. `window.__twOpen.seen` gets the time (ms since the
# navigation started) at which each watched part first matched; `last`, the last DOM change.
WATCH = """
(() => {
  const want = %(want)s;        // [name, selector, text it contains or null]
  const seen = {};
  const out = { seen, last: 0 };
  window.__twOpen = out;
  // components (the text box, the token views) draw inside shadow roots
  const all = (sel) => {
    const found = [...document.querySelectorAll(sel)];
    for (const host of document.querySelectorAll("[data-testid^=stBidiComponent]")) {
      if (host.shadowRoot) found.push(...host.shadowRoot.querySelectorAll(sel));
    }
    return found;
  };
  const check = (fromDom) => {
    if (fromDom) out.last = performance.now();
    for (const [name, sel, text] of want) {
      if (name in seen) continue;
      if (all(sel).some((el) => text === null || (el.textContent.trim() && el.textContent.includes(text)))) {
        seen[name] = null;
        requestAnimationFrame(() => { seen[name] = performance.now(); });  // the frame it is painted in
      }
    }
  };
  const frame = () => { check(false); if (want.some(([n]) => !(n in seen))) requestAnimationFrame(frame); };
  const start = () => {
    new MutationObserver(() => check(true)).observe(document.documentElement,
      { subtree: true, childList: true, characterData: true, attributes: true });
    requestAnimationFrame(frame);
  };
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    args: list[str], *, cwd: Path = ROOT, env: dict | None = None
) -> tuple[subprocess.Popen, str]:
    """`python -m streamlit ARGS` headless on a free port, run in `cwd`; (process, URL) once healthy."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", *args, "--server.headless=true", "--server.address=127.0.0.1",
         f"--server.port={port}", "--browser.gatherUsageStats=false", "--server.fileWatcherType=none"],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})},
    )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit {' '.join(args)} exited")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"streamlit {' '.join(args)} did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (all its threads), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watch_script(kind: str, *, sections: bool = False) -> str:
    """The watcher for a tab of `kind`: its first content only, or with `sections` every part of
    the home page (see the module doc)."""
    want = (
        HELLO if kind == "hello" else SECTIONS if sections else [s for s in SECTIONS if s[0] == FIRST[kind]]
    )
    return WATCH % {"want": json.dumps([list(s) for s in want])}


def open_tab(browser, url: str, kind: str, *, sections: bool = False, timeout_s: float = 120.0) -> dict:
    """Open `url` in a new browser context; {part: ms} plus "settled" and the bytes received."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(watch_script(kind, sections=sections))
    page = context.new_page()
    frames = {"bytes": 0}

    def on_ws(ws) -> None:
        def on_frame(payload) -> None:
            if isinstance(payload, (bytes, bytearray)):
                frames["bytes"] += len(payload)

        ws.on("framereceived", on_frame)

    page.on("websocket", on_ws)
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function(
            f"() => window.__twOpen && window.__twOpen.seen[{FIRST[kind]!r}] != null",
            timeout=timeout_s * 1000,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:  # settled: no run going, nothing changed for a second
            quiet, state = page.evaluate(
                "() => [performance.now() - window.__twOpen.last, document.querySelector("
                "'[data-testid=stApp]')?.getAttribute('data-test-script-state')]"
            )
            if quiet > 1000 and state == "notRunning":
                break
            page.wait_for_timeout(100)
        got = page.evaluate("() => window.__twOpen")
        http = page.evaluate(
            "() => performance.getEntriesByType('resource').concat(performance.getEntriesByType("
            "'navigation')).reduce((a, e) => a + (e.transferSize || 0), 0)"
        )
    finally:
        context.close()
    out = {k: v for k, v in got["seen"].items() if v is not None}
    out.update(settled=got["last"], ws_bytes=frames["bytes"], http_bytes=http)
    return out


async def server_trace(url: str) -> list[tuple[float, int, str]]:
    """(ms since the request, bytes, what) for each message of a fresh session's first view,
    from a websocket client that asks for the page as a browser does (and, like the page's
    JavaScript, says when the top is shown: see ui/fast_first.py)."""
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = BackMsg()
    msg.rerun_script.context_info.url = url + "/"
    request = msg.SerializeToString()
    out: list[tuple[float, int, str]] = []
    async with websockets.connect(url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"],
                                  max_size=2**28) as ws:  # fmt: skip
        t0 = time.perf_counter()
        await ws.send(request)
        while True:
            frame = await asyncio.wait_for(ws.recv(), timeout=120)
            ms = (time.perf_counter() - t0) * 1000
            fm = ForwardMsg.FromString(frame)
            kind = fm.WhichOneof("type")
            what = kind or ""
            if kind == "delta":
                delta = fm.delta
                what = delta.WhichOneof("type") or "delta"
                if what == "new_element":
                    ek = delta.new_element.WhichOneof("type") or ""
                    proto = getattr(delta.new_element, ek, None)
                    label = str(getattr(proto, "label", "") or getattr(proto, "body", ""))[:48].replace(
                        "\n", " "
                    )
                    what = f"{ek} {label!r}" if label else ek
                elif what == "add_block" and delta.add_block.id.endswith("_first_view_end"):
                    await ws.send(request)  # the top is "shown": ask for the rest
                    what = "the top ends here: client asks for the rest"
            elif kind == "script_finished":
                what = ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished)
            out.append((ms, len(frame), what))
            if kind == "script_finished" and what != "FINISHED_EARLY_FOR_RERUN":
                return out


def _median(rows: list[dict], key: str) -> float | None:
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def server_only(apps: dict[str, Path], sessions: int) -> None:
    """`--server-only`: fresh websocket sessions per server, interleaved; CPU and time each."""
    servers = {
        name: start_server(["run", str(root / "streamlit_app.py")], cwd=root) for name, root in apps.items()
    }
    cpu: dict[str, list[float]] = {name: [] for name in apps}
    wall: dict[str, list[float]] = {name: [] for name in apps}
    sent: dict[str, list[int]] = {name: [] for name in apps}
    try:
        for _, url in servers.values():  # warm: tokenizers loaded
            for _ in range(2):
                asyncio.run(server_trace(url))
        for i in range(sessions):
            for name in list(servers)[:: 1 if i % 2 == 0 else -1]:
                proc, url = servers[name]
                before = cpu_seconds(proc.pid)
                trace = asyncio.run(server_trace(url))
                time.sleep(0.3)
                cpu[name].append(cpu_seconds(proc.pid) - before)
                wall[name].append(trace[-1][0])
                sent[name].append(sum(n for _, n, _ in trace))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
    print(f"a fresh session's first view, server side, {sessions} sessions per server (load average "
          f"{os.getloadavg()[0]:.1f} at the end)")  # fmt: skip
    for name in apps:
        print(
            f"  {name:<8}: server CPU mean {statistics.mean(cpu[name]):.3f} s, median "
            f"{statistics.median(cpu[name]):.3f} s; last message {statistics.median(wall[name]):.0f} ms; "
            f"{statistics.median(sent[name]) / 1e3:.0f} KB"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="4 tabs per server (default 8)")
    ap.add_argument("--tabs", type=int, default=None, help="tabs per server")
    ap.add_argument("--before", type=Path, default=None, help="another checkout of the app to measure too")
    ap.add_argument(
        "--sections", action="store_true", help="when each part appears; the first run's messages"
    )
    ap.add_argument("--verbose", action="store_true", help="print every tab")
    ap.add_argument(
        "--server-only", type=int, default=0, metavar="N", help="no browser: N fresh sessions per server"
    )
    args = ap.parse_args()
    if args.server_only:
        server_only(
            {"app": ROOT} | ({"before": args.before.resolve()} if args.before else {}), args.server_only
        )
        return
    tabs = args.tabs or (4 if args.quick else 8)
    apps = {"app": ROOT} | ({"before": args.before.resolve()} if args.before else {})

    from playwright.sync_api import sync_playwright

    servers: dict[str, tuple[subprocess.Popen, str]] = {}
    rows: dict[str, list[dict]] = {}
    load_before = os.getloadavg()
    try:
        for name, root in apps.items():
            servers[name] = start_server(["run", str(root / "streamlit_app.py")], cwd=root)
        servers["hello"] = start_server(["hello"])
        rows = {name: [] for name in servers}
        kinds = {name: "hello" if name == "hello" else "app" for name in servers}
        with sync_playwright() as pw:
            browser = launch(pw)
            for name, (_, url) in servers.items():  # warm: tokenizers loaded, static files read once
                open_tab(browser, url, kinds[name])
            for i in range(tabs):
                for name in list(servers)[:: 1 if i % 2 == 0 else -1]:
                    proc, url = servers[name]
                    cpu = cpu_seconds(proc.pid)
                    r = open_tab(browser, url, kinds[name], sections=args.sections)
                    r["server_cpu"] = cpu_seconds(proc.pid) - cpu
                    rows[name].append(r)
                    if args.verbose:
                        print(name, {k: round(v) for k, v in r.items() if k != "server_cpu"},
                              f"server CPU {r['server_cpu']:.2f} s")  # fmt: skip
            browser.close()
        trace = asyncio.run(server_trace(servers["app"][1])) if args.sections else []
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()

    load = (load_before[0], os.getloadavg()[0])
    hello, hello_settled = _median(rows["hello"], "hello heading"), _median(rows["hello"], "settled")
    print(f"fresh tab -> first content, median of {tabs} tabs per server (load average {load[0]:.1f} at the "
          f"start, {load[1]:.1f} at the end; Streamlit's own `streamlit hello` as the reference)")  # fmt: skip
    print(f"  streamlit hello : first heading {hello:6.0f} ms, settled {hello_settled:6.0f} ms, "
          f"{_median(rows['hello'], 'ws_bytes') / 1e3:.0f} KB websocket")  # fmt: skip
    for name in apps:
        first, settled = _median(rows[name], "first count"), _median(rows[name], "settled")
        print(
            f"  {name:<16}: first count   {first:6.0f} ms, settled {settled:6.0f} ms, "
            f"{_median(rows[name], 'ws_bytes') / 1e3:.0f} KB websocket, {_median(rows[name], 'http_bytes') / 1e6:.1f} MB "
            f"HTTP, server CPU {_median(rows[name], 'server_cpu'):.2f} s per tab"
        )
        print(
            f"      first count / hello = {first / hello:.2f}x (goal <= 1.3x); settled / hello {settled / hello_settled:.2f}x"
        )
    if args.sections:
        for name in apps:
            print(f"\n{name}: when each part appears in the browser (median ms since the navigation started)")
            for part, *_ in SECTIONS:
                m = _median(rows[name], part)
                print(f"  {part:<14} {'-' if m is None else f'{m:6.0f}'}")
        print("\napp: a fresh session's first view as the server sends it (ms since the request, bytes)")
        for ms, n, what in trace:
            print(f"  {ms:8.1f} {n:7d}  {what}")


if __name__ == "__main__":
    main()

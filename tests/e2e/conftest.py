"""Real-browser fixtures: one `streamlit run` server and one Chromium per test session.

Chromium is Debian's (bench/browser.py: its headless shell, else its full Chromium); `playwright
install` is never used. Without Chromium the browser tests skip with a message on a laptop, and
FAIL when the CI variable is set.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.browser import CHROMIUM_ARGS, MISSING, chromium_path
from tests.e2e.logcheck import SERVER_FLAGS, log_problems

ROOT = Path(__file__).resolve().parents[2]
# A count on a page: a card of the workspace's (tokenizer_core/workspace/count_cards.py) or a
# metric (the other pages); inside one, its value and its label (take the first match: a
# metric holds Markdown of its own).
COUNT = ".st-key-workspace_counts [data-testid=stMarkdown], [data-testid=stMetric]"
COUNT_VALUE = "h3, [data-testid=stMetricValue]"
COUNT_LABEL = "[data-testid=stMarkdownContainer] > p:first-child, [data-testid=stMetricLabel]"


def _chromium_or_skip() -> str:
    if path := chromium_path():
        return path
    if os.environ.get("CI"):
        pytest.fail("CI is set and the browser tests cannot run: " + MISSING, pytrace=False)
    pytest.skip(MISSING)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


SERVER_PIDS: dict[str, int] = {}  # a running server's URL -> its process id


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid, rest = stat.read_text().split(" (", 1)
            children.setdefault(int(rest.rsplit(") ", 1)[1].split()[1]), []).append(int(pid))
    return children


def pool_workers(server_url: str) -> list[int]:
    """The app server's job-pool workers: its forkserver's children (or, started by spawn, its
    own children running multiprocessing's spawn_main); never the forkserver or resource tracker."""
    children = _children()
    workers = []
    for child in children.get(SERVER_PIDS[server_url], []):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(child)
        workers.extend(children.get(child, []))
    return workers


@contextlib.contextmanager
def frozen(pids: list[int]) -> Iterator[None]:
    """Stop the processes `pids` (SIGSTOP) for the block, then let them go on: a test holds a
    worker's job so that it cannot end before the test has acted on it."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def streamlit_server(script: Path = ROOT / "streamlit_app.py") -> Iterator[str]:
    """`streamlit run streamlit_app.py` (or `script`) on a free localhost port; yields its URL once healthy."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile("w+", prefix="streamlit-e2e-", suffix=".log", delete=False)  # noqa: SIM115 (open while the server runs)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script),
         "--server.headless=true", "--server.address=127.0.0.1", f"--server.port={port}",
         "--browser.gatherUsageStats=false", "--server.fileWatcherType=none",
         "--client.showErrorDetails=full", *SERVER_FLAGS],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"streamlit did not start:\n{log.read()[-3000:]}")
            time.sleep(0.1)
        SERVER_PIDS[url] = proc.pid
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    # A thread's traceback or any Streamlit warning or error in the server's log, an uncaught
    # exception of a page run, a fragment or a callback included (see logcheck.py), is a
    # failure even if every page looked fine.
    log.seek(0)
    text = log.read()
    if problems := log_problems(text):
        shown = "\n".join(problems[:20])
        pytest.fail(
            f"the app server logged {len(problems)} problem line(s) ({log.name}):\n{shown}\n\n{text[-3000:]}"
        )


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """One app server for the whole test session."""
    _chromium_or_skip()
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="package")
def browser(server_url):
    """One Chromium for the browser tests, closed when they end.

    Package scope, not session: Playwright's sync API keeps an event loop running in the main
    thread while it is open, and tests run after this package (asyncio clients of a real server)
    must not find one.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=_chromium_or_skip(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


# One look at the page, on its next frame: true when it is calm (see `AppPage.settle`).
_CALM = """(asked) => new Promise((done) => requestAnimationFrame(() => {
  const app = document.querySelector("[data-testid='stApp']");
  done(!!app && app.dataset.testScriptState === "notRunning"
    && (!asked || document.body.dataset.twRestAsked === asked)  // the page's script saw the last request
    && !document.querySelector("[data-testid='stSkeleton']") && !document.body.dataset.twRestPending
    && !document.querySelector(".st-key-saved_work_restoring"));  // a new session: its saved work comes first
}))"""


class AppPage:
    """A Playwright page on the app that knows when a script run has finished.

    It counts `script_finished` messages on the app's websocket, which is exact even for runs
    too short for the DOM's running indicator to ever show.
    """

    def __init__(self, page, base_url: str) -> None:
        from google.protobuf.message import DecodeError
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.page = page
        self.base_url = base_url
        self.finished = 0
        # The app's last messages, for a timeout's report: [seconds, type, detail or a count of deltas].
        self.heard: collections.deque[list] = collections.deque(maxlen=12)
        self.rest_asked: str | None = None  # the last request for the rest of a page (ui/fast_first.py)
        self.dialogs: list[str] = []
        self.offsite: list[str] = []  # requests to any host but the app's (fonts, icons, ...)
        self._ForwardMsg, self._DecodeError = ForwardMsg, DecodeError
        page.on("websocket", self._attach)
        page.on("dialog", self._on_dialog)
        page.on("request", self._on_request)

    def _on_request(self, request) -> None:
        url = urllib.parse.urlsplit(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname != "127.0.0.1":
            self.offsite.append(request.url)

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def _attach(self, ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            self.rest_asked = None  # a new page (its body holds no request yet) or a reconnect
            ws.on("framereceived", self._on_frame)

    def _on_frame(self, payload) -> None:
        if not isinstance(payload, (bytes, bytearray)):
            return
        try:
            msg = self._ForwardMsg.FromString(bytes(payload))
        except self._DecodeError:
            return
        kind = msg.WhichOneof("type") or "?"
        if kind == "delta" and self.heard and self.heard[-1][1] == "deltas":  # many in a row: one entry
            self.heard[-1][2] += 1
        else:
            detail = 1 if kind == "delta" else str(getattr(msg, kind, "")).replace("\n", " ")[:50]
            self.heard.append([time.monotonic(), "deltas" if kind == "delta" else kind, detail])
        if kind == "delta" and msg.delta.new_element.WhichOneof("type") == "bidi_component":
            component = msg.delta.new_element.bidi_component
            if component.component_name.endswith("tw_fast_first") and component.json:
                data = json.loads(component.json)  # the page's last request, or none ("token": null)
                self.rest_asked = data.get("token", self.rest_asked)
        if kind == "script_finished" and msg.script_finished != self._ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self.finished += 1

    def run(self, action: Callable[[], object], timeout_s: float = 60.0) -> None:
        """Do `action` and wait until the rerun it causes has finished and is drawn."""
        before = self.finished
        start = time.monotonic()
        action()
        while self.finished <= before:
            if time.monotonic() - start > timeout_s:
                raise TimeoutError(
                    f"the app did not finish a run in {timeout_s:.0f} s; {self._report(start)}"
                )
            self.page.wait_for_timeout(20)
        self.settle(timeout_s)

    def _report(self, since: float) -> str:
        """What the page shows and what the app last sent: for a timeout's message."""
        state = self.page.evaluate(
            """() => ({script: document.querySelector("[data-testid='stApp']")?.dataset.testScriptState,
                      status: document.querySelector("[data-testid='stStatusWidget']")?.innerText,
                      exceptions: document.querySelectorAll("[data-testid='stException']").length})"""
        )
        heard = "; ".join(f"{t - since:+.1f} s {kind} {detail}".rstrip() for t, kind, detail in self.heard)
        return f"the page: {state}; the app's last messages (s from the action): {heard or 'none'}"

    def settle(self, timeout_s: float = 60.0) -> None:
        """Wait until no run is going, no element is loading its script, and no part of the page
        is waiting for the rest to be drawn (ui/fast_first.py), for a few frames in a row: a run
        that drew a page's fast part asks for the rest two frames after it is painted, once its
        script has seen the request (which a busy browser may run some frames late). The request
        is read from the websocket between two looks, so each look asks for the newest."""
        start, calm = time.monotonic(), 0
        while calm < 4:
            if time.monotonic() > start + timeout_s:
                raise TimeoutError(f"the page did not settle in {timeout_s:.0f} s; {self._report(start)}")
            calm = calm + 1 if self.page.evaluate(_CALM, self.rest_asked) else 0

    def goto(self, path: str = "", query: str = "") -> None:
        url = f"{self.base_url}/{path.strip('/')}" + (f"?{query}" if query else "")
        self.run(lambda: self.page.goto(url))

    @property
    def main(self):
        """The main area (the sidebar has widgets of its own, e.g. another file uploader)."""
        return self.page.get_by_test_id("stMain")

    def exceptions(self) -> list[str]:
        return self.page.get_by_test_id("stException").all_inner_texts()


def page_of_its_own(browser, server_url: str, width: int = 1400) -> AppPage:
    """A page in a new browser context (nothing kept from other tests; a first load at `width`).
    Close it with `app.page.context.close()`."""
    app = AppPage(browser.new_context(viewport={"width": width, "height": 1000}).new_page(), server_url)
    app.page.set_default_timeout(30_000)
    return app


def type_text(app: AppPage, text: str) -> None:
    """Put `text` in the workspace's text box and count it (Ctrl+Enter)."""
    area = app.main.locator("textarea.tw-live-box")
    if area.input_value() == text:
        return  # shown already (a shared page): the box sends nothing new
    area.fill(text)
    app.run(lambda: area.press("Control+Enter"))


@pytest.fixture(scope="module")
def shared(browser, server_url):
    """One workspace page per width for a test file's tests that type their own text and read
    what it draws, made when first asked for: a page load costs the browser seconds."""
    pages: dict[int, AppPage] = {}

    def at(width: int) -> AppPage:
        if width not in pages:
            pages[width] = page_of_its_own(browser, server_url, width)
            pages[width].goto()
        return pages[width]

    yield at
    for app in pages.values():
        app.page.context.close()
        assert app.offsite == [], f"the page asked another host for {app.offsite[:5]}"


def as_new(app: AppPage) -> AppPage:
    """The shared page with the view a new page shows: text view, whitespace hidden, differences
    marked (each test types its own text)."""
    from tests.e2e import settings_driver as d

    shown = d.settings(app)
    if shown.get("workspace_view") != "Text":
        d.segment(app, "workspace_view", "Text")
    for key, new in (("workspace_ws", False), ("workspace_diff", True)):
        if shown.get(key) != new:
            d.flip(app, key)
    app.dialogs.clear()
    return app


@pytest.fixture
def home(shared) -> AppPage:
    return as_new(shared(1400))


@pytest.fixture
def phone(shared) -> AppPage:
    return as_new(shared(400))


# What a test leaves in the browser's storage for the app's origin: its saved work (local storage,
# IndexedDB). Cleared after each test, so that the next one meets the app as a new user does.
_FORGET = """async () => {
  localStorage.clear(); sessionStorage.clear();
  const dbs = indexedDB.databases ? await indexedDB.databases() : [];
  await Promise.all(dbs.map((d) => new Promise((done) => {
    const q = indexedDB.deleteDatabase(d.name); q.onsuccess = q.onerror = q.onblocked = done; })));
}"""


@pytest.fixture(scope="package")
def browser_context(browser):
    """One browser context for the tests' pages: the app's scripts (about 20 MB) are fetched and
    compiled once, not for each test's page; `app_page` empties its storage after each test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context
    context.close()


@pytest.fixture
def app_page(browser_context, server_url) -> Iterator[AppPage]:
    """A new page for one test, in a browser that keeps nothing of the app (see `_FORGET`)."""
    page = browser_context.new_page()
    page.set_default_timeout(30_000)
    app = AppPage(page, server_url)
    yield app
    for other in browser_context.pages:  # a test's own popups and tabs too
        other.close()
    blank = browser_context.new_page()
    try:
        blank.goto(f"{server_url}/_stcore/health")  # the app's origin, without a session
        blank.evaluate(_FORGET)
    finally:
        blank.close()
    # Offline use: the app serves everything it shows (no fonts, icons or scripts from elsewhere).
    assert app.offsite == [], f"the page asked another host for {app.offsite[:5]}"

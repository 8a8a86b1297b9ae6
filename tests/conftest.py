"""Shared fixtures: built-in tokenizers loaded once per test session, AppTest helpers."""

from __future__ import annotations

import copy
import functools
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers.count_cards import read_count_cards
from tokenizer_core import BUILTINS, Tokenizer, load_builtin

ROOT = Path(__file__).resolve().parent.parent
ENTRY = str(ROOT / "streamlit_app.py")

# A test run keeps the bytecode it compiles (in __pycache__, which git ignores), even where the
# machine sets PYTHONDONTWRITEBYTECODE, as these machines do. Every process of a run (the test
# processes, each app server, each job and Dask worker) imports the same modules: without the
# cache each compiled them again, and the tests' assertion rewriting too. Measured on the tests
# that start the most processes (tests/jobs, test_hosted, ...): 179 -> 148 CPU s. Set before
# pytest-xdist starts its processes, which inherit it with everything they start.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


# The hosted configuration (.streamlit/config.toml) hides an uncaught error's details; a test
# that meets one shows them (AppTest reads that file; an option set here outranks it).
def _show_error_details() -> None:
    from streamlit import config

    config.get_option("client.showErrorDetails")  # the config files are read first
    config.set_option("client.showErrorDetails", "full")


_show_error_details()


# Each new AppTest looks for Streamlit components in every installed distribution's metadata
# (Streamlit 1.67, `BidiComponentManager.discover_and_register_components`): about 0.27 CPU s per
# AppTest here, while the app server does it once when it starts. The installed packages do not
# change during a run, so a test process scans them once, as a server does.
def _scan_components_once() -> None:
    from streamlit.components.v2 import manifest_scanner

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)


_scan_components_once()


# AppTest waits for a script run to end by checking, every millisecond, the whole list of the
# run's events for the last one (Streamlit 1.67, `local_script_runner.require_widgets_deltas`).
# That list holds an event per message the page sends, so on a large page the waiting thread took
# the interpreter from the script thread about a thousand times a second for a scan that grows with
# the run: in a profile of tests/app_pages, 7.6% of all samples. The same wait, woken by the run's
# SHUTDOWN event, and looking at the list every 50 ms besides: a signal calls the receivers it had
# when the event was sent, so an end sent just before this wait's receiver was connected reaches
# only the list (an event alone missed it once, in a full run, and waited out the run's timeout).
def _wait_for_runs_on_their_event() -> None:
    import threading
    import time

    from streamlit.runtime.scriptrunner import ScriptRunnerEvent
    from streamlit.testing.v1 import local_script_runner

    def require_widgets_deltas(runner, timeout: float = 3) -> None:
        ended = threading.Event()

        def on_event(_sender, event, **_kwargs) -> None:
            if event == ScriptRunnerEvent.SHUTDOWN:
                ended.set()

        deadline = time.monotonic() + timeout
        runner.on_event.connect(on_event, weak=False)
        try:
            while not runner.script_stopped():
                left = deadline - time.monotonic()
                if left <= 0:
                    runner.request_stop()  # as Streamlit's own wait does when a run outlasts its timeout
                    runner.join()
                    raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")
                ended.wait(min(left, 0.05))
        finally:
            runner.on_event.disconnect(on_event)

    local_script_runner.require_widgets_deltas = require_widgets_deltas


_wait_for_runs_on_their_event()

settings.register_profile(
    "default", deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")

ALL_IDS = list(BUILTINS)

# Tests that start a real app server (and, for tests/e2e, Chromium). In pytest-xdist processes
# (`python -m pytest -n 3`) they form two units of work, each run one test after another in one
# process with a server and a browser of its own, while the third process starts on the other
# tests. A browser test waits on the app and the browser part of its time, so three processes
# keep the two cores busier than two: the whole run took 1,074 s with -n 3 and 1,148 s with -n 2.
# Four processes with four server units ended together but took as long as three (678 s against
# 682 s here): what they saved in idle time, the fourth browser and server spent in CPU.
SERVER_TESTS = (
    "tests/e2e/",
    "tests/test_e2e_logcheck.py",
    "tests/test_hosting_errors.py",
    "tests/ui/test_serving_jobs.py",
    "tests/ui/test_session_memory.py",
)
# Browser test files named from here on: the second unit. The two take about the same time (per
# test process: 672 and 628 s, run 33 of stop 53; from test_la they came out the other way round,
# 470 and 570 CPU s, in a noisier run).
SECOND_SERVER_FROM = "tests/e2e/test_m"
# Units that take long for one test, sent out right after the server units so that they do not
# end the run: mypy over tokenizer_core (about 20 s).
EARLY_UNITS = ("tests/test_types.py",)


def work_unit(nodeid: str) -> str:
    """The unit of work a test is sent to a test process in: the server tests in two units, any
    other test with the rest of its file (a module's fixtures, a Dask cluster for one, start once).

    >>> work_unit("tests/bpe/test_io.py::test_x[a]"), work_unit("tests/e2e/test_bpe_browser.py::t")
    ('tests/bpe/test_io.py', 'server 1')
    >>> work_unit("tests/e2e/test_settings_browser.py::t"), work_unit("tests/ui/test_serving_jobs.py::t")
    ('server 2', 'server 2')
    """
    if not nodeid.startswith(SERVER_TESTS):
        return nodeid.split("::", 1)[0]
    return "server 1" if "tests/e2e/" < nodeid < SECOND_SERVER_FROM else "server 2"


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, called when -n is given
def pytest_xdist_make_scheduler(config, log):
    # xdist's own `--dist loadgroup` marks a group by renaming a test's node id, which pytest 9
    # no longer allows; its load-scope scheduler with our units does the same. The server units go
    # out first (one to each process), then the early units, then the rest, largest first.
    from xdist.scheduler import LoadScopeScheduling

    class ByUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node) -> None:
            first = [u for u in self.workqueue if u.startswith("server")] + [
                u for u in EARLY_UNITS if u in self.workqueue
            ]
            for unit in reversed(first):  # the server units, the longest, first; then the early ones
                self.workqueue.move_to_end(unit, last=False)
            super()._assign_work_unit(node)

    return ByUnit(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # A failure that shows a lone surrogate (half an emoji, drawn by Hypothesis) cannot be sent from
    # a pytest-xdist process (its channel takes UTF-8 only), which ends the whole run: such a
    # report is written with the surrogate escaped ("\\ud800").
    outcome = yield
    report = outcome.get_result()
    if report.failed and hasattr(item.config, "workerinput"):

        def safe(text: str) -> str:
            return text.encode("utf-8", "backslashreplace").decode("utf-8")

        report.longrepr = safe(str(report.longrepr))
        report.sections = [(safe(title), safe(body)) for title, body in report.sections]


@functools.cache
def builtin(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once for the whole test session."""
    return load_builtin(tokenizer_id)


@pytest.fixture(params=[pytest.param(i, id=i) for i in ALL_IDS])
def any_builtin(request) -> Tokenizer:
    """Parametrised over every built-in tokenizer, with readable test ids."""
    return builtin(request.param)


def open_app(page: str | None = None, *, timeout: float = 60, state: dict | None = None):
    """A fresh AppTest of the whole app (entry file, sidebar and navigation) run once on `page`
    (e.g. "app_pages/bpe.py"; the home page when None), with no exception; cached results cleared.

    The page is asked for on the first run, as a deep link does, so the home page is never run
    first. `state` is set after that run, as the user's choices would be, and the page run again.
    Tokenizers stay cached between tests (st.cache_resource): they are immutable and slow to load.
    """
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=timeout)
    if page is not None:
        at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    if state:
        for key, value in state.items():
            at.session_state[key] = copy.deepcopy(value)  # a test may change its own
        at.run()
        assert not at.exception, at.exception
    return at


def ok(at):
    """The AppTest `at` after a run that raised no exception (`ok(at.run())`)."""
    assert not at.exception, at.exception
    return at


@pytest.fixture
def app():
    """A fresh AppTest of the whole app on its home page (see `open_app`)."""
    return open_app()


@pytest.fixture
def page(request):
    """A fresh AppTest on the page under test: the test module's `PAGE` (e.g. "app_pages/bpe.py"),
    with its optional `PAGE_STATE` set (see `open_app`) and `PAGE_TIMEOUT` (seconds, default 60)."""
    module = request.module
    return open_app(
        module.PAGE, timeout=getattr(module, "PAGE_TIMEOUT", 60), state=getattr(module, "PAGE_STATE", None)
    )


def token_views(at) -> list[dict]:
    """The data of every light token view an AppTest run placed (AppTest runs no JavaScript)."""
    import json

    return [
        json.loads(el.proto.bytes.decode("utf-8"))
        for el in at.get("bidi_component")
        if el.proto.component_name == "tw_token_view"
    ]


def shown_counts(at) -> dict[str, str]:
    """Every count on the page, label -> value as shown: the workspace's count cards and the
    metrics of the other pages (their labels unescaped)."""
    shown = {m.label.replace("\\", ""): m.value for m in at.metric}
    return shown | read_count_cards(md.value for md in at.markdown)

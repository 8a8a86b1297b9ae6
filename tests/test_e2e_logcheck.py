"""The browser tests' server-log check fails on every warning and thread traceback, and on an
uncaught exception of a page run, a fragment or a callback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.logcheck import SERVER_FLAGS, log_problems

# Lines as the app server writes them with LOG_FORMAT (copied from a real run of streamlit 1.67).
STARTED = (
    "2026-11-30 15:40:35.330 INFO streamlit.web.server.starlette.starlette_server: Uvicorn server started"
)
PLAIN_WARNING = (
    "2026-11-30 15:40:46.991 WARNING streamlit.runtime.caching: a warning that comes without a stack"
)
STACKED_WARNING = (
    '2026-11-30 15:40:46.991 WARNING streamlit.elements.lib.policies: The widget with key "x" was created '
    "with a default value but also had its value set via the Session State API.\nStack (most recent call last):\n"
    '  File "app.py", line 3, in <module>'
)
THREAD = (
    "Exception in thread Thread-1 (boom):\nTraceback (most recent call last):\n"
    '  File "app.py", line 5, in boom\nValueError: thread boom'
)
SCRIPT_THREAD = (
    "Exception in thread ScriptRunner.scriptThread:\npyo3_runtime.PanicException: Onig: retry-limit"
)


def test_a_clean_log_passes():
    assert (
        log_problems(f"{STARTED}\n\n  You can now view your Streamlit app in your browser.\n  Stopping...\n")
        == []
    )


def test_every_warning_and_thread_traceback_fails():
    assert log_problems(PLAIN_WARNING) == [PLAIN_WARNING]  # no stack: the old check let it pass
    assert len(log_problems(STACKED_WARNING)) == 1  # the record (its stack lines follow)
    assert len(log_problems(THREAD)) == 2
    assert log_problems(SCRIPT_THREAD) == ["Exception in thread ScriptRunner.scriptThread:"]
    assert log_problems("2026-11-30 15:40:46,991 ERROR streamlit: boom") != []


# An uncaught exception as Streamlit prints it when the `rich` package is installed (its panel,
# copied from a real run of streamlit 1.67 with rich 14): colour codes split the words.
RICH_PANEL = (
    "\x1b[31m──\x1b[0m\x1b[31m────────\x1b[0m\x1b[31m \x1b[0m\x1b[1;31mTraceback \x1b[0m"
    "\x1b[1;2;31m(most recent call last)\x1b[0m\x1b[31m \x1b[0m\x1b[31m────────\x1b[0m\n"
    "\x1b[1;91mValueError: \x1b[0mcallback boom"
)


def test_a_rich_traceback_panel_fails():
    assert log_problems(RICH_PANEL) != []


def test_the_server_fixture_logs_levels_and_uses_the_check():
    conftest = (Path(__file__).parent / "e2e" / "conftest.py").read_text()
    assert "*SERVER_FLAGS" in conftest and "log_problems(text)" in conftest
    assert "--logger.enableRich=false" in SERVER_FLAGS


BOOM_APP = """
import streamlit as st

def on_click():
    raise ValueError("callback boom")

st.button("callback", key="callback", on_click=on_click)

@st.fragment
def part():
    if st.button("fragment", key="fragment"):
        raise ValueError("fragment boom")

part()
"""


def test_the_server_fixture_fails_on_a_callback_or_a_fragment_that_raises(tmp_path):
    """A real server: an exception in a button's callback and one in a fragment's own rerun (the
    two paths that do not pass through the page's handler) each fail the log check."""
    from bench.bench_serving import Session
    from tests.e2e.conftest import streamlit_server

    script = tmp_path / "boom_app.py"
    script.write_text(BOOM_APP)

    async def click_both(port: int) -> None:
        s = Session(port)
        try:
            await s.open()
            for key in ("callback", "fragment"):
                await s.set(click=key)
        finally:
            await s.close()

    with pytest.raises(pytest.fail.Exception) as failed, streamlit_server(script) as url:
        asyncio.run(click_both(int(url.rsplit(":", 1)[1])))
    report = str(failed.value)
    assert report.count("ERROR streamlit.error_util: Uncaught app execution") >= 2
    assert "callback boom" in report and "fragment boom" in report

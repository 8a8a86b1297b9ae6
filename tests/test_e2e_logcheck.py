"""The browser tests' server-log check fails on every warning and thread traceback (issue 10)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.logcheck import log_problems

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


def test_the_server_fixture_logs_levels_and_uses_the_check():
    conftest = (Path(__file__).parent / "e2e" / "conftest.py").read_text()
    assert "--logger.messageFormat={LOG_FORMAT}" in conftest and "log_problems(text)" in conftest

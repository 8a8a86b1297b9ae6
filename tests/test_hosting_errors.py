"""What still escapes the app's handlers shows users a short message, not the server's insides.

A real `streamlit run` of a page that raises, with the hosted configuration: the repository's
.streamlit/config.toml (as `streamlit run` on a laptop and the Docker image read it), and the
Dockerfile's environment alone (for a container started with another config mounted).
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT

SECRET = "SECRET-DETAIL-42"
BOOM_PAGE = f"""
import streamlit as st

st.write("before")
raise ValueError("{SECRET}: the server's own words")
"""
# Streamlit's words when the details are hidden (streamlit/elements/exception.py, 1.67)
GENERIC = "This app has encountered an error. The original error message is redacted"


def _dockerfile_env() -> dict[str, str]:
    text = (ROOT / "Dockerfile").read_text()
    block = re.search(r"^ENV (.*?)(?=^\S)", text, re.S | re.M)
    assert block, "the Dockerfile has no ENV block"
    return dict(re.findall(r"([A-Z_]+)=(\S+)", block.group(1)))


def test_the_hosted_configuration_hides_error_details():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["showErrorDetails"] == "none"
    assert _dockerfile_env()["STREAMLIT_CLIENT_SHOW_ERROR_DETAILS"] == "none"


def _page_exception(script: Path, *, cwd: Path, env: dict[str, str]) -> tuple[list[str], str]:
    """Open the page once; the exception elements it drew (as text) and the server's output."""
    from bench.bench_serving import Session, free_port

    port = free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    # a plain traceback: rich's boxed one cuts a long temporary path (as a test process of its own
    # has) across lines; what is shown on the page does not depend on it
    base["STREAMLIT_LOGGER_ENABLE_RICH"] = "false"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false"],
        cwd=cwd, env={**base, **env, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not start: {proc.stdout.read() if proc.stdout else ''}")
                time.sleep(0.2)

        async def open_page():
            s = Session(port)
            try:
                return await s.open()
            finally:
                await s.close()

        rerun = asyncio.run(open_page())
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    return [str(p) for kind, p in rerun.elements if kind == "exception"], out


@pytest.mark.parametrize("where", ["config.toml", "Dockerfile env"])
def test_an_uncaught_error_shows_a_short_message_and_the_log_keeps_the_detail(tmp_path, where):
    script = tmp_path / "boom_page.py"
    script.write_text(BOOM_PAGE)
    if where == "config.toml":  # the repository's folder: its .streamlit/config.toml applies
        shown, log = _page_exception(script, cwd=ROOT, env={})
    else:  # no config file at all, only the image's environment
        env = {k: v for k, v in _dockerfile_env().items() if k.startswith("STREAMLIT_")}
        shown, log = _page_exception(script, cwd=tmp_path, env=env)
    assert len(shown) == 1
    assert GENERIC in shown[0]
    for detail in (SECRET, "ValueError", "boom_page.py", str(tmp_path), "line "):
        assert detail not in shown[0], detail
    log = re.sub(r"\x1b\[[0-9;]*m", "", log)  # a log may be coloured (rich, when its parent process asks)
    assert SECRET in log and "boom_page.py" in log  # the server's log has the whole story

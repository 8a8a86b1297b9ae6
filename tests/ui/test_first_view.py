"""A page's first view (ui/fast_first.py, `FastFirst.first_view`) headless, and the server settings that keep reruns light.

AppTest runs no JavaScript, so the browser's half (the signal that the counts are on screen) is
in tests/e2e/test_first_view_browser.py; here: which runs hold, that a held run nobody answers
still draws the whole page, and that nothing is lost either way.
"""

from __future__ import annotations

import ast
import time
import tomllib

import pytest

from tests.conftest import ENTRY, ROOT, builtin, shown_counts, token_views
from tokenizer_core.tokenizers import load_sample


def _metrics(at) -> dict[str, str]:
    return shown_counts(at)


def _signals(at) -> list:
    return [el for el in at.get("bidi_component") if el.proto.component_name == "tw_first_view"]


def _whole_page(at) -> None:
    """What a user of the home page sees, all of it: counts, table, chart, token views, cost,
    versions, workspace file, share link, about."""
    text = load_sample("mixed")
    assert _metrics(at)["o200k_base"] == f"{builtin('o200k_base').count(text):,}"
    assert len(token_views(at)) == 1
    assert len(at.get("vega_lite_chart")) == 1
    subheaders = [h.value for h in at.subheader]
    assert "Cost per request" in subheaders and "Prompt versions side by side" in subheaders
    labels = [e.label for e in at.expander]
    assert any("Share this view" in x for x in labels) and any("About these tokenizers" in x for x in labels)
    assert any("Workspace file" in x for x in labels)


class Clock:
    """Stands in for the `time` module in ui/fast_first.py: notes each wait of a held run."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.monotonic = time.monotonic

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        time.sleep(seconds)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    from ui import fast_first

    c = Clock()
    monkeypatch.setattr(fast_first, "time", c)
    monkeypatch.setattr(fast_first, "HOLD_SECONDS", 0.3)
    return c


@pytest.fixture
def fresh_app():
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    return AppTest.from_file(ENTRY, default_timeout=60)


def test_a_client_without_a_page_gets_the_whole_page_at_once(fresh_app, clock):
    fresh_app.run()
    assert not fresh_app.exception
    _whole_page(fresh_app)
    assert clock.waits == []  # AppTest sends no page address: nothing to wait for
    assert fresh_app.session_state["workspace_first_view"] == "done"
    assert not _signals(fresh_app)


def test_a_first_view_nobody_answers_draws_the_rest_after_the_hold(fresh_app, clock):
    fresh_app.context["url"] = "http://localhost:8501/"  # as a browser page sends it
    fresh_app.run()
    assert not fresh_app.exception
    assert clock.waits  # the first run held
    _whole_page(fresh_app)  # ... and, with no answer, drew everything itself
    assert fresh_app.session_state["workspace_first_view"] == "done"
    assert not _signals(fresh_app)  # the signal is gone once the page is whole


def test_the_first_view_holds_only_once_per_session(fresh_app, clock):
    fresh_app.context["url"] = "http://localhost:8501/"
    fresh_app.run()
    held = len(clock.waits)
    assert held and not fresh_app.exception
    for text in ("one", "two"):
        fresh_app.session_state["workspace_text"] = text
        fresh_app.run()
        assert not fresh_app.exception and not _signals(fresh_app)
        assert _metrics(fresh_app)["o200k_base"] == str(builtin("o200k_base").count(text))
    fresh_app.switch_page("app_pages/bpe.py").run()
    fresh_app.switch_page("app_pages/workspace.py").run()  # back on the page: no first view again
    assert not fresh_app.exception and not _signals(fresh_app)
    assert len(clock.waits) == held


def test_server_settings_keep_each_run_light():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["postScriptGC"] is False  # a full collection after every keystroke's run
    assert config["runner"]["magicEnabled"] is False  # re-parsing each page's syntax tree


@pytest.mark.parametrize(
    "path", [ROOT / "streamlit_app.py", *sorted((ROOT / "app_pages").glob("*.py"))], ids=lambda p: p.name
)
def test_no_page_relies_on_magic(path):
    """With magic off, a bare expression in a page would silently draw nothing."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for i, stmt in enumerate(body):
                if not isinstance(stmt, ast.Expr) or isinstance(stmt.value, (ast.Call, ast.Await, ast.Yield)):
                    continue
                if i == 0 and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    continue  # a docstring
                bare.append(stmt.lineno)
    assert bare == [], f"{path.name}: bare expressions at lines {bare} (use st.write)"

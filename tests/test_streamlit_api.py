"""The app uses Streamlit through its public API, read from the source (AST):

* every setting widget with a key is made with an explicit ``persist_state`` (ui/settings.py:
  "session" keeps the setting across pages, "page" is the rare one that must forget), and tabs
  with a key through `ui.settings.kept_tabs`;
* only ui/sessions.py, the one documented place, reaches into ``streamlit.runtime``;
* a tokenizer loaded outside any script run (the count route's threads) makes Streamlit log
  nothing, with no logger of Streamlit's silenced.
"""

from __future__ import annotations

import ast
import logging
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = [
    ROOT / "streamlit_app.py",
    *sorted((ROOT / "app_pages").rglob("*.py")),
    *sorted((ROOT / "ui").rglob("*.py")),
]

# Streamlit 1.67's widgets that hold a setting (each takes persist_state).
SETTING_WIDGETS = frozenset(
    "checkbox toggle radio selectbox multiselect segmented_control pills number_input text_input "
    "text_area slider select_slider date_input time_input datetime_input color_picker".split()
)
PERSIST = {"session", "page"}
RUNTIME_PLACE = ROOT / "ui" / "sessions.py"  # its docstring says why it is the one
KEPT_TABS_PLACE = ROOT / "ui" / "settings.py"


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def settings_without_persist_state(source: str) -> list[str]:
    """``"line: widget"`` for each setting widget made with a key (or ``**kwargs`` that may hold
    one) and no explicit ``persist_state="session"`` / ``"page"``; and for tabs made with a key."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        kw = {k.arg: k.value for k in node.keywords}
        keyed = "key" in kw or None in kw
        if name == "tabs" and keyed:
            out.append(f"{node.lineno}: tabs (make them with ui.settings.kept_tabs)")
        elif name in SETTING_WIDGETS and keyed:
            value = kw.get("persist_state")
            if not (isinstance(value, ast.Constant) and value.value in PERSIST):
                out.append(f"{node.lineno}: {name}")
    return out


def runtime_uses(source: str) -> list[str]:
    """``"line: what"`` for each import of ``streamlit.runtime`` (or of ``runtime`` from
    streamlit), each ``st.runtime`` / ``streamlit.runtime`` attribute, and each string naming one
    of its modules (a logger, an import by name)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [
                f"{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.startswith("streamlit.runtime")
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("streamlit.runtime") or (
                node.module == "streamlit" and any(a.name == "runtime" for a in node.names)
            ):
                out.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Attribute) and node.attr == "runtime":
            if isinstance(node.value, ast.Name) and node.value.id in {"st", "streamlit"}:
                out.append(f"{node.lineno}: {node.value.id}.runtime")
        elif isinstance(node, ast.Constant) and str(node.value).startswith("streamlit.runtime"):
            out.append(f"{node.lineno}: {node.value!r}")
    return out


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_setting_widget_with_a_key_says_how_long_it_keeps_its_value():
    missing = {
        _rel(p): found
        for p in APP
        if p != KEPT_TABS_PLACE and (found := settings_without_persist_state(p.read_text()))
    }
    assert missing == {}, (
        'pass persist_state="session" (kept for the session, see ui/settings.py) or "page" (forgotten '
        "when the user leaves the page) where each of these is made"
    )


def test_the_scan_sees_every_kind_of_widget_and_call():
    src = """
st.toggle("a", key="k1")
col.number_input("b", 0, 9, key="k2", persist_state="session")
st.sidebar.selectbox("c", [1], key="k3", persist_state=None)
st.text_area("d", **options)
st.tabs(["x", "y"], key="k4", on_change="rerun")
st.slider("e", key=f"k5_{i}", persist_state="page")
st.button("f", key="k6")
st.multiselect("g", [1])
pills("h", [1], key="k7")
"""
    assert settings_without_persist_state(src) == [
        "2: toggle",
        "4: selectbox",
        "5: text_area",
        "6: tabs (make them with ui.settings.kept_tabs)",
        "10: pills",
    ]


def test_only_ui_sessions_reaches_into_streamlit_runtime():
    found = {_rel(p): hits for p in APP if p != RUNTIME_PLACE and (hits := runtime_uses(p.read_text()))}
    assert found == {}, "use Streamlit's public API, or add what you need to ui/sessions.py"
    assert runtime_uses(RUNTIME_PLACE.read_text())  # the place itself (else this test sees nothing)
    assert "one module of the app that reaches into Streamlit's runtime" in RUNTIME_PLACE.read_text()


def test_the_runtime_scan_sees_imports_attributes_and_logger_names():
    src = """
import streamlit.runtime.state as s
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit import runtime
if st.runtime.exists():
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
from streamlit import config
'''A docstring that mentions streamlit.runtime.'''
"""
    assert [h.split(":")[0] for h in runtime_uses(src)] == ["2", "3", "4", "5", "6"]


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
def streamlit_log():
    """Every message Streamlit's loggers log (each has a handler of its own and does not
    propagate, so the handler goes on each)."""
    import streamlit  # noqa: F401  (makes its loggers)

    handler = _Records()
    loggers = [
        logging.getLogger(n) for n in list(logging.root.manager.loggerDict) if n.startswith("streamlit")
    ]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def test_a_tokenizer_loaded_outside_a_run_makes_streamlit_log_nothing(streamlit_log):
    """What the count route's threads do on a keystroke, before any page loaded the tokenizer.
    Streamlit warns "missing ScriptRunContext" when a cached function shows its spinner outside a
    run: the route's loads show none."""
    from ui.state import _cached_builtin, builtin_tokenizer

    _cached_builtin.clear()
    got = []
    thread = threading.Thread(target=lambda: got.append(builtin_tokenizer("r50k_base")), name="tw-count_0")
    thread.start()
    thread.join()
    assert got and got[0].encode("hello world") == [31373, 995]  # GPT-2's ids (tiktoken's README)
    assert [m for m in streamlit_log if "ScriptRunContext" in m] == []

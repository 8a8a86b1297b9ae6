"""Every page, the prompt workspace's fragment and every button callback, with hostile input: no
exception on the page and no uncaught error in Streamlit's log, whatever the user sends.

The inputs are those of the hostile-input reports: a user's tokenizer that passes the upload
check and fails on longer text (and has a Markdown name), deeply nested JSON in tools, chat
messages, versions and files, malformed versions, counts far over the caps, a number of
thousands of digits, a lone surrogate (half an emoji, as a browser can send it), binary files.
On each page: the user's tokenizer is chosen, then hostile text entered (one case) or every file
box given every hostile file (another), then every enabled button clicked, one at a time.
"""

from __future__ import annotations

import json
import logging

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY
from tests.tokenizers.test_failures import BAD_TEXT, _panicky, _panicky_json
from tokenizer_core.workspace import pack_text
from tokenizer_core.workspace.file import FORMAT

DEEP = "[" * 1_990 + "]" * 1_990
HUGE_NUMBER = "1" * 5_000
TEXTS = [
    f"def f():\n    return '{BAD_TEXT}'\n",  # the user's tokenizer gives up on this
    "half an emoji: \ud83d and text",
    DEEP,
    "**bold** [x](https://evil.example) ![i](https://evil.example/i.png) <img src=x onerror=alert(1)>",
    "<|endoftext|><|im_start|>user",
]
BAD_VERSIONS = [
    {"kind": "poem"},
    {"name": 5},
    {"name": "ok", "text": BAD_TEXT},
    {"name": "ok2", "text": "hi"},
]
LINK = {
    "tok": "o200k_base,llama-3.1,gpt-4o," + "nope," * 50,
    "mode": "chat",
    "zt": pack_text(DEEP),
    "zm": pack_text(json.dumps([["user", ""]] * 300)),
    "zv": pack_text(json.dumps(BAD_VERSIONS)),
    "ctx": HUGE_NUMBER,
    "view": "<b>",
}


def _workspace(**fields) -> bytes:
    return json.dumps({"format": FORMAT, "version": 1, **fields}).encode()


FILES = {
    "binary.json": b"\x00\xff\xfe binary \x00",
    "deep.json": DEEP.encode() * 20,
    "number.json": b'{"format": "tokenizer-workbench/workspace", "version": 1, "text": '
    + HUGE_NUMBER.encode()
    + b"}",
    "surrogate.txt": b"text \xed\xa0\x80 half an emoji",  # a surrogate's UTF-8 bytes: not valid UTF-8
    "ws-bad.json": _workspace(
        versions=BAD_VERSIONS,
        messages=[["boss", "x"]] + [["user", ""]] * 300,
        tools=DEEP,
        models=["gpt-4o", 7, "nope"],
        mode="poem",
    ),  # fmt: skip
    "ws-many.json": _workspace(versions=[{}] * 5_000, mode="chat", messages=[["user", ""]] * 1_300),
    # half an emoji, written as JSON writes it ("\ud83d"): a text no cache of Python's can hash
    "ws-half-emoji.json": _workspace(
        text="half \ud83d", messages=[["user", "\udfff half"]], versions=[{"name": "v", "text": "\ud800"}]
    ),
    "tokenizer.json": _panicky_json(),
    "words.csv": b"language,text\n**x** [y](https://evil.example)," + BAD_TEXT.encode() + b"\n",
}
PICKERS = {  # page -> (widget kind, key) of its tokenizer choice
    "counter": ("picker", "workspace_tokenizers"),
    "languages": ("multiselect", "languages_tokenizers"),
    "identifiers": ("multiselect", "identifiers_tokenizers"),
    "chunks": ("selectbox", "chunks_tokenizer"),
    "inside": ("selectbox", "inside_tokenizer"),
}
TEXT_BOXES = {
    "bpe": "bpe_corpus_text", "identifiers": "identifiers_text", "chunks": "chunks_text", "inside": "inside_text"
}  # fmt: skip


class _Log(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
def errors_logged():
    handler = _Log()
    logger = logging.getLogger("streamlit")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


class Checked:
    """An AppTest whose every run must end with no exception and nothing logged as an error."""

    def __init__(self, at: AppTest, log: list[str]) -> None:
        self.at, self.log, self.steps = at, log, 0

    def run(self, what: str, action=None) -> None:
        (action() if action else self.at).run()
        self.steps += 1
        shown = [e.value for e in self.at.exception]
        assert not shown, f"after {what}: {shown}"
        assert not self.log, f"after {what}: {self.log}"


def _choose_own_tokenizer(c: Checked, page: str, own_id: str) -> None:
    if page not in PICKERS:
        return
    kind, key = PICKERS[page]
    if kind == "picker":  # the model picker (its JavaScript, which AppTest does not run, sets this)
        chosen = list(c.at.session_state[key])

        def choose() -> AppTest:
            c.at.session_state[key] = [own_id, *chosen][:3]
            return c.at

        c.run("choosing the user's tokenizer", choose)
        return
    widget = getattr(c.at, kind)(key=key)
    if kind == "multiselect":
        c.run("choosing the user's tokenizer", lambda: widget.set_value([own_id, *widget.value][:3]))
    else:  # a select box's options are the labels it shows
        index = next(i for i, label in enumerate(widget.options) if label.endswith("(yours)"))
        c.run("choosing the user's tokenizer", lambda: widget.select_index(index))


def _enter(c: Checked, page: str, text: str) -> None:
    # A lone surrogate reaches the app only through the live box's JSON (a plain text box's value
    # travels as a protobuf string, which must be valid UTF-8: AppTest cannot even send one).
    plain = not any("\ud800" <= ch <= "\udfff" for ch in text)
    if page == "counter":
        c.at.session_state["workspace_text"] = text  # the live box's value, as the browser sends it
        if plain:
            c.at.session_state["workspace_chat_tools"] = text
        c.run(f"text {text[:20]!r}")
    elif page == "inside":  # a live box too: its value as the browser sends it
        c.at.session_state["inside_text"] = text
        c.run(f"text {text[:20]!r}")
    elif page in TEXT_BOXES and plain:
        box = c.at.text_area(key=TEXT_BOXES[page])
        c.run(f"text {text[:20]!r}", lambda: box.input(text))


def _upload_everything(c: Checked, page: str) -> None:
    """Every hostile file into every file box, named with a type the box accepts (as a browser
    only offers those): a box sees every content, whatever its name says. The sidebar's box is
    the same on every page: tried on the first page only."""
    for key in [u.key for u in c.at.file_uploader if page == "counter" or u.key != "custom_tok_file"]:
        for name, data in FILES.items():
            # a box that takes a file and is drawn again empty (the workspace's image boxes) has a
            # new key: the same box is the one whose key differs only in its last part
            boxes = {u.key: u for u in c.at.file_uploader}
            stem = key.rsplit("_", 1)[0]
            uploader = boxes.get(key) or next(u for k, u in boxes.items() if k.rsplit("_", 1)[0] == stem)
            key = uploader.key
            allowed = list(uploader.allowed_type or [])
            if allowed and not any(name.endswith(ext) for ext in allowed):
                name = name.rsplit(".", 1)[0] + allowed[0]
            upload = (name, data, "application/octet-stream")
            c.run(f"{name} into {key}", lambda u=uploader, f=upload: u.set_value(f))


def _click_everything(c: Checked, *, limit: int = 60) -> None:
    """Click every enabled button once (the page changes as it goes: look again after each)."""
    clicked: set[str] = set()
    for _ in range(limit):
        todo = [b for b in c.at.button if b.key and b.key not in clicked and not b.disabled]
        if not todo:
            return
        button = todo[0]
        clicked.add(button.key)
        c.run(f"clicking {button.key}", button.click)


@pytest.fixture
def own_tokenizer(monkeypatch):
    """The user's failing tokenizer, known to the select boxes' labels outside a run too.

    AppTest formats a select box's value in the test's thread, where there is no session, so
    `tokenizer_label` would not find the session's own tokenizer and AppTest would fail.
    """
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    import ui.state

    bad = _panicky()
    in_session = ui.state.session_tokenizers
    monkeypatch.setattr(
        ui.state, "session_tokenizers", lambda: in_session() if get_script_run_ctx() else {bad.id: bad}
    )
    return bad


PAGES = ["counter", "datasets", "bpe", "languages", "identifiers", "chunks", "inside"]


# Hostile texts on each page with a text box, hostile files on every page, every button clicked
# after either: short cases that the test processes share out.
# ("inside" has no file box of its own.)
CASES = [(p, "texts") for p in PAGES if p == "counter" or p in TEXT_BOXES] + [
    (p, "files") for p in PAGES if p != "inside"
]


@pytest.mark.parametrize(("page", "given"), CASES, ids=[f"{p}-{g}" for p, g in CASES])
def test_every_page_and_button_with_hostile_input(page, given, errors_logged, own_tokenizer):
    import streamlit as st

    st.cache_data.clear()
    bad = own_tokenizer
    at = AppTest.from_file(ENTRY, default_timeout=180)
    at.session_state["session_tokenizers"] = {bad.id: bad}
    if page == "counter":
        at.query_params.update(LINK)
    else:  # opened on the page itself, as a link to it does
        at.switch_page(f"app_pages/{page}.py")
    c = Checked(at, errors_logged)
    c.run(f"opening {page}")
    _choose_own_tokenizer(c, page, bad.id)
    if given == "texts":
        for text in TEXTS:
            _enter(c, page, text)
    else:
        _upload_everything(c, page)
    _click_everything(c)
    if page == "counter":  # and the other prompt mode, with its own buttons
        mode = at.segmented_control(key="workspace_mode")
        c.run("switching the prompt mode", lambda: mode.set_value("text" if mode.value == "chat" else "chat"))
        _click_everything(c)
    # it really drove the page: every text entered, or every file into a box at least
    assert c.steps >= 1 + (len(TEXTS) - 1 if given == "texts" else len(FILES)), c.steps

"""Saved work coming back into a new session (ui/saved_work.py), headless. AppTest runs no
JavaScript, so each test hands a new session what the browser's component would send (every
page's saved text, as `_on_answer` leaves it in `SavedWork`) and checks what the page then shows."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok
from tokenizer_core.saved_work import FORMAT, VERSION, pack


def saved(page: str, values: dict) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "page": page, "values": values})


def new_session(page: str, *, query: dict | None = None):
    """A new session on `page` that has drawn nothing yet (a reload)."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ENTRY

    at = AppTest.from_file(ENTRY, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.switch_page(f"app_pages/{page}.py") if page != "workspace" else at


def restored(at, page: str, raw: str, *, reloaded: bool = True, light: str | None = None):
    """The browser answered with `raw` for `page`: a run restores it and waits for the browser's
    "go", which asks for the run that draws the page."""
    from ui.saved_work import SavedWork

    work = SavedWork(stage="files", saved={page: raw, page + "#light": light}, reloaded=reloaded)
    at.session_state["saved_work"] = work
    ok(at.run())
    assert work.stage == "go" and any("Restoring your work" in c.value for c in at.caption)
    work.stage = "done"  # the browser's "go"
    return ok(at.run())


@pytest.fixture
def chunks(app):
    return ok(app.switch_page("app_pages/chunks.py").run())


def test_the_chunk_previewer_gets_its_document_and_settings_back():
    raw = saved(
        "chunks", {"chunks_text": "My document. " * 50, "chunks_strategy": "tokens", "chunks_size": 16}
    )
    at = restored(new_session("chunks"), "chunks", raw)
    assert at.text_area(key="chunks_text").value == "My document. " * 50
    assert at.selectbox(key="chunks_strategy").value == "tokens"
    assert at.number_input(key="chunks_size").value == 16


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("{damaged", id="corrupt"),
        pytest.param(saved("chunks", {"chunks_text": 42, "chunks_size": "big"}), id="wrong-kinds"),
        pytest.param(saved("chunks", {"chunks_load_sample": True, "chunks_upload": "x"}), id="button-keys"),
        pytest.param(saved("chunks", {"chunks_strategy": "no such strategy"}), id="unknown-option"),
        pytest.param(saved("chunks", {"chunks_size": -5}), id="out-of-range"),
        pytest.param(
            json.dumps({"format": FORMAT, "version": 99, "page": "chunks", "values": {}}), id="newer"
        ),
        pytest.param("x" * 2_100_000, id="huge"),
    ],
)
def test_bad_saved_work_shows_the_page_as_new_without_a_traceback(chunks, raw):
    default = chunks.text_area(key="chunks_text").value
    at = restored(new_session("chunks"), "chunks", raw)
    assert at.text_area(key="chunks_text").value == default
    assert not at.error or all("Traceback" not in e.value for e in at.error)


def test_the_workspace_gets_a_long_prompt_chat_versions_and_models_back():
    prompt = "You are a careful assistant. Answer in three short sentences.\n" * 105  # 6.5 KB
    raw = saved(
        "workspace",
        {
            "workspace_text": prompt, "workspace_tokenizers": ["gpt-4o", "llama-3.1-8b"], "workspace_out_tokens": 777,
            "_versions": [{"name": "first draft", "kind": "text", "text": "v1 text", "messages": [], "tools": ""}],
            "_chat": [["system", "Be brief."], ["user", "Hello"]],
        },
    )  # fmt: skip
    at = restored(new_session("workspace"), "workspace", raw)
    assert at.session_state["workspace_text"] == prompt
    assert at.session_state["workspace_tokenizers"] == ["gpt-4o", "llama-3.1-8b"]
    assert at.session_state["workspace_out_tokens"] == 777
    assert [v.name for v in at.session_state["workspace_versions"]] == ["first draft"]
    ids = at.session_state["workspace_chat_msgs"]
    assert [at.session_state[f"workspace_chat_text_{i}"] for i in ids] == ["Be brief.", "Hello"]


def test_a_share_link_opened_wins_over_saved_work():
    """Opened on a link (not a reload of the page's own address bar): the link's text stays."""
    from tokenizer_core.workspace.share import share_link

    link = share_link(
        tokenizers=["gpt-4o"], text="the link's text", view="text", context_window=128_000,
        whitespace=False, allow_special=False,
    ).params  # fmt: skip
    at = restored(
        new_session("workspace", query=link), "workspace", saved("workspace", {"workspace_text": "my saved text"}),
        reloaded=False,
    )  # fmt: skip
    assert at.session_state["workspace_text"] == "the link's text"


def test_a_reloaded_workspace_gets_its_saved_work_over_the_address_bar():
    """A reloaded tab's address bar holds the link of the view it showed, which names no own
    tokenizer and no version: the saved work wins."""
    from tokenizer_core.workspace.share import share_link

    link = share_link(
        tokenizers=["gpt-4o"], text="the address bar's text", view="text", context_window=128_000,
        whitespace=False, allow_special=False,
    ).params  # fmt: skip
    raw = saved("workspace", {"workspace_text": "my saved text", "workspace_tokenizers": ["gpt-4", "gpt-4o"]})
    at = restored(new_session("workspace", query=link), "workspace", raw)
    assert at.session_state["workspace_text"] == "my saved text"
    assert at.session_state["workspace_tokenizers"] == ["gpt-4", "gpt-4o"]


def test_work_over_the_cap_is_named_and_the_rest_kept(chunks):
    at = chunks
    at.text_area(key="chunks_text").input("word " * 450_000)  # 2.25 MB: over the 2 MB per page
    ok(at.run())
    assert any(
        "Too large to keep in this browser" in c.value and "the document" in c.value for c in at.caption
    )
    text, left_out = pack("chunks", {"chunks_text": "word " * 450_000, "chunks_size": 128})
    assert left_out == ["chunks_text"] and "chunks_size" in text


def test_inside_a_tokenizer_gets_its_text_and_tokenizers_back():
    raw = saved(
        "inside",
        {
            "inside_text": "My own words, 1234567.",
            "inside_tokenizer": "cl100k_base",
            "inside_compare": ["r50k_base"],
        },
    )
    at = restored(new_session("inside"), "inside", raw)
    assert at.session_state["inside_text"] == "My own words, 1234567."  # the live box's text
    assert at.session_state["inside_tokenizer"] == "cl100k_base"
    assert at.session_state["inside_compare"] == ["r50k_base"]


def test_datasets_gets_a_pasted_list_and_its_settings_back():
    raw = saved(
        "datasets",
        {"datasets_paste": "first line\nsecond line", "datasets_models": ["gpt-4o"], "datasets_budget": 4000},
    )
    at = restored(new_session("datasets"), "datasets", raw)
    assert at.session_state["datasets_paste"] == "first line\nsecond line"
    assert at.session_state["datasets_models"] == ["gpt-4o"]
    assert at.session_state["datasets_budget"] == 4000


# ------------------------------------------------------------------ the BPE step, a light value


def _saved_work_data(at, page: str) -> tuple[dict, int]:
    """What the page's saved-work element was given in the last run, and its size in bytes."""
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_saved_work"):
            which = el.proto.WhichOneof("data")
            raw = el.proto.json if which == "json" else el.proto.mixed.json
            data = json.loads(raw)
            if data.get("key") == f"tokenizer-workbench/{page}":
                return data, len(raw.encode())
    raise AssertionError("no saved-work element on the page")


def test_a_bpe_step_click_sends_only_the_step_and_a_reload_gets_the_step_back(app):
    at = ok(app.switch_page("app_pages/bpe.py").run())
    assert at.slider(key="bpe_step").value == 1  # the first visit trains seed 002's corpus
    data, first = _saved_work_data(at, "bpe")
    assert first > 1_000  # this run sent the page's snapshot: corpus and trained model
    snapshot = data["text"]
    for _ in range(3):
        at = ok(at.button(key="bpe_next").click().run())
    data, size = _saved_work_data(at, "bpe")
    assert at.slider(key="bpe_step").value == 4
    assert "text" not in data  # the corpus and model did not change: not sent again
    assert json.loads(data["light"])["values"] == {"bpe_step": 4}
    assert size < 1_000, size  # a click's message: the step, not the 2 MB snapshot

    fresh = restored(new_session("bpe"), "bpe", snapshot, light=data["light"])  # a new session
    assert fresh.slider(key="bpe_step").value == 4
    assert fresh.number_input(key="bpe_merges").value == at.number_input(key="bpe_merges").value
    before, after = at.session_state["bpe_model"], fresh.session_state["bpe_model"]
    assert after.source == "trained" and after.merges == before.merges  # the corpus words the page shows too:
    assert (after.words, after.freqs) == (before.words, before.freqs) and len(after.words) > 5


def test_a_damaged_light_entry_is_ignored():
    for light in ("{damaged", saved("bpe", {"bpe_step": "four"}), saved("chunks", {"bpe_step": 3})):
        at = restored(new_session("bpe"), "bpe", saved("bpe", {"bpe_merges": 5}), light=light)
        assert at.slider(key="bpe_step").value == 1


# ------------------------------------------------------------------ no page before the restore


def test_a_new_session_draws_no_page_until_the_browser_has_answered_so_typing_cannot_meet_a_restore():
    """The first runs ask the browser and stop: no widget exists that the user could type in and a
    late restore could overwrite. Each run asks with the session's mark until the answer is here."""
    from ui.saved_work import SavedWork

    at = new_session("chunks")
    work = SavedWork()
    at.session_state["saved_work"] = work
    for _ in range(2):
        at = ok(at.run())
        assert not at.text_area and any("Restoring your work" in c.value for c in at.caption)
        (session,) = [d for d in _elements(at) if "stage" in d]
        assert session["stage"] == "asking" and session["mark"] == work.mark
    work.saved, work.stage = {"chunks": saved("chunks", {"chunks_text": "my saved document"})}, "files"
    at = ok(at.run())
    work.stage = "done"
    at = ok(at.run())
    assert at.text_area(key="chunks_text").value == "my saved document"
    at.text_area(key="chunks_text").input("typed after it came")  # the user's typing is kept
    at = ok(at.run())
    assert (
        json.loads(_saved_work_data(at, "chunks")[0]["text"])["values"]["chunks_text"]
        == "typed after it came"
    )
    at = ok(at.run())
    assert at.text_area(key="chunks_text").value == "typed after it came"


def _elements(at) -> list[dict]:
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_saved_work"):
            which = el.proto.WhichOneof("data")
            out.append(json.loads(el.proto.json if which == "json" else el.proto.mixed.json))
    return out


def test_clear_removes_the_saved_work_and_does_not_write_the_page_again_until_it_changes(chunks):
    at = ok(chunks.text_area(key="chunks_text").input("my document").run())
    assert "text" in _saved_work_data(at, "chunks")[0]
    at = ok(at.button(key="saved_work_clear").click().run())
    (session,) = [d for d in _elements(at) if "stage" in d]
    assert session["clear"] and session["put"] == []
    data, _ = _saved_work_data(at, "chunks")
    assert "text" not in data and "text_digest" not in data  # not written back, nor asked for again
    at = ok(at.text_area(key="chunks_text").input("a new document").run())
    assert "a new document" in _saved_work_data(at, "chunks")[0]["text"]


def test_the_language_costs_get_each_cell_of_the_texts_table_back():
    """Your translations come back as typed, the "Spaces between words" ticks included; an empty
    cell is empty, and what is not a row is left out with a word."""
    from ui.languages.texts import TABLE

    rows = [
        {"code": "xx", "language": "Klingon (mine)", "script": "Latin", "whitespace_words": False,
         "text": "tlhIngan Hol Dajatlh'a'"},
        {"code": "en", "language": "English", "script": "Latin", "whitespace_words": True, "text": "Hello."},
        {"code": "ja", "language": "Japanese", "script": "Japanese", "whitespace_words": None, "text": "こんにちは"},
        {"code": None, "language": "Odd cells", "script": None, "whitespace_words": "maybe", "text": "Kept."},
    ]  # fmt: skip
    at = restored(new_session("languages"), "languages", saved("languages", {"_texts": [*rows, "not a row"]}))
    assert [r["whitespace_words"] for r in at.session_state[TABLE]] == [False, True, None, None]
    assert at.session_state[TABLE][:3] == rows[:3]
    assert at.session_state[TABLE][3] == {**rows[3], "code": "", "script": "", "whitespace_words": None}
    assert any("some saved languages were left out" in t.value for t in at.toast)

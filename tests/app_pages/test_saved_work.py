"""Saved work coming back into a new session (ui/saved_work.py), headless. AppTest runs no
JavaScript, so each test hands the app what the browser's component would send (the page's saved
text, as `_on_stored` leaves it) and checks what the page then shows."""

from __future__ import annotations

import json

import pytest

from tokenizer_core.saved_work import FORMAT, VERSION, pack

PENDING = "_tw_saved_pending"


def ok(at):
    assert not at.exception, at.exception
    return at


def saved(page: str, values: dict) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "page": page, "values": values})


def restored(at, page: str, raw: str, *, reloaded: bool = True):
    """The browser sent `raw` for `page`: the next run restores it, the one after shows it."""
    at.session_state[f"_tw_saved_loaded/{page}"] = True
    at.session_state["_tw_saved_reloaded"] = reloaded
    at.session_state[PENDING] = (page, raw)
    ok(at.run())
    return shown(at)


def shown(at):
    """The run the browser asks for once it shows the restoring run's answer, which names it
    (ui/saved_work.py, `_ask_for_a_run`): the page as restored."""
    if "_tw_saved_guard" in at.session_state:
        at.session_state["_tw_saved_applied"] = at.session_state["_tw_saved_guard"]["pings"][-1]
    return ok(at.run())


@pytest.fixture
def chunks(app):
    return ok(app.switch_page("app_pages/chunks.py").run())


def test_the_chunk_previewer_gets_its_document_and_settings_back(chunks):
    raw = saved(
        "chunks", {"chunks_text": "My document. " * 50, "chunks_strategy": "tokens", "chunks_size": 16}
    )
    at = restored(chunks, "chunks", raw)
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
    at = restored(chunks, "chunks", raw)
    assert at.text_area(key="chunks_text").value == default
    assert not at.error or all("Traceback" not in e.value for e in at.error)


def test_the_workspace_gets_a_long_prompt_chat_versions_and_models_back(app):
    prompt = "You are a careful assistant. Answer in three short sentences.\n" * 105  # 6.5 KB
    raw = saved(
        "workspace",
        {
            "workspace_text": prompt, "workspace_tokenizers": ["gpt-4o", "llama-3.1-8b"], "workspace_out_tokens": 777,
            "_versions": [{"name": "first draft", "kind": "text", "text": "v1 text", "messages": [], "tools": ""}],
            "_chat": [["system", "Be brief."], ["user", "Hello"]],
        },
    )  # fmt: skip
    at = restored(app, "workspace", raw)
    assert at.session_state["workspace_text"] == prompt
    assert at.session_state["workspace_tokenizers"] == ["gpt-4o", "llama-3.1-8b"]
    assert at.session_state["workspace_out_tokens"] == 777
    assert [v.name for v in at.session_state["workspace_versions"]] == ["first draft"]
    ids = at.session_state["workspace_chat_msgs"]
    assert [at.session_state[f"workspace_chat_text_{i}"] for i in ids] == ["Be brief.", "Hello"]


def test_a_share_link_opened_wins_over_saved_work(app):
    """Opened on a link (not a reload of the page's own address bar): the link's text stays."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ENTRY
    from tokenizer_core.workspace.share import share_link

    at = AppTest.from_file(ENTRY, default_timeout=60)
    for key, value in share_link(
        tokenizers=["gpt-4o"],
        text="the link's text",
        view="text",
        context_window=128_000,
        whitespace=False,
        allow_special=False,
    ).params.items():
        at.query_params[key] = value
    ok(at.run())
    linked = at.session_state["workspace_text"]
    assert linked == "the link's text"
    at = restored(at, "workspace", saved("workspace", {"workspace_text": "my saved text"}), reloaded=False)
    assert at.session_state["workspace_text"] == linked


def test_work_over_the_cap_is_named_and_the_rest_kept(chunks):
    at = chunks
    at.session_state["_tw_saved_loaded/chunks"] = True
    at.text_area(key="chunks_text").input("word " * 450_000)  # 2.25 MB: over the 2 MB per page
    ok(at.run())
    assert any(
        "Too large to keep in this browser" in c.value and "the document" in c.value for c in at.caption
    )
    text, left_out = pack("chunks", {"chunks_text": "word " * 450_000, "chunks_size": 128})
    assert left_out == ["chunks_text"] and "chunks_size" in text


def test_inside_a_tokenizer_gets_its_text_and_tokenizers_back(app):
    at = ok(app.switch_page("app_pages/inside.py").run())
    raw = saved(
        "inside",
        {
            "inside_text": "My own words, 1234567.",
            "inside_tokenizer": "cl100k_base",
            "inside_compare": ["r50k_base"],
        },
    )
    at = restored(at, "inside", raw)
    assert at.session_state["inside_text"] == "My own words, 1234567."  # the live box's text
    assert at.session_state["inside_tokenizer"] == "cl100k_base"
    assert at.session_state["inside_compare"] == ["r50k_base"]


def test_datasets_gets_a_pasted_list_and_its_settings_back(app):
    at = ok(app.switch_page("app_pages/datasets.py").run())
    raw = saved(
        "datasets",
        {"datasets_paste": "first line\nsecond line", "datasets_models": ["gpt-4o"], "datasets_budget": 4000},
    )
    at = restored(at, "datasets", raw)
    assert at.session_state["datasets_paste"] == "first line\nsecond line"
    assert at.session_state["datasets_models"] == ["gpt-4o"]
    assert at.session_state["datasets_budget"] == 4000


# ------------------------------------------------------------------ the BPE step, a light value


def _saved_work_data(at, page: str) -> tuple[dict, int]:
    """What the page's saved-work component was given in the last run, and its size in bytes."""
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_saved_work"):
            which = el.proto.WhichOneof("data")
            raw = el.proto.json if which == "json" else el.proto.mixed.json
            data = json.loads(raw)
            if data.get("key") == f"tokenizer-workbench/{page}":
                return data, len(raw.encode())
    raise AssertionError("no saved-work component on the page")


def test_a_bpe_step_click_sends_only_the_step_and_a_reload_gets_the_step_back(app):
    at = ok(app.switch_page("app_pages/bpe.py").run())
    assert at.slider(key="bpe_step").value == 1  # the first visit trains seed 002's corpus
    _, first = _saved_work_data(at, "bpe")
    assert first > 1_000  # this run sent the page's snapshot: corpus and trained model
    snapshot = next(
        json.loads(el.proto.json)["snapshot"]
        for el in at.get("bidi_component")
        if el.proto.component_name.endswith("tw_saved_work") and "snapshot" in el.proto.json
    )
    for _ in range(3):
        at = ok(at.button(key="bpe_next").click().run())
    data, size = _saved_work_data(at, "bpe")
    assert at.slider(key="bpe_step").value == 4
    assert "snapshot" not in data  # the corpus and model did not change: not sent again
    assert json.loads(data["light"])["values"] == {"bpe_step": 4}
    assert size < 1_000, size  # a click's message: the step, not the 2 MB snapshot

    # a new session: the browser sends both entries back
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ENTRY

    fresh = AppTest.from_file(ENTRY, default_timeout=60)
    ok(fresh.run())
    fresh = ok(fresh.switch_page("app_pages/bpe.py").run())
    fresh.session_state["_tw_saved_loaded/bpe"] = True
    fresh.session_state[PENDING] = ("bpe", snapshot, data["light"])
    ok(fresh.run())  # the page's work, then (a run later, when the page has its model) the step
    shown(fresh)
    fresh = shown(fresh)
    assert fresh.slider(key="bpe_step").value == 4


def test_a_damaged_light_entry_is_ignored(app):
    at = ok(app.switch_page("app_pages/bpe.py").run())
    at = restored(at, "bpe", saved("bpe", {"bpe_merges": 5}))
    at.session_state["_tw_saved_loaded/bpe"] = True
    for light in ("{damaged", saved("bpe", {"bpe_step": "four"}), saved("chunks", {"bpe_step": 3})):
        at.session_state[PENDING] = ("bpe", saved("bpe", {"bpe_merges": 5}), light)
        ok(at.run())
        shown(at)
        at = shown(at)
        assert at.slider(key="bpe_step").value == 1


# ------------------------------------------------------------------ typing before the restore comes


def test_text_typed_before_the_restore_comes_stays_and_the_saved_text_is_a_click_away(chunks):
    """The session's first run asked the browser; the user typed before its answer came."""
    at = chunks
    at.text_area(key="chunks_text").input("typed in the first second")
    at = ok(at.run())
    at.session_state[PENDING] = (
        "chunks",
        saved("chunks", {"chunks_text": "my saved document", "chunks_size": 16}),
    )
    ok(at.run())
    at = shown(at)
    assert at.text_area(key="chunks_text").value == "typed in the first second"
    assert at.number_input(key="chunks_size").value == 16  # what the user did not touch comes back
    assert any("your typing stays" in t.value for t in at.toast)
    at = ok(at.button(key="chunks_restore").click().run())
    assert at.text_area(key="chunks_text").value == "my saved document"


# ------------------------------------------------------------------ the ask for the saved work


def test_every_run_asks_for_the_saved_work_until_it_is_here_and_then_says_so(chunks):
    """The ask (`load`, the session's mark) is in every run until the browser's answer is here: a
    run cut short by the next never reaches the browser. Then the browser is told (`restored`),
    in every run, and writes the page's work again."""
    at = chunks
    data, _ = _saved_work_data(at, "chunks")
    mark = data["load"]
    assert isinstance(mark, str) and data["restored"] is False
    at = ok(at.run())
    data, _ = _saved_work_data(at, "chunks")
    assert data["load"] == mark and data["restored"] is False  # asked again, same session
    at = restored(at, "chunks", saved("chunks", {"chunks_text": "my saved document"}))
    at.session_state["_tw_saved_stored/chunks"] = True  # as `_on_stored` leaves it
    at = ok(at.run())
    data, _ = _saved_work_data(at, "chunks")
    assert "load" not in data and data["restored"] is True
    at = ok(at.run())
    assert _saved_work_data(at, "chunks")[0]["restored"] is True

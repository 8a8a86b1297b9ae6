"""Every setting of every page survives the session (ui/settings.py), in Chromium.

One session sets every widget of each page, page after page, to a value that is not its default.
Then it visits every page through the app's navigation; drops the websocket on each page, so that
the page reconnects to the same session; and visits every page once more. Each test checks one
page's values at each of those points, and what its hidden widgets kept. One session for all the
pages also shows that no page's settings disturb another's, for the cost of one round of visits.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e import settings_driver as d
from tests.e2e.conftest import AppPage

pytestmark = pytest.mark.e2e

SIDEBAR = '[data-testid="stSidebar"]'
# The points at which each page's values are read, after every page has been set.
LAPS = ("after a visit to every page", "after a reconnect", "after a reconnect and a visit to every page")


@pytest.fixture(scope="module")
def shown(browser, server_url) -> Iterator[dict[str, dict]]:
    """What each page showed: when set (what its setter returns), at each of `LAPS`, and once its
    hidden widgets were drawn again ("after"). A browser context of its own: its saved work stays
    out of the other tests' browser."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    app = AppPage(page, server_url)
    d.keep_sockets(app)
    try:
        # Datasets, a page not set here: each page set is then reached through the navigation.
        app.goto("datasets")
        seen = {}
        for title, (setter, _) in PAGES.items():
            d.go(app, title)
            seen[title] = setter(app)
        for lap in LAPS:
            for title in d.TITLES:
                d.go(app, title)
                if lap == "after a reconnect" and title in PAGES:
                    d.reconnect(app)
                if title in PAGES:
                    seen[title][lap] = d.settings(app)
        for title, (_, after) in PAGES.items():
            d.go(app, title)
            seen[title]["after"] = after(app)
        assert app.exceptions() == []
        yield seen
    finally:
        context.close()


def same_at_every_lap(seen: dict, expected: dict) -> None:
    for lap in LAPS:
        assert seen[lap] == expected, lap


def changed_and_kept(
    seen: dict, *, hidden: frozenset[str] = frozenset(), drawn: frozenset[str] = frozenset()
) -> None:
    """Every widget the page showed at the start was changed (those `hidden` by a change are no
    longer drawn, those `drawn` by one are new), and the page shows the values at every lap."""
    assert d.changed(seen["start"], seen["set"]) == []
    assert set(seen["set"]) == set(seen["start"]) - hidden | drawn
    same_at_every_lap(seen, seen["set"])


def set_prompt_workspace(app: AppPage) -> dict:
    start = d.settings(app)
    app.page.get_by_test_id("stSidebar").get_by_text("Your own tokenizers").click()
    side_start = d.settings(app, root=SIDEBAR)
    d.unpick(app, "workspace_tokenizers", "GPT-4")
    d.pick(app, "workspace_tokenizers", "Qwen3", typed="Qwen3")
    d.choose(app, "workspace_ctx", "Custom...")
    d.number(app, "workspace_ctx_custom", 50_000)
    d.choose(app, "workspace_sample", "Python code")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    long = (d.settings(app)["workspace_text_live_box"] + "\n") * 12  # over 12,000 characters: shown in parts
    assert 12_000 < len(long) < 30_000
    d.live_text(app, "workspace_text", long)
    d.number(app, "workspace_part", 2)
    d.flip(app, "workspace_special")
    d.segment(app, "workspace_view", "Token IDs")
    d.flip(app, "workspace_ws")
    d.flip(app, "workspace_diff")
    d.number(app, "workspace_out_tokens", 777)
    d.number(app, "workspace_requests", 5_000)
    d.number(app, "workspace_cached_tokens", 300)
    d.segment(app, "workspace_price_rate", "Batch")
    for name in ("v1", "v2"):
        d.text(app, "workspace_version_name", name)
        app.run(lambda: app.main.get_by_role("button", name="Save the prompt as a version").click())
    d.text(app, "workspace_version_name", "draft")
    d.choose(app, "workspace_cmp_a", "v2")
    d.choose(app, "workspace_cmp_b", "v1")
    d.choose(app, "workspace_cmp_tok", "Llama 3")
    app.main.get_by_text("One context window, shared").click()
    d.number(app, "workspace_share_chunks", 3)
    d.number(app, "workspace_share_chunk_tokens", 256)
    d.number(app, "workspace_share_answer", 500)
    text_mode = d.settings(app)

    d.segment(app, "workspace_mode", "Chat request")
    # the baseline of a widget drawn in both modes is its value at the start (or: set in text mode)
    chat_start = {**d.settings(app), **{k: "set in text mode" for k in text_mode}, **start}
    first, second = messages(app)
    d.choose(app, f"workspace_chat_role_{first}", "Developer")
    d.live_text(app, f"workspace_chat_text_{first}", "Answer in one sentence.")
    d.choose(app, f"workspace_chat_role_{second}", "Assistant")
    d.live_text(app, f"workspace_chat_text_{second}", "Your order ships on Friday.")
    app.main.get_by_text("Tools (function definitions, JSON Schema)").click()
    d.text(app, "workspace_chat_tools", '[{"name": "get_weather", "parameters": {"type": "object"}}]')
    d.choose(app, "workspace_request_pick", re.compile(r"^Qwen3\b"))
    chat_mode = d.settings(app)

    d.choose(app, "custom_tok_pattern", "Llama 3")
    d.text(app, "custom_tok_name", "mine")
    d.radio(app, "custom_tok_kind", "tokenizer.json")  # the pattern is no longer drawn
    return {"start": start, "text mode": text_mode, "chat start": chat_start, "set": chat_mode,
            "sidebar start": side_start, "sidebar": d.settings(app, root=SIDEBAR)}  # fmt: skip


def after_prompt_workspace(app: AppPage) -> dict:
    sidebar = d.settings(app, root=SIDEBAR)
    d.segment(app, "workspace_mode", "Text")
    text_mode = d.settings(app)
    d.radio(app, "custom_tok_kind", ".tiktoken")
    return {
        "sidebar": sidebar,
        "text mode": text_mode,
        "pattern": d.settings(app, root=SIDEBAR)["custom_tok_pattern"],
    }


def messages(app: AppPage) -> list[str]:
    """The ids of the chat's messages, in order (their widgets' keys end with them)."""
    roles = [k for k in d.settings(app) if k.startswith("workspace_chat_role_")]  # in page order
    return [k.rsplit("_", 1)[1] for k in roles]


def test_prompt_workspace(shown):
    seen = shown["Prompt workspace"]
    assert d.changed(seen["start"], seen["text mode"]) == ["workspace_mode"]  # set in chat mode
    assert d.changed(seen["chat start"], seen["set"]) == []
    assert d.changed(seen["sidebar start"], seen["sidebar"]) == []
    same_at_every_lap(seen, seen["set"])
    assert seen["after"]["sidebar"] == seen["sidebar"]
    assert seen["after"]["text mode"] == {**seen["text mode"], "workspace_mode": ["Text"]}
    assert seen["after"]["pattern"] == "Llama 3"  # the sidebar's widget hidden all along kept it


def set_language_costs(app: AppPage) -> dict:
    start = d.settings(app)
    d.unpick(app, "languages_selected", "Greek")
    d.unpick(app, "languages_tokenizers", "Mistral Tekken")
    d.choose(app, "languages_base", "Hindi")
    d.number(app, "languages_requests", 5_000)
    d.number(app, "languages_in_tokens", 2_000)
    d.number(app, "languages_out_tokens", 777)
    d.slide(app, "languages_share", -1)
    d.unpick(app, "languages_cost_models", "Mistral NeMo")
    d.choose(app, "languages_left", "Spanish")
    d.choose(app, "languages_right", "Japanese")
    d.choose(app, "languages_pair_tok", "cl100k_base")
    d.flip(app, "languages_pair_ws")
    return {"start": start, "set": d.settings(app)}


def test_language_costs(shown):
    seen = shown["Language costs"]
    # the rate is one for every page: the one chosen on the prompt workspace
    assert seen["start"]["languages_price_rate"] == ["Batch"]
    assert d.changed(seen["start"], seen["set"]) == ["languages_price_rate"]
    assert set(seen["set"]) == set(seen["start"])
    same_at_every_lap(seen, seen["set"])


IDENTIFIER_TABS = ["Identifiers", "Code view", "Naming styles", "Teaching mode"]  # Layout has no widget


def by_tab(app: AppPage) -> dict[str, dict]:
    """The settings shown with each tab open (a tab's widgets are drawn only while it is open)."""
    shown = {}
    for label in IDENTIFIER_TABS:
        d.tab(app, "identifiers_tab", label)
        shown[label] = d.settings(app)
    return shown


def set_code_identifiers(app: AppPage) -> dict:
    start = by_tab(app)
    d.tab(app, "identifiers_tab", "Identifiers")
    d.choose(app, "identifiers_sample", "TypeScript: orders API client")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.text(app, "identifiers_text", d.settings(app)["identifiers_text"] + "\n// kept across pages\n")
    d.unpick(app, "identifiers_tokenizers", "Llama 3")
    d.choose(app, "identifiers_language", "TypeScript")
    for key in ("identifiers_strings", "identifiers_comments", "identifiers_add_greedy"):
        d.flip(app, key)
    d.text(app, "identifiers_filter", "e")
    d.pick(app, "identifiers_styles", "camelCase")
    d.number(app, "identifiers_min_chars", 5)
    d.number(app, "identifiers_min_occ", 2)
    d.choose(app, "identifiers_sort", "name (A to Z)")
    d.flip(app, "identifiers_builtins")
    d.slide(app, "identifiers_top_n", 2)
    d.segment(app, "identifiers_split_mode", "the name in the code")
    d.choose(app, "identifiers_inspect", "orderId")
    d.tab(app, "identifiers_tab", "Code view")
    d.choose(app, "identifiers_view_tok", "cl100k_base")
    d.number(app, "identifiers_view_line", 10)
    d.tab(app, "identifiers_tab", "Naming styles")
    d.text(app, "identifiers_try_name", "fetch_all_orders")
    d.tab(app, "identifiers_tab", "Teaching mode")
    d.text(app, "identifiers_greedy_vocab", d.settings(app)["identifiers_greedy_vocab"] + "\norder")
    d.text(app, "identifiers_greedy_text", "orderTotal = price * qty")
    tabs = by_tab(app)  # ends on the teaching tab
    return {"start": start, "tabs": tabs, "set": tabs["Teaching mode"]}


def test_code_identifiers(shown):
    seen = shown["Code identifiers"]
    for label in IDENTIFIER_TABS:
        assert d.changed(seen["start"][label], seen["tabs"][label]) == ["identifiers_tab"], (
            label
        )  # opened here
    same_at_every_lap(seen, seen["set"])
    assert seen["after"] == seen["tabs"]


def set_bpe_playground(app: AppPage) -> dict:
    start = d.settings(app)
    d.choose(app, "bpe_corpus_sample", "English prose (4 KB)")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.text(app, "bpe_corpus_text", d.settings(app)["bpe_corpus_text"] + " Settings stay put.")
    assert d.settings(app)["bpe_symbols"] == "UTF-8 bytes (byte-level)"  # the preset's (it was characters)
    d.choose(app, "bpe_marker", "custom...")
    d.text(app, "bpe_marker_custom", "##")
    d.choose(app, "bpe_pretok", "regex: Llama 3")
    d.radio(app, "bpe_tie", "first seen (corpus order, left to right)")
    d.number(app, "bpe_merges", 250)
    d.radio(app, "bpe_stop", "a vocabulary size")  # the number of merges is no longer drawn
    d.number(app, "bpe_vocab", 700)
    d.number(app, "bpe_minfreq", 3)
    d.slide(app, "bpe_step", 3)
    d.segment(app, "bpe_words_order", "Most frequent")
    d.text(app, "bpe_probe", "settings survive")
    d.text(app, "bpe_reg_name", "kept name")
    d.flip(app, "bpe_reg_partial")
    d.radio(app, "bpe_format", "word counts")
    return {"start": start, "set": d.settings(app)}


def test_bpe_playground(shown):
    seen = shown["BPE playground"]
    changed_and_kept(seen, hidden={"bpe_merges"}, drawn={"bpe_marker_custom", "bpe_vocab"})
    assert seen["after"] == "250"  # the widget hidden all along kept its value


def set_chunk_previewer(app: AppPage) -> dict:
    start = d.settings(app)
    d.choose(app, "chunks_sample", "Python module")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.text(app, "chunks_text", d.settings(app)["chunks_text"] + "\n# kept across pages\n")
    d.choose(app, "chunks_strategy", "Token windows")
    d.choose(app, "chunks_tokenizer", "o200k_base")
    d.choose(app, "chunks_model", "BGE v1.5, E5 v2, BERT-base encoders (512)")
    assert d.settings(app)["chunks_size"] == "512"  # the model's limit, set by its callback
    d.number(app, "chunks_size", 8)
    d.number(app, "chunks_overlap", 2)
    d.segment(app, "chunks_overlap_unit", "% of size")  # the overlap in tokens is no longer drawn
    d.number(app, "chunks_overlap_pct", 25.0)
    d.flip(app, "chunks_ws")
    d.number(app, "chunks_first", 80)
    return {"start": start, "set": d.settings(app)}


def test_chunk_previewer(shown):
    seen = shown["Chunk previewer"]
    changed_and_kept(seen, hidden={"chunks_overlap"}, drawn={"chunks_overlap_pct", "chunks_first"})
    assert seen["after"] == "2"  # the widget hidden all along kept its value


def redrawn(hidden: str, choose: Callable, key: str, option: str) -> Callable[[AppPage], object]:
    """Reads the `hidden` widget's value once `choose(app, key, option)` draws it again."""

    def after(app: AppPage) -> object:
        choose(app, key, option)
        return d.settings(app)[hidden]

    return after


# Page title: (what sets its widgets, what draws its hidden widgets again), in the order set.
PAGES: dict[str, tuple[Callable[[AppPage], dict], Callable[[AppPage], object]]] = {
    "Prompt workspace": (set_prompt_workspace, after_prompt_workspace),
    "Language costs": (set_language_costs, lambda app: None),
    "Code identifiers": (set_code_identifiers, by_tab),
    "BPE playground": (set_bpe_playground, redrawn("bpe_merges", d.radio, "bpe_stop", "a number of merges")),
    "Chunk previewer": (
        set_chunk_previewer,
        redrawn("chunks_overlap", d.segment, "chunks_overlap_unit", "tokens"),
    ),
}


def test_bpe_playground_keeps_a_loaded_preset(app_page):
    """The issue's case: after loading "English prose (4 KB)" and a visit to every other page,
    no widget is back at its default and the page does not ask to retrain."""
    app = app_page
    app.goto("bpe")
    d.choose(app, "bpe_corpus_sample", "English prose (4 KB)")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.slide(app, "bpe_step", 3)
    now = d.settings(app)
    assert (now["bpe_merges"], now["bpe_pretok"], now["bpe_step"]) == (
        "300",
        "regex: cl100k_base (GPT-4, GPT-3.5)",
        ["4"],
    )
    d.visit_every_other_page(app, "BPE playground")
    assert d.settings(app) == now
    expect(app.main.get_by_text("Trains for 300 merges, pairs seen at least once.")).to_be_visible()
    expect(app.main.get_by_text("The corpus or the options changed")).to_have_count(0)

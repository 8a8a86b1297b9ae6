"""The prompt workspace's live text box in a real Chromium: counts follow typing, no key lost. The
tests that clear the box and type their own text share one page (`home`, conftest.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE

pytestmark = pytest.mark.e2e

FOCUSED = """() => {
  const host = [...document.querySelectorAll('[data-testid^=stBidiComponent]')]
    .find(h => (h.shadowRoot || h).querySelector('textarea.tw-live-box'));
  const active = host.shadowRoot ? host.shadowRoot.activeElement : document.activeElement;
  return !!active && active.classList.contains('tw-live-box');
}"""


def _box(app):
    return app.main.locator("textarea.tw-live-box")


def _metric(app, label: str) -> str:
    metric = app.page.locator(COUNT).filter(has_text=label).first
    return metric.locator(COUNT_VALUE).inner_text().strip()


def _clear(app) -> None:
    box = _box(app)
    box.click()
    app.page.keyboard.press("Control+a")
    app.run(lambda: app.page.keyboard.press("Delete"))


def test_counts_follow_typing_without_enter_and_the_box_keeps_focus(home):
    _clear(home)
    typed = ""
    seen = set()
    for ch in "Hi, tokens!":  # a rerun per key
        typed += ch
        home.run(lambda ch=ch: home.page.keyboard.type(ch))  # a pause: the box sends by itself
        expected = f"{builtin('o200k_base').count(typed):,}"
        expect(home.page.locator(COUNT).filter(has_text="o200k_base").first).to_contain_text(expected)
        seen.add(expected)
        assert home.page.evaluate(FOCUSED), "the box lost focus when the counts changed"
    assert len(seen) > 2  # the count really moved while typing
    expect(_box(home)).to_have_value(typed)
    assert not home.exceptions()


def test_fast_typing_while_reruns_land_loses_no_keystroke(home):
    _clear(home)
    text = ""
    burst = "the quick brown fox jumps over the lazy dog 0123456789 "
    for i in range(6):
        # type fast, stop long enough for the box to send, then type on while the rerun runs
        home.page.keyboard.type(burst, delay=8)
        text += burst
        home.page.wait_for_timeout(230 + 40 * i)
    home.page.keyboard.type("END", delay=8)
    text += "END"
    expect(_box(home)).to_have_value(text)
    expected = f"{builtin('o200k_base').count(text):,}"
    expect(home.page.locator(COUNT).filter(has_text="o200k_base").first).to_contain_text(
        expected, timeout=15_000
    )
    assert home.page.evaluate(FOCUSED)
    assert not home.exceptions()


def test_undo_works_and_text_survives_a_page_change(home):
    _clear(home)
    home.run(lambda: home.page.keyboard.type("first words", delay=10))
    home.page.keyboard.press("Control+z")
    expect(_box(home)).not_to_have_value("first words")  # the browser's own undo still works
    home.page.keyboard.press("Control+Shift+z")
    home.page.wait_for_timeout(400)
    home.settle()
    kept = _box(home).input_value()
    home.run(lambda: home.page.get_by_test_id("stSidebarNavLink").filter(has_text="Chunk").click())
    home.run(lambda: home.page.get_by_test_id("stSidebarNavLink").filter(has_text="Prompt workspace").click())
    expect(_box(home)).to_have_value(kept)
    assert _metric(home, "o200k_base") == f"{builtin('o200k_base').count(kept):,}"


def test_a_loaded_sample_replaces_the_box_text(home):
    _clear(home)
    home.run(lambda: home.main.get_by_role("button", name="Load sample").click())
    expect(_box(home)).not_to_have_value("")
    text = _box(home).input_value()
    assert _metric(home, "o200k_base") == f"{builtin('o200k_base').count(text):,}"


def test_long_text_counts_on_ctrl_enter_and_says_so(home):
    box = _box(home)
    from ui.live_text import LIVE_LIMIT

    long_text = "word " * (LIVE_LIMIT // 5 + 1_000)  # above the live limit
    box.fill(long_text)
    note = home.main.locator(".tw-live-note")
    expect(note).to_contain_text("Ctrl+Enter")
    expect(note).to_contain_text("Upload")
    home.page.wait_for_timeout(600)
    assert _metric(home, "o200k_base") != f"{builtin('o200k_base').count(long_text):,}"
    home.run(lambda: box.press("Control+Enter"))
    assert _metric(home, "o200k_base") == f"{builtin('o200k_base').count(long_text):,}"


def test_model_search_finds_gpt_4o_and_llama_sizes(app_page):
    app_page.goto(query="tok=r50k_base")
    combo = app_page.main.get_by_role("combobox", name="Models and tokenizers")
    combo.click()
    app_page.page.keyboard.type("4o")
    options = app_page.main.get_by_role("option")
    expect(options.first).to_contain_text("GPT-4o")
    expect(options.first).to_contain_text("o200k_base")  # its tokenizer, on the option's second line
    combo.fill("")
    app_page.page.keyboard.type("Llama 3.1 70B")
    expect(options.first).to_contain_text("Llama 3.1 70B")
    combo.fill("")
    app_page.page.keyboard.type("qwen3")
    expect(options.filter(has_text="Qwen3 32B").first).to_be_visible()
    app_page.run(lambda: options.filter(has_text="Qwen3 32B").first.dispatch_event("mousedown"))
    expect(app_page.page.locator(COUNT).filter(has_text="Qwen 2.5 / 3")).to_be_visible()


def test_chat_editor_counts_live_and_bad_tools_say_so(app_page):
    app_page.goto()
    app_page.run(lambda: app_page.main.get_by_text("Chat request", exact=True).click())
    app_page.run(lambda: app_page.main.get_by_role("button", name="Add a message").click())
    boxes = app_page.main.locator("textarea.tw-live-box")
    expect(boxes).to_have_count(3)
    table = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Request tokens")
    expect(table).to_contain_text("#3 assistant")
    boxes.nth(2).click()
    app_page.run(lambda: app_page.page.keyboard.type("Sure, one moment.", delay=20))
    # each count names its models (issue 31, 9): "GPT-5.5, GPT-4o: 5 · GPT-4: 5 · Llama 3.1 8B: 6 tokens"
    per_message = re.compile(r"^[^:]+: \d+ · [^:]+: \d+ · [^:]+: \d+ tokens$")
    expect(app_page.main.get_by_text(per_message).last).to_be_visible()
    app_page.main.get_by_text("Tools (function definitions, JSON Schema)").click()
    tools = app_page.main.get_by_role("textbox", name="Tools as JSON")
    tools.fill('[{"name": "track",}]')
    app_page.run(lambda: tools.press("Control+Enter"))
    expect(app_page.main.get_by_text(re.compile("not valid JSON: line 1"))).to_be_visible()
    expect(tools).to_have_value('[{"name": "track",}]')
    assert not app_page.exceptions()


def test_versions_compared_and_the_workspace_file_round_trip(app_page, tmp_path):
    import json

    app_page.goto()
    box = _box(app_page)
    name = app_page.main.get_by_role("textbox", name="Version name")
    save = app_page.main.get_by_role("button", name="Save the prompt as a version")
    for label, text in (
        ("long", "Please answer in a friendly and very patient way."),
        ("short", "Answer kindly."),
    ):
        box.fill(text)
        app_page.run(lambda: box.press("Control+Enter"))
        name.fill(label)
        app_page.run(lambda: name.press("Enter"))
        app_page.run(lambda: save.click())
    table = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Difference")
    expect(table).to_be_visible()
    expect(app_page.page.locator(".tw-diff")).to_contain_text("friendly")
    assert "friendly" in " ".join(app_page.page.locator(".tw-diff del").all_inner_texts())
    # save the workspace, then load it back after a change
    app_page.main.get_by_text("Workspace file (save or load").click()
    with app_page.page.expect_download() as dl:
        app_page.main.get_by_role("button", name="Save the workspace (JSON)").click()
    saved = tmp_path / "ws.json"
    dl.value.save_as(saved)
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert [v["name"] for v in doc["versions"]] == ["long", "short"] and doc["version"] == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tokenizer-workbench/workspace", "version": 7}', encoding="utf-8")
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").last
    app_page.run(lambda: uploader.set_input_files(str(bad)))
    expect(app_page.main.get_by_text("format version 7")).to_be_visible()
    expect(box).to_have_value("Answer kindly.")  # nothing changed
    doc["text"] = "Loaded from the file."
    saved.write_text(json.dumps(doc), encoding="utf-8")
    app_page.run(lambda: uploader.set_input_files(str(saved)))
    expect(box).to_have_value("Loaded from the file.")
    expect(app_page.main.get_by_text("Loaded ws.json: 2 versions.")).to_be_visible()
    assert not app_page.exceptions()


def test_typing_reruns_the_prompt_part_and_keeps_link_versions_and_picker_current(app_page, tmp_path):
    """Typing reruns only the prompt part of the page (a fragment): the share link, the saved
    version and a workspace file that picks models must still follow the current text."""
    import json
    from urllib.parse import parse_qs, urlparse

    from tokenizer_core.workspace import unpack_text
    from ui.live_text import LIVE_LIMIT

    app_page.goto()
    # the page says up to which size counts follow typing
    expect(app_page.main.locator(".tw-live-note")).to_contain_text(f"up to {LIVE_LIMIT:,} characters")
    _clear(app_page)
    typed = ""
    for ch in "Shared":
        typed += ch
        app_page.run(lambda ch=ch: app_page.page.keyboard.type(ch))  # no Enter: the box sends by itself
    expect(app_page.page.locator(COUNT).filter(has_text="o200k_base").first).to_contain_text(
        f"{builtin('o200k_base').count(typed):,}"
    )
    # the address bar and the link shown under "Share this view" carry the typed text
    assert unpack_text(parse_qs(urlparse(app_page.page.url).query)["z"][0]) == typed
    app_page.main.get_by_text("Share this view").click()
    shown = app_page.main.locator("input.tw-link-text").first.input_value()
    assert unpack_text(parse_qs(urlparse(shown.strip()).query)["z"][0]) == typed
    # saving a version right after typing saves what was typed
    name = app_page.main.get_by_role("textbox", name="Version name")
    name.fill("typed")
    app_page.run(lambda: name.press("Enter"))
    app_page.run(lambda: app_page.main.get_by_role("button", name="Save the prompt as a version").click())
    expect(app_page.main.get_by_text(f"typed · text · {len(typed)} characters")).to_be_visible()
    # a workspace file that chooses models updates the model picker above the prompt part
    doc = {"format": "tokenizer-workbench/workspace", "version": 1, "models": ["r50k_base"], "mode": "text",
           "text": "From the file.", "messages": [], "tools": "", "versions": []}  # fmt: skip
    path = tmp_path / "models.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    app_page.main.get_by_text("Workspace file (save or load").click()
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").last
    app_page.run(lambda: uploader.set_input_files(str(path)))
    app_page.settle()
    expect(app_page.main.locator(".tw-pick-chips")).to_contain_text("r50k_base")
    expect(app_page.page.locator(COUNT).filter(has_text="r50k_base").first).to_contain_text(
        f"{builtin('r50k_base').count('From the file.'):,}"
    )
    expect(_box(app_page)).to_have_value("From the file.")
    assert not app_page.exceptions()

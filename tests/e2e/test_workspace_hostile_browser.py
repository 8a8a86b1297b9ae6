"""The prompt workspace's input paths in a real Chromium, under hostile input: a crafted share
link in a fresh session, tool names full of Markdown, a workspace file that picks models, and
the versions comparison. (No request leaving the server and no error in the server's log are
checked for every browser test by the fixtures in conftest.py.)"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tokenizer_core.workspace import pack_text
from tokenizer_core.workspace.file import FORMAT
from tokenizer_core.workspace.limits import MAX_DEPTH

pytestmark = pytest.mark.e2e

TOO_DEEP = f"nested too deeply (more than {MAX_DEPTH} levels)"
DEEP = "[" * 1_990 + "]" * 1_990  # fits the link's 4,000 bytes; Python's decoder gives up near 1,000
MARKDOWN_NAME = "see_[x](https://evil.example)_![i](https://evil.example/i.png)"
WJ = "\u2060"


def _warnings(app) -> list[str]:
    """Each note of the warning boxes (a box of several notes is a list, one item each)."""
    alerts = app.main.get_by_test_id("stAlertContentWarning")
    texts = []
    for box in alerts.get_by_test_id("stMarkdownContainer").all():  # the text, not the icon
        items = box.locator("li").all_inner_texts()
        texts += items or [box.inner_text()]
    return [t.replace(WJ, "").strip() for t in texts]


def test_a_crafted_link_with_deep_json_and_bad_versions_gives_one_line_per_bad_field_in_one_box(app_page):
    versions = [
        {"name": "poem", "kind": "poem", "text": "x"},
        {"name": 5, "kind": "text", "text": "y"},
        {"name": "deep tools", "kind": "chat", "messages": [["user", "Where is my order?"]],
         "tools": "[" * 500 + "]" * 500},
    ]  # fmt: skip
    query = urlencode({"tok": "gpt-4o,llama-3.1", "mode": "chat", "zt": pack_text(DEEP), "zm": pack_text(DEEP),
                       "zv": pack_text(json.dumps(versions))})  # fmt: skip
    app_page.goto(query=query)  # a fresh browser context: a new session's first page
    expect(app_page.main.get_by_test_id("stAlertContentWarning")).to_have_count(1)  # one box, five lines
    assert _warnings(app_page) == [
        f"Shared link: chat tools: The tools are {TOO_DEEP}. They are left out of the counts until fixed.",
        f"Shared link: chat messages: The chat messages are {TOO_DEEP}.",
        'Shared link: version 1 left out: "kind" must be "text" or "chat", not \'poem\'',
        'Shared link: version 2 left out: "name" must be text, not the number 5',
        f"Shared link: version 3 (deep tools): its tools are left out of the counts: The tools are {TOO_DEEP}.",
    ]
    assert not app_page.exceptions()
    # the one good version loads; its tools are shown as they came, with the editor's message
    app_page.run(lambda: app_page.main.get_by_role("button", name="Load into the editor").click())
    app_page.main.get_by_text("Tools (function definitions, JSON Schema)").click()
    tools = app_page.main.get_by_role("textbox", name="Tools as JSON")
    expect(tools).to_have_value("[" * 500 + "]" * 500)
    expect(app_page.main.get_by_text(f"The tools are {TOO_DEEP}.", exact=False).first).to_be_visible()
    assert not app_page.exceptions()


def test_tool_names_are_plain_text_no_link_and_no_remote_image(app_page):
    tools = json.dumps([{"name": MARKDOWN_NAME, "parameters": {"type": "object", "properties": {}}}])
    app_page.goto(query=urlencode({"tok": "gpt-4o", "mode": "chat", "zt": pack_text(tools)}))
    app_page.main.get_by_text("Tools (function definitions, JSON Schema)").click()
    caption = app_page.main.get_by_text("1 tool:", exact=False)
    expect(caption).to_be_visible()
    assert caption.inner_text().replace(WJ, "") == f"1 tool: {MARKDOWN_NAME}"
    assert app_page.page.locator("a[href*='evil'], img[src*='evil']").count() == 0
    assert not app_page.exceptions()
    # (the fixture then checks that the browser asked no other host for anything)


def test_a_loaded_workspace_file_says_so_where_the_user_is_looking(app_page, tmp_path):
    doc = {"format": FORMAT, "version": 1, "models": ["gpt-4o", "r50k_base"], "mode": "text",
           "text": "Your order is on its way.", "messages": [], "tools": "",
           "versions": [{"name": "long", "text": "Your order " + "is on its way and " * 12 + "will arrive soon."},
                        {"name": "short", "text": "Your order " + "is on its way and " * 12 + "arrives today."}]}  # fmt: skip
    path = tmp_path / "workspace.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    app_page.goto()
    app_page.main.get_by_text("Workspace file (save or load").click()
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").last
    app_page.run(lambda: uploader.set_input_files(str(path)))
    app_page.settle()  # the file chose models: the whole page reran
    chips = app_page.main.locator(".tw-pick-chip")
    expect(chips).to_have_count(2)  # the file's models, in place of the ones chosen before
    expect(chips.filter(has_text="r50k_base")).to_be_visible()
    expect(app_page.main.get_by_text("Loaded workspace.json: 2 versions.")).to_be_visible()
    # the comparison: a model without a price says so, never "None"; the diff cuts between words
    grid = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Difference")
    expect(grid).to_contain_text("no price")
    assert "None" not in grid.inner_text()
    diff = app_page.page.locator(".tw-diff")
    expect(diff).to_contain_text("Your order is")
    assert "Your orde …" not in diff.inner_text()
    assert app_page.page.locator(".tw-diff-label").all_inner_texts() == ["TEXT"]  # styled in capitals
    assert not app_page.exceptions()

"""The Code identifiers page in a real Chromium: a sample end to end, escaping, upload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tokenizer_core.identifiers import (
    analyse_identifiers,
    extract_identifiers,
    load_code_file,
    load_code_sample,
)

pytestmark = pytest.mark.e2e


def open_identifiers(app):
    """Enter the app at its home page and follow the sidebar link, as a visitor does."""
    app.goto()
    link = app.page.get_by_test_id("stSidebarNavLink").filter(has_text="Code identifiers")
    app.run(lambda: link.click())
    expect(app.main.locator("h1")).to_have_text("Code identifiers")
    assert not app.exceptions()


def click_tab(app, label: str) -> None:
    app.run(lambda: app.main.get_by_role("tab", name=label).click())


def test_typescript_sample_end_to_end(app_page):
    open_identifiers(app_page)
    sample = app_page.main.get_by_test_id("stSelectbox").filter(has_text="Sample")
    sample.click()
    app_page.page.get_by_role("option", name="TypeScript: orders API client").click()
    app_page.run(lambda: app_page.main.get_by_role("button", name="Load sample").click())
    expect(app_page.main.get_by_text(re.compile(r"Language: TypeScript"))).to_be_visible()

    text, language = load_code_sample("TypeScript: orders API client")
    extraction = extract_identifiers(text, language)
    analysis = analyse_identifiers(text, [builtin("o200k_base")], extraction=extraction)
    row = analysis.row("parseHTTPResponse2xx")

    splits = app_page.page.locator(".tw-splits").first
    expect(splits).to_contain_text("parseHTTPResponse2xx")
    # the coloured pieces of the name alone, as o200k_base cuts it
    cell = splits.locator("tr", has_text="parseHTTPResponse2xx").locator("td").nth(1)
    expect(cell).to_contain_text(f"{row.costs[0].alone_tokens}")
    assert cell.locator("span").count() >= len(row.costs[0].pieces)
    charts = app_page.main.get_by_test_id("stVegaLiteChart")
    expect(charts.first.locator("svg.marks, canvas").first).to_be_attached()

    click_tab(app_page, "Code view")
    first = next(i for i, o in enumerate(extraction.occurrences) if o.name == "parseHTTPResponse2xx")
    n = analysis.occurrence_tokens["o200k_base"][first]
    title = f"parseHTTPResponse2xx: {n} token{'s' if n != 1 else ''} here, {row.costs[0].alone_tokens} alone"
    expect(app_page.page.locator(f'.tw-code span[title^="{title}"]').first).to_be_visible()

    click_tab(app_page, "Teaching mode")
    expect(app_page.main.get_by_text("27 characters → 9 tokens")).to_be_visible()
    assert not app_page.exceptions()


PAYLOAD = "<img src=x onerror=alert(1)>"


def test_html_in_code_is_shown_as_text_and_never_runs(app_page):
    open_identifiers(app_page)
    code = f"SELECT \"{PAYLOAD}\", note -- {PAYLOAD}\nFROM t WHERE s = '<script>alert(2)</script>';\n"
    area = app_page.main.get_by_test_id("stTextArea").locator("textarea").first
    area.fill(code)
    app_page.run(lambda: area.press("Control+Enter"))
    expect(app_page.main.get_by_text(re.compile(r"Language: SQL"))).to_be_visible()
    min_length = app_page.main.get_by_role("spinbutton", name="Min. length")
    min_length.fill("1")
    app_page.run(lambda: min_length.press("Enter"))
    splits = app_page.page.locator(".tw-splits").first
    expect(splits).to_contain_text(PAYLOAD)  # the quoted SQL name, as text
    click_tab(app_page, "Code view")
    view = app_page.page.locator(".tw-code").first
    expect(view).to_contain_text(PAYLOAD)
    expect(view).to_contain_text("<script>alert(2)</script>")
    assert (
        app_page.page.locator(".tw-code img, .tw-code script, .tw-splits img, .tw-splits script").count() == 0
    )
    app_page.page.wait_for_timeout(300)
    assert app_page.dialogs == []
    assert not app_page.exceptions()


def test_upload_detects_the_language_and_rejects_binary(app_page, tmp_path):
    open_identifiers(app_page)
    text, _ = load_code_file("lexer.rs")
    good = tmp_path / "lexer.rs"
    good.write_text(text, encoding="utf-8")
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app_page.run(lambda: uploader.set_input_files(str(good)))
    expect(
        app_page.main.get_by_text(re.compile(r"Language: Rust \(from the file name lexer\.rs\)"))
    ).to_be_visible()
    area = app_page.main.get_by_test_id("stTextArea").locator("textarea").first
    expect(area).to_have_value(text)

    bad = tmp_path / "image.py"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    app_page.run(lambda: uploader.set_input_files(str(bad)))
    expect(app_page.page.get_by_text(re.compile("looks like a binary file"))).to_be_visible()
    expect(area).to_have_value(text)  # nothing lost
    assert not app_page.exceptions()


def test_an_uploaded_file_survives_a_visit_to_another_page(app_page, tmp_path):
    """Issue 31 (8): orders.ts came back as "JavaScript (guessed from the code)", its chip gone."""
    open_identifiers(app_page)
    # no type annotation: without its name the code reads as JavaScript
    code = (
        "const total = items.reduce((sum, item) => sum + item.price, 0);\n"
        "function describe(order) {\n  return `${order.id}: ${total}`;\n}\n"
        "console.log(describe({ id: 7 }));\n"
    )
    file = tmp_path / "orders.ts"
    file.write_text(code, encoding="utf-8")
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app_page.run(lambda: uploader.set_input_files(str(file)))
    language = app_page.main.get_by_text(
        re.compile(r"Language: TypeScript \(from the file name orders\.ts\)")
    )
    expect(language).to_be_visible()

    for page in ("Chunk previewer", "Code identifiers"):
        link = app_page.page.get_by_test_id("stSidebarNavLink").filter(has_text=page)
        app_page.run(lambda link=link: link.click())
    expect(app_page.main.locator("h1")).to_have_text("Code identifiers")
    expect(app_page.main.get_by_test_id("stTextArea").locator("textarea").first).to_have_value(code)
    expect(language).to_be_visible()
    expect(app_page.main.get_by_text("From your file orders.ts")).to_be_visible()

    # another text in the box: the file's name no longer applies
    app_page.run(lambda: app_page.main.get_by_role("button", name="Load sample").click())
    expect(app_page.main.get_by_text("From your file orders.ts")).to_have_count(0)
    assert not app_page.exceptions()

"""The language cost page, headless (AppTest): real numbers, edits, uploads and bad input."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from tests.conftest import builtin, token_views
from tokenizer_core.languages import load_parallel_sample

PAGE = "app_pages/languages.py"
EDITOR = "languages_editor"


@pytest.fixture(scope="module")
def sample():
    return {l.code: l for l in load_parallel_sample()}


def metric(at, label: str) -> str:
    """A metric's value by its label as shown (labels are Markdown with the names escaped)."""
    return next(m.value for m in at.metric if m.label.replace("\\", "") == label)


def chart_data(at, index: int = 0) -> list[dict]:
    """The rows an Altair chart on the page draws (Streamlit sends them as Arrow)."""
    from streamlit import dataframe_util

    proto = at.get("vega_lite_chart")[index].proto
    (dataset,) = proto.datasets
    return dataframe_util.convert_arrow_bytes_to_pandas_df(dataset.data.data).to_dict("records")


def heatmap(at) -> dict[tuple[str, str], dict]:
    return {(d["language"], d["tokenizer"]): d for d in chart_data(at, 0)}


def plain(markdown: str) -> str:
    """Markdown as read: without the backslashes that escape user text."""
    return markdown.replace("\\", "")


def texts(at) -> list[str]:
    return [plain(x.value) for x in (*at.warning, *at.error, *at.info, *at.success)]


def expected_median(sample, tid: str, base: str) -> float:
    tok = builtin(tid)
    b = tok.count(sample[base].text)
    return statistics.median(tok.count(l.text) / b for c, l in sample.items() if c != base)


def test_default_view_shows_real_premiums_for_every_language(page, sample):
    assert metric(page, "cl100k_base") == f"{expected_median(sample, 'cl100k_base', 'en'):.2f}×"
    assert metric(page, "o200k_base") == f"{expected_median(sample, 'o200k_base', 'en'):.2f}×"
    cells = heatmap(page)
    assert len(cells) == len(sample) * 5
    tok = builtin("cl100k_base")
    hi = cells["Hindi", "cl100k_base"]
    assert hi["tokens"] == tok.count(sample["hi"].text)
    assert hi["premium"] == tok.count(sample["hi"].text) / tok.count(sample["en"].text)
    assert all(cells["English", t]["label"] == "1.00" for t in {k[1] for k in cells})
    labels = [b.proto.label for b in page.get("download_button")]
    assert "Download the full table (CSV)" in labels and "Download the costs (CSV)" in labels
    assert any("genai-prices 0.2.3" in plain(c.value) for c in page.caption)


def test_changing_the_base_language_changes_every_premium(page, sample):
    before = heatmap(page)
    page.selectbox(key="languages_base").set_value("hi").run()
    assert not page.exception
    after = heatmap(page)
    assert after["Hindi", "cl100k_base"]["label"] == "1.00"
    assert after["English", "cl100k_base"]["premium"] == pytest.approx(
        1 / before["Hindi", "cl100k_base"]["premium"]
    )
    assert metric(page, "cl100k_base") == f"{expected_median(sample, 'cl100k_base', 'hi'):.2f}×"
    assert "Hindi" in json.loads(page.get("vega_lite_chart")[0].proto.spec)["title"]["text"]


def test_an_emptied_text_is_reported_and_left_out(page):
    page.session_state[EDITOR] = {"edited_rows": {1: {"text": "   "}}, "added_rows": [], "deleted_rows": []}
    page.run()
    assert not page.exception
    assert any("Spanish has no text" in w for w in texts(page))
    langs = page.multiselect(key="languages_selected")
    assert "Spanish" not in langs.options and "French" in langs.options  # options are the labels
    assert "es" not in langs.value and "fr" in langs.value
    assert not any(lang == "Spanish" for lang, _ in heatmap(page))


def test_an_added_language_is_measured_and_selected(page):
    welsh = "Diolch am gysylltu â ni. I ailosod eich cyfrinair, agorwch yr ap."
    page.session_state[EDITOR] = {
        "edited_rows": {},
        "added_rows": [{"language": "Welsh", "text": welsh}],
        "deleted_rows": [],
    }
    page.run()
    assert not page.exception
    assert "welsh" in page.multiselect(key="languages_selected").value
    cell = heatmap(page)["Welsh", "o200k_base"]
    assert cell["tokens"] == builtin("o200k_base").count(welsh)


def test_deleting_the_base_language_falls_back_without_error(page):
    page.session_state[EDITOR] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]}
    page.run()
    assert not page.exception
    assert page.selectbox(key="languages_base").value == "es"
    assert heatmap(page)["Spanish", "o200k_base"]["label"] == "1.00"


def test_csv_upload_errors_leave_the_table_unchanged(page):
    before = page.data_editor(key=EDITOR).value.copy()
    page.file_uploader(key="languages_csv").upload("mine.csv", b"lang;txt\nHindi;x\n", "text/csv")
    page.run()
    assert not page.exception
    (err,) = [plain(e.value) for e in page.error]
    assert "mine.csv has no" in err and "language,text" in err and "unchanged" in err
    page.file_uploader(key="languages_csv").upload(
        "fr.csv", "language,text\nFrench,café\n".encode("latin-1"), "text/csv"
    )
    page.run()
    assert any("fr.csv is not UTF-8 text" in m for m in texts(page))
    page.file_uploader(key="languages_csv").upload("pic.csv", b"\x89PNG\r\n\x1a\n\x00\x00binary", "text/csv")
    page.run()
    assert any("pic.csv looks like a binary file" in m for m in texts(page))
    assert page.data_editor(key=EDITOR).value.equals(before)
    assert len(heatmap(page)) == 26 * 5


def test_csv_upload_replaces_and_adds_languages(page):
    hindi = "नमस्ते, आपका पासवर्ड बदल दिया गया है।"
    data = f'language,text\nHindi,"{hindi}"\nWelsh,Diolch yn fawr\nSpanish,\n'.encode()
    page.file_uploader(key="languages_csv").upload("t.csv", data, "text/csv")
    page.run()
    assert not page.exception
    (ok,) = [plain(s.value) for s in page.success]
    assert "replaced the text of 1" in ok and "added 1" in ok
    assert any("Line 4 (Spanish): the text is empty" in w for w in texts(page))
    cells = heatmap(page)
    assert cells["Hindi", "cl100k_base"]["tokens"] == builtin("cl100k_base").count(hindi)
    assert ("Welsh", "cl100k_base") in cells
    # what was there before can be restored
    page.button(key="languages_restore").click().run()
    assert heatmap(page)["Hindi", "cl100k_base"]["tokens"] == builtin("cl100k_base").count(
        load_parallel_sample()[10].text
    )


def test_monthly_cost_follows_the_formula(page, sample):
    page.number_input(key="languages_requests").set_value(20_000)
    page.number_input(key="languages_in_tokens").set_value(1_000)
    page.number_input(key="languages_out_tokens").set_value(200)
    page.slider(key="languages_share").set_value(50).run()
    assert not page.exception
    page.session_state["languages_cost_models"] = ["gpt-4o", "gpt-4o-mini"]
    page.run()
    df = next(d.value for d in page.dataframe if "GPT-4o" in d.value.columns)
    tok = builtin("o200k_base")
    prem = tok.count(sample["ta"].text) / tok.count(sample["en"].text)
    tin, tout = 1_000 * (0.5 * prem + 0.5), 200 * prem
    # GPT-4o: $2.50 input and $10 output per million tokens in the price source
    assert math.isclose(df.loc["Tamil", "GPT-4o"], 20_000 * (tin * 2.5 + tout * 10.0) / 1e6)
    assert df.loc["English", "GPT-4o"] == 20_000 * (1_000 * 2.5 + 200 * 10.0) / 1e6


def test_nothing_chosen_gives_guidance_not_errors(page):
    page.multiselect(key="languages_tokenizers").set_value([]).run()
    assert not page.exception
    assert any("Choose at least one tokenizer" in m for m in texts(page))
    page.multiselect(key="languages_tokenizers").set_value(["o200k_base"]).run()
    page.multiselect(key="languages_selected").set_value([]).run()
    assert not page.exception
    assert any("Choose at least one language" in m for m in texts(page))


def test_user_text_shown_as_html_is_escaped(page):
    attack = "<img src=x onerror=alert(1)>"
    page.session_state[EDITOR] = {
        "edited_rows": {},
        "added_rows": [{"language": "<b>Evil</b>", "text": f"hello {attack} <script>alert(2)</script>"}],
        "deleted_rows": [],
    }
    page.run()
    code = next(c for c in page.multiselect(key="languages_selected").value if "evil" in c)
    page.selectbox(key="languages_right").set_value(code).run()
    assert not page.exception
    views = token_views(page)
    assert len(views) == 2
    assert not [h for h in page.html if "<script" in h.proto.body or "<img" in h.proto.body]
    assert views[1]["text"] == f"hello {attack} <script>alert(2)</script>"
    assert any("\\<b\\>Evil\\</b\\>" in m.value for m in page.markdown)  # shown literally


def test_right_to_left_languages_get_dir_rtl(page):
    page.selectbox(key="languages_right").set_value("ar").run()
    views = token_views(page)
    assert (views[0]["dir"], views[0]["lang"]) == ("ltr", "en")
    assert (views[1]["dir"], views[1]["lang"]) == ("rtl", "ar")


def test_a_huge_pasted_text_is_counted_whole_and_shown_in_part(page):
    big = ("Line of English text with some words, numbers 12345 and emoji 🚀.\n" * 20_000)[:1_000_000]
    page.session_state[EDITOR] = {"edited_rows": {1: {"text": big}}, "added_rows": [], "deleted_rows": []}
    page.run()
    assert not page.exception
    assert heatmap(page)["Spanish", "o200k_base"]["tokens"] == builtin("o200k_base").count(big.strip())
    page.selectbox(key="languages_right").set_value("es").run()
    assert not page.exception
    shown = f"of {len(big.strip()):,} characters"
    assert any(c.value.startswith("Showing the first 12,") and shown in c.value for c in page.caption)

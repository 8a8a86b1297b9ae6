"""The language page says why premiums differ, beside the charts, measured on the texts shown."""

from __future__ import annotations

from tests.conftest import builtin, open_app
from tokenizer_core.languages import load_parallel_sample
from tokenizer_core.languages.why import premium_reasons, why_sentence
from tokenizer_core.tokenizers import escape_markdown
from ui.languages.choices import SELECTED


def test_each_tokenizer_names_its_dearest_language_and_why():
    app = open_app("app_pages/languages.py")
    assert not app.exception
    expander = next(e for e in app.expander if e.label == "Why premiums differ")
    shown = "\n".join(str(m.value) for m in expander.markdown)
    chosen = app.multiselect(key=SELECTED).value
    sample = {l.code: l for l in load_parallel_sample()}
    langs = [sample[c] for c in chosen]
    ids = app.multiselect(key="languages_tokenizers").value
    for tid in ids:
        rows = [r for r in premium_reasons(langs, [builtin(tid)], base="en")]
        base = next(r for r in rows if r.code == "en")
        dearest = max((r for r in rows if r.code != "en"), key=lambda r: r.premium or 0.0)
        assert escape_markdown(why_sentence(dearest, base)) in shown
    assert len(expander.dataframe) == 1

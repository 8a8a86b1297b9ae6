"""Layout costs: indentation detection and re-indenting, comment/docstring/blank-line removal."""

from __future__ import annotations

import pytest

from tests.conftest import builtin
from tokenizer_core.identifiers import (
    detect_indentation,
    layout_costs,
    layout_variants,
    lex,
    load_code_file,
    reindent,
    remove_blank_lines,
    remove_spans,
)
from tokenizer_core.identifiers.layout import comment_spans, layout_stats


def test_detect_indentation():
    assert detect_indentation("if x:\n    y\n        z\n      (aligned)\n").unit == 4
    assert detect_indentation("a\n  b\n    c\n  d\n").unit == 2
    tabs = detect_indentation("func f() {\n\treturn\n}\n")
    assert (tabs.style, tabs.unit, tabs.describe()) == ("tabs", 0, "tabs")
    assert detect_indentation("a\nb\n").style == "none"
    mixed = detect_indentation("a\n\tb\n    c\n")
    assert mixed.style == "mixed" and "tabs" in mixed.describe()
    assert detect_indentation(load_code_file("inventory.py")[0]).unit == 4
    assert detect_indentation(load_code_file("ratelimit.go")[0]).style == "tabs"
    assert detect_indentation(load_code_file("api_client.ts")[0]).unit == 2


def test_reindent():
    code = "if x:\n    y\n        z = (1,\n             2)\n\n"
    assert reindent(code, "\t") == "if x:\n\ty\n\t\tz = (1,\n\t\t\t 2)\n\n"
    assert reindent(code, "  ") == "if x:\n  y\n    z = (1,\n       2)\n\n"
    assert reindent(code, "") == "if x:\ny\nz = (1,\n2)\n\n"
    go = "func f() {\n\tif x {\n\t\treturn\n\t}\n}\n"
    assert reindent(go, "    ") == "func f() {\n    if x {\n        return\n    }\n}\n"
    assert reindent(reindent(code, "\t"), "    ") == code


def test_remove_spans_and_blank_lines():
    code = "x = 1  # one\n# alone\n    # indented alone\ny = 2\n"
    spans = [(7, 12), (13, 20), (25, 41)]
    assert [code[a:b] for a, b in spans] == ["# one", "# alone", "# indented alone"]
    assert remove_spans(code, spans) == "x = 1\ny = 2\n"
    c = "a /* mid */ b /* tail */\n/* block\n   lines */\nz"
    spans = [(2, 11), (14, 24), (25, 45)]
    assert [c[a:b] for a, b in spans] == ["/* mid */", "/* tail */", "/* block\n   lines */"]
    assert remove_spans(c, spans) == "a  b\nz"
    assert remove_blank_lines("a\n\n  \nb\n\n") == "a\nb\n"
    assert remove_blank_lines("a\n\nb") == "a\nb"
    assert remove_blank_lines("\n\n") == ""


def test_layout_variants_of_a_python_file():
    code = '#!/usr/bin/env python3\n"""Module doc."""\n\n\ndef f(x):\n    """Doc."""\n    return x  # why\n'
    lexed = lex(code, "python")
    assert len(lexed.docstrings) == 2
    assert comment_spans(code, lexed) == [(code.index("# why"), code.index("# why") + 5)]  # shebang kept
    v = layout_variants(code, lexed)
    assert v["without comments"] == code.replace("  # why", "")
    assert v["without docstrings"] == "#!/usr/bin/env python3\n\n\ndef f(x):\n    return x  # why\n"
    assert v["without blank lines"] == code.replace("\n\n\n", "\n")
    assert v["tabs"] == code.replace("    ", "\t")
    assert v["no indentation"] == code.replace("    ", "")
    stats = layout_stats(code, lexed)
    assert (stats.lines, stats.blank_lines, stats.comment_lines, stats.docstrings) == (7, 2, 0, 2)


@pytest.mark.parametrize("filename", ["inventory.py", "ratelimit.go", "reports.sql", "api_client.ts"])
def test_contributions_are_differences_of_real_counts(filename):
    text, lang = load_code_file(filename)
    lexed = lex(text, lang)
    toks = [builtin("o200k_base"), builtin("llama3")]
    report = layout_costs(text, lexed, toks)
    variants = layout_variants(text, lexed)
    for tok in toks:
        assert report.tokens["as written"][tok.id] == tok.count(text)
        assert report.contribution("comments", tok.id) == tok.count(text) - tok.count(
            variants["without comments"]
        )
        assert report.contribution("indentation", tok.id) == tok.count(text) - tok.count(
            variants["no indentation"]
        )
        assert report.contribution("blank lines", tok.id) == tok.count(text) - tok.count(
            variants["without blank lines"]
        )
        assert report.contribution("comments", tok.id) > 0  # every sample has comments
        assert report.share("comments", tok.id) == pytest.approx(
            report.contribution("comments", tok.id) / tok.count(text)
        )
    has_docstrings = "without docstrings" in report.tokens
    assert has_docstrings == (lang == "python")
    records = report.records()
    assert {r["variant"] for r in records} == set(report.tokens)
    assert all(r["difference"] == 0 for r in records if r["variant"] == "as written")

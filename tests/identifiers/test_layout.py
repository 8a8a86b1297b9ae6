"""Layout costs: indentation detection and re-indenting, comment/docstring/blank-line removal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import builtin
from tokenizer_core.identifiers import layout_costs, load_code_file
from tokenizer_core.identifiers.layout import (
    code_line_starts,
    comment_spans,
    detect_indentation,
    layout_stats,
    layout_variants,
    reindent,
    remove_blank_lines,
    remove_spans,
)
from tokenizer_core.identifiers.lexer import lex


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


# ---------------------------------------------------------------- the unit, from code lines only


def tokenize_steps(code: str) -> set[str]:
    """The indentation steps CPython's own tokenizer sees (an answer from outside our code): the
    text each INDENT adds to the enclosing level, e.g. {"    "} for a file indented by 4."""
    import io
    import tokenize

    levels, steps = [""], set()
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.INDENT:
            steps.add(tok.string[len(levels[-1]) :])
            levels.append(tok.string)
        elif tok.type == tokenize.DEDENT:
            levels.pop()
    return steps


def stdlib_source(module: str) -> str:
    import importlib

    return Path(importlib.import_module(module).__file__).read_text(encoding="utf-8")


@pytest.mark.parametrize("module", ["textwrap", "heapq", "bisect", "string", "csv", "json.decoder"])
def test_standard_library_files_are_indented_by_4(module):
    """textwrap.py was reported as "2 spaces": its docstring text sits at 6, 10 and 14 spaces."""
    code = stdlib_source(module)
    assert tokenize_steps(code) == {"    "}
    found = detect_indentation(code, lexed=lex(code, "python"))
    assert (found.style, found.unit, found.describe()) == ("spaces", 4, "4 spaces")
    stats = layout_stats(code, lex(code, "python"))
    assert stats.indentation.describe() == "4 spaces"


def test_textwrap_reads_as_4_only_from_its_code_lines():
    code = stdlib_source("textwrap")
    assert detect_indentation(code).unit == 2  # every line counted: its docstrings decide
    lines, starts = code.split("\n"), code_line_starts(code, lex(code, "python"))
    width = [len(ln) - len(ln.lstrip(" ")) for ln in lines]
    code_widths = Counter(w for w, is_code in zip(width, starts) if is_code and w)
    assert all(w % 4 == 0 for w, _ in code_widths.most_common(4))  # alignment inside brackets aside
    assert {6, 10, 14} <= {w for w, is_code, ln in zip(width, starts, lines) if not is_code and ln.strip()}


def test_a_file_indented_by_2():
    """Google's protobuf runtime (a Streamlit dependency) is written with 2-space indentation."""
    import google.protobuf.json_format as jf

    code = Path(jf.__file__).read_text(encoding="utf-8")
    assert tokenize_steps(code) == {"  "}
    assert detect_indentation(code, lexed=lex(code, "python")).describe() == "2 spaces"


TABS_WITH_SPACED_DOCSTRINGS = (
    "class Spec:\n"
    '\t"""A spec.\n'
    "\n"
    "    The text of a docstring, indented with spaces\n"
    "      as its author liked.\n"
    '\t"""\n'
    "\n"
    "\tdef match(self, path):\n"
    "\t\tif path:\n"
    "\t\t\treturn True  # a comment\n"
    "\t\treturn False\n"
)


def test_a_file_indented_with_tabs():
    code = TABS_WITH_SPACED_DOCSTRINGS
    assert tokenize_steps(code) == {"\t"}
    assert detect_indentation(code).style == "mixed"  # every line counted: the docstring's spaces
    found = detect_indentation(code, lexed=lex(code, "python"))
    assert (found.style, found.describe()) == ("tabs", "tabs")
    pathspec = pytest.importorskip("pathspec.pathspec")  # written with tabs (installed with mypy)
    real = Path(pathspec.__file__).read_text(encoding="utf-8")
    assert tokenize_steps(real) == {"\t"}
    assert detect_indentation(real, lexed=lex(real, "python")).style == "tabs"


def test_code_line_starts():
    code = "x = '''a\n      b'''\n# c\n"
    assert code_line_starts(code, lex(code, "python")) == [True, False, False, False]
    js = "function f() {\n  /* a block\n     comment */\n  return `a\n      b`;\n}\n"
    assert code_line_starts(js, lex(js, "javascript")) == [True, False, False, True, False, True, False]
    assert detect_indentation(js, lexed=lex(js, "javascript")).unit == 2

"""Identifier extraction: real files of every supported language, broken code, positions.

The expected identifier sets were written by reading each fixture file in
tokenizer_core/data/code_samples, applying the rules documented in lexer.py / languages.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.identifiers import extract_identifiers, load_code_file
from tokenizer_core.identifiers.languages import (
    LANGUAGE_IDS,
    UnknownLanguage,
    detect_language,
    get_language,
    guess_language,
    language_from_filename,
)
from tokenizer_core.identifiers.lexer import lex, line_starts, position, scan_quoted
from tokenizer_core.identifiers.samples import code_sample_files
from tokenizer_core.tokenizers.textio import InputError


def names(code: str, language: str, **kw) -> set[str]:
    return {o.name for o in extract_identifiers(code, language, **kw).occurrences}


def file_names(filename: str, **kw) -> set[str]:
    text, language = load_code_file(filename)
    return names(text, language, **kw)


EXPECTED = {
    "checkout.js": {
        "TAX_RATE", "skuPattern", "itemCount", "cart", "length", "unitsPerBox", "formatPrice", "amountCents",
        "currencyCode", "label", "toFixed", "trim", "CartView", "constructor", "items", "filter", "item", "test",
        "sku", "class", "totalCents", "reduce", "sum", "priceCents",
    },
    "lexer.rs": {
        "std", "collections", "HashMap", "Token", "kind", "TokenKind", "text", "str", "derive", "Debug", "Clone",
        "Copy", "PartialEq", "Ident", "Number", "Quote", "next_token", "input", "keyword_map", "Option",
        "first_char", "chars", "next", "quote", "raw_text", "byte_tab", "match", "is_empty", "Some", "get", "map",
    },
    "OrderService.java": {
        "com", "example", "orders", "java", "util", "List", "Service", "OrderService", "MAX_ORDERS_PER_DAY",
        "OrderRepository", "orderRepository", "Override", "String", "describeOrder", "orderId", "order",
        "findById", "separator", "template", "formatted", "getCustomerName",
    },
    "ring_buffer.c": {
        "RING_CAPACITY", "data", "size_t", "head_index", "tail_index", "RingBuffer", "ring_push", "rb",
        "byte_value", "next", "fprintf", "stderr",
    },
    "matrix.cpp": {
        "linalg", "T", "Matrix", "std", "size_t", "rowCount", "colCount", "rows_", "cols_", "data_", "at", "row",
        "col", "string", "describe", "vector", "kMaxCells",
    },
    "InvoiceController.cs": {
        "System", "Billing", "Api", "InvoiceController", "IInvoiceStore", "_invoiceStore", "PageSize",
        "invoiceStore", "ExportPath", "class", "folder", "InvoiceFormat", "Pdf",
    },
    "deploy.sh": {
        "set", "DEPLOY_ENV", "export", "RELEASE_TAG", "readonly", "MAX_ATTEMPTS", "log_info", "local", "message",
        "echo", "attempt_no", "curl", "break", "sleep", "cat",
    },
    "reports.sql": {
        "reporting", "monthly_revenue", "report_month", "DATE", "customer_segment", "VARCHAR", "order_count",
        "INTEGER", "gross_revenue", "NUMERIC", "Net Revenue (EUR)", "paid_orders", "o", "order_id", "customer_id",
        "date_trunc", "paid_at", "date", "total_amount_cents", "gross_amount", "sales", "orders", "status",
        "start_date", "refunds", "r", "refunded_at", "SUM", "amount_cents", "refund_amount", "p", "COALESCE", "c",
        "segment_name", "COUNT", "rf", "crm", "customers",
    },
    # broken code: everything after the break is inside a string or comment
    "broken_docstring.py": {
        "os", "load_settings", "config_path", "values", "open", "handle", "raw_line", "key_name", "_",
        "setting_value", "partition", "strip", "save_settings", "settings_map", "target_path",
    },
    "broken_indent.py": {"outer_function", "first_arg", "result_value", "misaligned_name", "message_text"},
    "broken_template.ts": {"userName", "string", "greetingText"},
    "broken_comment.go": {"main", "visibleFunc", "countValue", "int"},
    "broken_quote.sql": {"customer_id", "first_name", "customers", "note"},
    "broken.sh": {"BACKUP_DIR", "echo", "REOPENED_VAR"},
}  # fmt: skip


@pytest.mark.parametrize("filename", sorted(EXPECTED), ids=sorted(EXPECTED))
def test_exact_identifiers_of_each_fixture(filename):
    assert file_names(filename) == EXPECTED[filename]


def test_every_fixture_and_sample_is_covered():
    files = code_sample_files()
    assert set(EXPECTED) <= set(files)
    languages = {load_code_file(f)[1] for f in files}
    assert languages == set(LANGUAGE_IDS)  # a real file for every supported language


@pytest.mark.parametrize(
    ("filename", "hidden"),
    [
        ("checkout.js", {"hiddenInComment", "notInTemplateText", "keyword", "regex", "literal"}),
        ("lexer.rs", {"hiddenDoc", "hiddenNested", "still", "hiddenRaw", "raw", "src", "a"}),
        ("OrderService.java", {"hiddenJavadoc", "hiddenTextBlock", "Javadoc"}),
        ("ring_buffer.c", {"hiddenLineComment", "hiddenString", "stdio", "h", "ring_buffer", "must", "power"}),
        ("matrix.cpp", {"hiddenRaw", "fmt", "rows", "cols", "dense"}),
        ("InvoiceController.cs", {"hiddenComment", "hiddenVerbatim", "quoted", "exports"}),
        ("deploy.sh", {"hiddenShellComment", "hiddenQuotedText", "hiddenHeredocText", "staging", "pipefail",
                       "production", "prod", "careful", "EOF", "https", "health"}),
        ("reports.sql", {"Monthly", "nightly", "month", "paid", "refunds are", "customer", "segment", "unknown"}),
        ("broken_docstring.py", {"hiddenAfterDocstring", "fake_function_name", "argument"}),
        ("broken_indent.py", {"hiddenInBrokenString", "unterminated"}),
        ("broken_template.ts", {"hiddenTemplateText", "neverReached", "argValue"}),
        ("broken_comment.go", {"hiddenFunc", "hiddenParam"}),
        ("broken_quote.sql", {"hidden_column", "hidden_table"}),
        ("broken.sh", {"hiddenShellText", "rm"}),
    ],
)  # fmt: skip
def test_words_in_strings_and_comments_are_not_identifiers(filename, hidden):
    assert not hidden & file_names(filename)


def test_page_samples_key_names_and_hidden_text():
    py = file_names("inventory.py")
    assert {"calculate_total", "parse_http_response_2xx", "größe_in_kg", "__post_init__", "StockItem",
            "MAX_RESERVATION_MINUTES", "self", "print"} <= py  # fmt: skip
    assert not {"def", "return", "None", "Reservations", "expire", "supplier", "negative"} & py
    ts = file_names("api_client.ts")
    assert {"parseHTTPResponse2xx", "getOrderById", "OrderStatus", "unitPriceCents", "retryDelayMs"} <= ts
    assert not {"pending", "ord_", "unexpected", "Bearer", "malformed", "type", "readonly", "async"} & ts
    go = file_names("ratelimit.go")
    assert {"NewLimiter", "clientID", "ErrLimitExceeded", "usageTemplate", "nil"} <= go
    assert not {"func", "RequestsPerSecond}}", "limit", "burst", "req"} & go


def test_keywords_never_builtins_flagged():
    ex = extract_identifiers("def f(x):\n    print(len(x), None, self.y)\n", "python")
    got = {o.name: o.builtin for o in ex.occurrences}
    assert got == {"f": False, "x": False, "print": True, "len": True, "self": False, "y": False}
    sql = extract_identifiers("select count(*), Name from Users where x is null", "sql")
    assert [o.name for o in sql.occurrences] == ["count", "Name", "Users", "x"]
    assert [o.builtin for o in sql.occurrences] == [True, False, False, False]
    go = {o.name: o.builtin for o in extract_identifiers("func f() error { return nil }", "go").occurrences}
    assert go == {"f": False, "error": True, "nil": True}


def test_contextual_keywords_and_member_names():
    ts = extract_identifiers("type Foo = { type: string };\nlet k = event.type as const;\n", "typescript")
    assert [o.name for o in ts.occurrences] == ["Foo", "type", "string", "k", "event", "type"]
    js = extract_identifiers("obj.default = x.class; map.get(k); get(k)", "javascript")
    assert [o.name for o in js.occurrences] == ["obj", "default", "x", "class", "map", "get", "k", "get", "k"]
    java = extract_identifiers("var x = 1; int var = 2;", "java")
    assert [o.name for o in java.occurrences] == ["x", "var"]


# ECMAScript reserves break...yield (strict mode adds let, static, implements, interface, package,
# private, protected, public); `async`, `of`, `get`... are contextual, and so are TypeScript's
# `readonly`, `declare`, `abstract`, `keyof`, `infer`, `is`, `asserts` (TypeScript's scanner lists
# them after its last reserved word). A contextual word used as a name is an identifier.
@pytest.mark.parametrize(
    "code, language, expected",
    [
        pytest.param("const is = 1; let readonly = x; function f(async) {}", "typescript",
                     ["is", "readonly", "x", "f", "async"], id="ts-names"),
        pytest.param("let declare = 1, abstract = 2, keyof = 3, infer = 4, asserts = 5;", "typescript",
                     ["declare", "abstract", "keyof", "infer", "asserts"], id="ts-more-names"),
        pytest.param("const o = { readonly: true, is: 1 }; o.readonly; is(o); asserts(o);", "typescript",
                     ["o", "readonly", "is", "o", "readonly", "is", "o", "asserts", "o"], id="ts-properties-calls"),
        pytest.param("const async = require('async'); async.map(xs); g(async);", "javascript",
                     ["async", "require", "async", "map", "xs", "g", "async"], id="js-async-name"),
        pytest.param("async function g(a) { const f = async (x) => x; const h = async y => y; }", "javascript",
                     ["g", "a", "f", "x", "x", "h", "y", "y"], id="js-async-keyword"),
        pytest.param("let readonly = 1\nreadonly\nfoo()", "typescript", ["readonly", "readonly", "foo"],
                     id="ts-line-break-ends-modifier"),
        pytest.param(
            "abstract class A { private readonly b: string; abstract m(): void; async n(): Promise<void> {} }\n"
            "declare const q: number;\ntype K = keyof T;\ntype U<T> = T extends (infer E)[] ? E : never;\n"
            "function s(v: unknown): v is string { return true }\nfunction ok(v: unknown): asserts v is string {}\n"
            "const t = async (v: number): Promise<number> => v;",
            "typescript",
            ["A", "b", "string", "m", "n", "Promise", "q", "number", "K", "T", "U", "T", "T", "E", "E", "never",
             "s", "v", "unknown", "v", "string", "ok", "v", "unknown", "v", "string", "t", "v", "number", "Promise",
             "number", "v"],
            id="ts-keywords-where-they-act",
        ),
    ],
)  # fmt: skip
def test_contextual_words_are_names_where_used_as_names(code, language, expected):
    assert [o.name for o in extract_identifiers(code, language).occurrences] == expected


def test_js_regex_literal_versus_division():
    ex = extract_identifiers("a = b / c / d; r = /x y/g.test(s); if (/z/.test(t)) return /w/;", "javascript")
    assert [o.name for o in ex.occurrences] == ["a", "b", "c", "d", "r", "test", "s", "test", "t"]


def test_template_literals_nest_and_code_inside_is_lexed():
    code = "const t = `a ${user.name + `${inner}`} b ${ {k: v}.k } notCode`;"
    assert [o.name for o in extract_identifiers(code, "javascript").occurrences] == [
        "t", "user", "name", "inner", "k", "v", "k"
    ]  # fmt: skip


def test_python_fstring_expressions_are_code():
    code = 'msg = f"{user.name!r:>{width}} {{literal}} {total:,.2f}"\n'
    assert [o.name for o in extract_identifiers(code, "python").occurrences] == [
        "msg", "user", "name", "width", "total"
    ]  # fmt: skip


def test_rust_lifetimes_chars_raw_strings():
    code = "fn f<'a>(x: &'a str) -> char { let c = 'z'; let e = '\\''; let r = r##\"a \"# b\"##; c }"
    result = lex(code, "rust")
    kinds = {code[x.start : x.end]: x.kind for x in result.lexemes}
    assert kinds["'a"] == "other" and kinds["'z'"] == "string" and kinds["'\\''"] == "string"
    assert kinds['r##"a "# b"##'] == "string"
    assert [o.name for o in extract_identifiers(code, "rust").occurrences] == [
        "f",
        "x",
        "str",
        "char",
        "c",
        "e",
        "r",
        "c",
    ]


def test_sql_quoted_identifiers_escapes_and_comments():
    code = 'SELECT "Order ""Id""" AS "x", `weird name` -- note words\nFROM t WHERE s = \'it\'\'s\' /* c */;'
    ex = extract_identifiers(code, "sql")
    assert [o.name for o in ex.occurrences] == ['Order "Id"', "x", "weird name", "t", "s"]
    first = ex.occurrences[0]
    assert code[first.start : first.end] == 'Order ""Id""'  # the span is the text inside the quotes


def test_go_raw_strings_and_runes():
    code = "s := `multi\nline ${notID}` + string('x')\n"
    assert [o.name for o in extract_identifiers(code, "go").occurrences] == ["s", "string"]


def test_shell_variables_assignments_and_substitutions():
    code = (
        'for f in *.txt; do\n  COUNT=$(( COUNT + 1 ))\n  echo "${f%.txt} $(wc -l < "$f") ${#ARR[@]}"\ndone\n'
    )
    ex = extract_identifiers(code, "shell")
    assert [o.name for o in ex.occurrences] == ["f", "COUNT", "COUNT", "echo", "f", "wc", "f", "ARR"]


def test_positions_are_one_based_lines_and_columns():
    text, lang = load_code_file("checkout.js")
    ex = extract_identifiers(text, lang)
    first = next(o for o in ex.occurrences if o.name == "skuPattern")
    line_text = text.splitlines()[first.line - 1]
    assert line_text.startswith("const skuPattern")
    assert (first.line, first.col) == (4, len("const ") + 1)
    for o in ex.occurrences:
        assert text[o.start : o.end] == o.name
        assert text.splitlines()[o.line - 1][o.col - 1 : o.col - 1 + len(o.name)] == o.name
    py, _ = load_code_file("inventory.py")
    occ = next(o for o in extract_identifiers(py, "python").occurrences if o.name == "calculate_total")
    assert py.splitlines()[occ.line - 1].startswith("def calculate_total(")


def test_occurrence_counts():
    ex = extract_identifiers(load_code_file("checkout.js")[0], "javascript")
    counts = ex.counts()
    assert counts["items"] == 4 and counts["item"] == 4 and counts["skuPattern"] == 2 and counts["class"] == 1
    assert ex.names()[0] in {"items", "item"}


def test_words_in_strings_and_comments_when_asked():
    text, lang = load_code_file("checkout.js")
    with_comments = extract_identifiers(text, lang, include_comments=True)
    found = {o.name: o.where for o in with_comments.occurrences}
    assert found["hiddenInComment"] == "comment"
    assert "notInTemplateText" not in found
    with_strings = extract_identifiers(text, lang, include_strings=True)
    assert {o.name: o.where for o in with_strings.occurrences}["notInTemplateText"] == "string"
    # keywords stay out even inside comments
    ex = extract_identifiers("x = 1  # if the value is None\n", "python", include_comments=True)
    assert [o.name for o in ex.occurrences] == ["x", "the", "value"]


def test_broken_python_is_reported_and_continued():
    text, lang = load_code_file("broken_indent.py")
    ex = extract_identifiers(text, lang)
    assert ex.lexer == "python tokenize + generic"
    assert "line 4" in ex.notes[0] and "generic lexer" in ex.notes[0]
    assert any("Unterminated string" in n and "line 5" in n for n in ex.notes)
    doc = extract_identifiers(*load_code_file("broken_docstring.py"))
    assert "line 14" in doc.notes[0]
    unclosed = extract_identifiers("total = compute(\n    price,\n", "python")
    assert [o.name for o in unclosed.occurrences] == ["total", "compute", "price"]
    assert "Every identifier was still read" in unclosed.notes[0]


@pytest.mark.parametrize(
    "filename", ["broken_template.ts", "broken_comment.go", "broken_quote.sql", "broken.sh"]
)
def test_broken_code_in_other_languages_gives_a_note(filename):
    ex = extract_identifiers(*load_code_file(filename))
    assert ex.notes and "Unterminated" in ex.notes[0]


def test_unicode_identifiers():
    assert names("größe = 1\nπ_wert = größe * 2\n", "python") == {"größe", "π_wert"}
    decomposed = "gro\u0308ße = 1\n"  # o + combining diaeresis
    assert names(decomposed, "javascript") == {"gro\u0308ße"}
    assert names("const 数据 = 1;", "typescript") == {"数据"}


def test_language_detection():
    assert language_from_filename("src/App.TSX") == "typescript"
    assert language_from_filename("C:\\code\\main.rs") == "rust"
    assert language_from_filename("README.md") is None
    assert detect_language("x", filename="main.go") == ("go", "from the file name main.go")
    assert guess_language("#!/usr/bin/env bash\necho hi\n")[0] == "shell"
    assert guess_language("#!/usr/bin/python3\nprint(1)\n")[0] == "python"
    for filename in ["inventory.py", "api_client.ts", "ratelimit.go", "reports.sql", "lexer.rs",
                     "OrderService.java", "InvoiceController.cs", "deploy.sh"]:  # fmt: skip
        text, lang = load_code_file(filename)
        assert guess_language(text)[0] == lang, filename
    assert guess_language("hello there")[1] == "no clear signal"
    with pytest.raises(UnknownLanguage, match="choose one of"):
        get_language("cobol")
    with pytest.raises(InputError):
        load_code_file("../secrets.py")


def test_scan_quoted_and_positions_helpers():
    assert scan_quoted('"a\\"b" + x', 1, '"') == (6, True)
    assert scan_quoted("'it''s' x", 1, "'", escapes=False, doubling=True) == (7, True)
    assert scan_quoted("'open\nnext", 1, "'") == (5, False)
    starts = line_starts("ab\ncd\n")
    assert starts == [0, 3, 6] and position(starts, 4) == (2, 2)


CODE_CHARS = list("abcXYZ_09 \n\t'\"`/*#$-{}()[];:.,=<>\\@!r%?&|+") + [
    "ö",
    "数",
    "\u0308",
    "😀",
    "\r",
    "\x00",
    "\f",
]


@settings(max_examples=60)
@given(text=st.text(alphabet=st.sampled_from(CODE_CHARS), max_size=120))
@pytest.mark.parametrize("language", LANGUAGE_IDS)
def test_any_text_lexes_without_error_into_ordered_spans(language, text):
    result = lex(text, language)
    pos = 0
    for x in result.lexemes:
        assert pos <= x.start < x.end <= len(text)
        pos = x.end
    for o in extract_identifiers(
        text, language, include_strings=True, include_comments=True, lexed=result
    ).occurrences:
        assert 0 <= o.start < o.end <= len(text)
        if language != "sql":
            assert text[o.start : o.end] == o.name


@pytest.mark.parametrize("module", ["base", "c_like", "sql", "shell", "python"])
def test_the_lexer_modules_examples_run(module):
    import doctest
    import importlib

    mod = importlib.import_module(f"tokenizer_core.identifiers.lexers.{module}")
    result = doctest.testmod(mod)
    assert result.attempted > 0 and result.failed == 0

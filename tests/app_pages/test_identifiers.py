"""The Code identifiers page, headless (AppTest): real values, every tab, bad input."""

from __future__ import annotations

import re

import pytest

from tests.conftest import builtin
from tokenizer_core.identifiers import load_code_file, load_code_sample
from tokenizer_core.identifiers.greedy import SEED_VOCAB

PAGE = "app_pages/identifiers.py"


def shown(table):
    """A static table as the user reads it: it is Markdown, so names come escaped (`cl100k\\_base`)."""
    plain = lambda v: re.sub(r"\\(.)", r"\1", v).replace("\u2060", "") if isinstance(v, str) else v  # noqa: E731
    return table.rename(columns=plain).map(plain)


def run(at):
    at.run()
    assert not at.exception, at.exception
    return at


def open_tab(at, label: str):
    at.session_state["identifiers_tab"] = label
    return run(at)


def metric(at, label: str) -> str:
    """A metric's value by its label as shown (labels are Markdown with the names escaped)."""
    return next(m.value for m in at.metric if m.label.replace("\\", "") == label)


def table(at):
    return next(df.value for df in at.dataframe if "identifier" in df.value.columns)


def test_default_sample_shows_real_counts(page):
    text, _ = load_code_sample("Python: inventory service")
    assert page.text_area(key="identifiers_text").value == text
    assert any("Python" in c.value and "sample" in c.value for c in page.caption)
    for tid, label in [("o200k_base", "o200k_base tokens"), ("cl100k_base", "cl100k_base tokens"),
                       ("llama3", "Llama 3 tokens")]:  # fmt: skip
        assert metric(page, label) == f"{builtin(tid).count(text):,}"
    assert metric(page, "Lines") == "77"
    df = table(page)
    assert "größe_in_kg" in set(df["identifier"])
    assert (df["chars"] >= 3).all()  # default minimum length
    # most expensive first: uses x average tokens where the name stands, over the tokenizers
    cost = df["occurrences"] * sum(df[f"{t} in code"] for t in ("o200k_base", "cl100k_base", "llama3"))
    assert all(a >= b - 0.1 for a, b in zip(cost, cost[1:]))
    row = df[df["identifier"] == "calculate_total"].iloc[0]
    assert row["o200k_base tokens"] == builtin("o200k_base").count("calculate_total")
    assert row["words"] == "calculate total" and row["style"] == "snake_case"


def test_filters_and_inspect(page):
    page.text_input(key="identifiers_filter").input("reserv")
    run(page)
    names = set(table(page)["identifier"])
    assert names == {"MAX_RESERVATION_MINUTES", "reserve_stock", "reserved", "include_reserved"}
    page.multiselect(key="identifiers_styles").select("SCREAMING_SNAKE")
    run(page)
    assert set(table(page)["identifier"]) == {"MAX_RESERVATION_MINUTES"}
    assert page.selectbox(key="identifiers_inspect").value == "MAX_RESERVATION_MINUTES"
    naming = next(
        shown(t.value) for t in page.table if "style" in t.value.columns and "name" in t.value.columns
    )
    assert "maxReservationMinutes" in set(naming["name"])
    page.text_input(key="identifiers_filter").input("no such name")
    run(page)
    assert any("No identifier matches" in i.value for i in page.info)


def test_other_sample_changes_language(page):
    page.selectbox(key="identifiers_sample").select("TypeScript: orders API client")
    page.button(key="identifiers_load_sample").click()
    run(page)
    assert any("TypeScript" in c.value for c in page.caption)
    page.number_input(key="identifiers_min_chars").set_value(1)
    run(page)
    names = set(table(page)["identifier"])
    assert {"parseHTTPResponse2xx", "getOrderById", "T"} <= names
    assert "pending" not in names and "readonly" not in names


def test_broken_code_warns_and_still_lists(page):
    text, _ = load_code_file("broken_indent.py")
    page.text_area(key="identifiers_text").input(text)
    run(page)
    warnings = " ".join(w.value for w in page.warning)
    assert "line 4" in warnings and "generic lexer" in warnings
    assert "misaligned_name" in set(table(page)["identifier"])


def test_language_choice_and_detection(page):
    go, _ = load_code_file("ratelimit.go")
    page.text_area(key="identifiers_text").input(
        go.replace("package ratelimit", "package ratelimit // pasted")
    )
    run(page)
    assert any("Go" in c.value and "guessed" in c.value for c in page.caption)
    page.selectbox(key="identifiers_language").select("rust")
    run(page)
    assert any("Rust" in c.value and "chosen by you" in c.value for c in page.caption)


def test_every_tab(page):
    open_tab(page, "Code view")
    code_html = " ".join(h.proto.body for h in page.get("html"))
    assert 'class="tw-code"' in code_html and "calculate_total: " in code_html
    page.number_input(key="identifiers_view_line").set_value(70)
    run(page)
    assert any("Lines 70–77 of 77" in c.value for c in page.caption)

    open_tab(page, "Naming styles")
    page.text_input(key="identifiers_try_name").input("get user by id")
    run(page)
    tables = [df.value for df in page.dataframe] + [shown(t.value) for t in page.table]
    tried = next(t for t in tables if "name" in t.columns and "getUserById" in set(t["name"]))
    assert tried[tried["name"] == "getUserById"]["cl100k_base"].iloc[0] == builtin("cl100k_base").count(
        "getUserById"
    )
    assert any("spaces read as word breaks" in m.value for m in page.markdown)
    rewrites = next(t for t in tables if "names renamed" in t.columns)
    text, _ = load_code_sample("Python: inventory service")
    assert rewrites.iloc[0]["o200k_base"] == builtin("o200k_base").count(text)

    open_tab(page, "Layout")
    assert metric(page, "Indentation") == "4 spaces"
    assert metric(page, "Docstrings") == "5"
    assert any("tokens(file) − tokens(file" in m.value for m in page.markdown)


def test_teaching_mode_reproduces_the_seed_and_takes_edits(page):
    open_tab(page, "Teaching mode")
    assert any("27 characters → 9 tokens" in m.value for m in page.markdown)
    seed = next(df.value for df in page.dataframe if "same as the article" in df.value.columns)
    assert list(seed["tokens"]) == [9, 7, 5, 6] and seed["same as the article"].all()
    page.text_area(key="identifiers_greedy_vocab").input("\n".join([*SEED_VOCAB, "calculate"]))
    run(page)
    assert any("27 characters → 8 tokens" in m.value for m in page.markdown)
    page.text_area(key="identifiers_greedy_vocab").input("   ")
    run(page)
    assert any("vocabulary is empty" in e.value for e in page.error)
    assert page.text_area(key="identifiers_greedy_vocab").value == "   "  # nothing typed is lost
    page.button(key="identifiers_greedy_reset").click()
    run(page)
    assert page.text_area(key="identifiers_greedy_vocab").value == "\n".join(SEED_VOCAB)


def test_teaching_tokenizer_joins_the_comparison(page):
    page.toggle(key="identifiers_add_greedy").set_value(True)
    run(page)
    labels = [m.label for m in page.metric]
    assert "Greedy longest match tokens" in labels
    assert "greedy-seed tokens" in table(page).columns


def test_every_builtin_tokenizer_at_once(page):
    from tests.conftest import ALL_IDS

    page.multiselect(key="identifiers_tokenizers").set_value(ALL_IDS)
    page.toggle(key="identifiers_add_greedy").set_value(True)
    run(page)
    token_metrics = [m for m in page.metric if m.label.endswith(" tokens")]
    assert len(token_metrics) == len(ALL_IDS) + 1
    text, _ = load_code_sample("Python: inventory service")
    assert metric(page, "Qwen 2.5 / 3 tokens") == f"{builtin('qwen').count(text):,}"
    assert {f"{t} tokens" for t in ALL_IDS} <= set(table(page).columns)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Paste code"),
        ("   \n\t", "Paste code"),
        ("x = 1\n" * 200_000, "analyses up to"),
        ("# just a comment\n'''and a string'''\n", "No identifiers found"),
    ],
    ids=["empty", "blank", "huge", "no-identifiers"],
)
def test_bad_input_is_explained_not_a_traceback(page, text, message):
    page.text_area(key="identifiers_text").input(text)
    run(page)
    shown = " ".join(x.value for x in [*page.info, *page.error, *page.warning])
    assert message in shown
    assert page.text_area(key="identifiers_text").value == text


def test_odd_text_does_not_break_any_tab(page):
    text = "<img src=x onerror=alert(1)> 😀 数据 = größe <|endoftext|>\x00\r\n\tdef (:\n"
    page.text_area(key="identifiers_text").input(text)
    run(page)
    for tab in ["Identifiers", "Code view", "Naming styles", "Layout", "Teaching mode"]:
        open_tab(page, tab)


def test_no_tokenizer_chosen(page):
    page.multiselect(key="identifiers_tokenizers").set_value([])
    run(page)
    assert any("at least one tokenizer" in i.value for i in page.info)


def test_a_5000_line_file_draws_a_limited_view(page):
    from bench.bench_identifiers import make_code

    code = make_code(5_000)
    page.text_area(key="identifiers_text").input(code)
    run(page)
    assert metric(page, "Lines") == "5,000"
    open_tab(page, "Code view")
    assert any("Lines 1–400 of 5,000" in c.value and "At most 400 lines" in c.value for c in page.caption)
    body = " ".join(h.proto.body for h in page.get("html") if "tw-code" in h.proto.body)
    assert '<span class="tw-ln">400</span>' in body and '<span class="tw-ln">401</span>' not in body


def test_most_expensive_names_default_to_what_they_cost_in_the_file(page):
    """Tokens per character put one-token short names first (`_KT`, `__eq__`); a user's
    "expensive" is what the name costs in this file: its uses times its tokens there."""
    assert page.selectbox(key="identifiers_sort").value == "file"
    text, _ = load_code_sample("Python: inventory service")
    df = table(page)
    top = df["identifier"].iloc[0]
    # an independent rough measure: uses in the code x tokens of the name alone, summed over the
    # three tokenizers; the top name is among the five most expensive by it
    import re

    def rough(name: str) -> int:
        uses = len(re.findall(rf"(?<![\w]){re.escape(name)}(?![\w])", text))
        return uses * sum(builtin(t).count(name) for t in ("o200k_base", "cl100k_base", "llama3"))

    ranked = sorted(set(df["identifier"]), key=rough, reverse=True)
    assert top in ranked[:5], (top, ranked[:5])
    assert rough(top) > rough(df.sort_values("tokens/char", ascending=False)["identifier"].iloc[0])
    for order in ("per_char", "alone", "uses", "name"):
        page.selectbox(key="identifiers_sort").set_value(order)
        run(page)


def test_layout_reads_textwrap_as_indented_by_4(page):
    """Python's textwrap.py (indented by 4, docstring text at 6, 10 and 14 spaces) read as "2 spaces"."""
    import textwrap
    from pathlib import Path

    page.text_area(key="identifiers_text").input(Path(textwrap.__file__).read_text(encoding="utf-8"))
    open_tab(page, "Layout")
    assert metric(page, "Indentation") == "4 spaces"
    assert any("the detected unit (4 spaces)" in m.value for m in page.markdown)

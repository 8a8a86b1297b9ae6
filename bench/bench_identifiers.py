"""How long the Code identifiers page takes on a 5,000-line file, with 3 tokenizers.

Measures, on the same file and in the same run:

* reference: counting the file's tokens with the 3 tokenizers (`tok.count`), the least any
  token tool does; and Python's own `tokenize` over the file;
* core: each step of the page's work (lex, extract, per-identifier costs with whole-file
  segments, layout variants, whole-file style rewrites, HTML of the 400-line code view, CSV);
* page: the Streamlit page itself, headless (AppTest): the first run on the file (cold caches)
  and a rerun after changing a filter (warm caches), and each lazy tab opened once.

Two files: real code (5,000 lines of the standard library, bench/corpus.py) and a synthetic file
made from the bundled Python sample. Each figure is the median of `--repeat` runs.

    python bench/bench_identifiers.py            # full run (about 2-4 minutes)
    python bench/bench_identifiers.py --quick    # smoke run: 1,000 lines, 1 repeat
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TOKENIZERS = ("o200k_base", "cl100k_base", "llama3")


def make_code(n_lines: int = 5_000, *, filename: str = "inventory.py") -> str:
    """`n_lines` lines of Python made from a bundled sample, deterministic.

    Copy k of the sample renames each of its own multi-word names to ``name_k`` (builtins
    untouched), so the distinct identifiers grow with the file as in a real code base.
    """
    from tokenizer_core.identifiers import extract_identifiers, load_code_file, split_identifier

    text, language = load_code_file(filename)
    occurrences = [
        o for o in extract_identifiers(text, language).occurrences
        if not o.builtin and len(split_identifier(o.name).words) >= 2 and not o.name.startswith("__")
    ]  # fmt: skip
    lines: list[str] = []
    k = 0
    while len(lines) < n_lines:
        parts, pos = [], 0
        for o in occurrences:
            parts += [text[pos : o.start], f"{o.name}_{k}" if k else o.name]
            pos = o.end
        parts.append(text[pos:])
        lines.extend(f"# part {k}\n{''.join(parts)}".splitlines(keepends=True))
        k += 1
    return "".join(lines[:n_lines])


def stdlib_code(n_lines: int) -> str:
    from bench.corpus import python_code

    return "".join(python_code(3_333_333).splitlines(keepends=True)[:n_lines])


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def core_rows(code: str, repeat: int) -> tuple[list[tuple[str, float]], str]:
    import io
    import tokenize

    from tokenizer_core import load_builtin
    from tokenizer_core.identifiers import (
        analyse_identifiers,
        code_heatmap_html,
        code_view_window,
        extract_identifiers,
        identifiers_csv,
        layout_costs,
        lex_code,
        rewrite_costs,
    )

    toks = [load_builtin(t) for t in TOKENIZERS]
    rows: list[tuple[str, float]] = []
    t, _ = timed(lambda: [tok.count(code) for tok in toks], repeat)
    rows.append(("reference: tok.count(file) x 3 tokenizers", t))

    def run_tokenize() -> None:
        try:  # a file cut at N lines may end inside a string: tokenize raises at the very end
            for _ in tokenize.generate_tokens(io.StringIO(code).readline):
                pass
        except (tokenize.TokenError, SyntaxError):
            pass

    t, _ = timed(run_tokenize, repeat)
    rows.append(("reference: Python tokenize over the file", t))
    t, lexed = timed(lambda: lex_code(code, "python"), repeat)
    rows.append(("lex (tokenize + f-strings + docstrings)", t))
    t, ex = timed(lambda: extract_identifiers(code, "python", lexed=lexed), repeat)
    rows.append(("extract occurrences", t))
    t, an = timed(lambda: analyse_identifiers(code, toks, extraction=ex), repeat)
    rows.append(("identifier costs, 3 tokenizers (page's first view)", t))
    t, _ = timed(lambda: layout_costs(code, lexed, toks), repeat)
    rows.append(("layout: 8 variants x 3 tokenizers (Layout tab)", t))
    t, _ = timed(lambda: rewrite_costs(code, ex, toks), repeat)
    rows.append(("whole file in 5 styles x 3 tokenizers (Naming tab)", t))
    first, last = code_view_window(code, 1)
    t, _ = timed(lambda: code_heatmap_html(code, ex.occurrences, an.occurrence_tokens[toks[0].id],
                                           first_line=first, last_line=last, lexed=lexed), repeat)  # fmt: skip
    rows.append((f"code view HTML, lines {first}-{last}", t))
    t, _ = timed(lambda: identifiers_csv(an), repeat)
    rows.append(("CSV of all identifiers", t))
    return rows, f"{len(an.rows):,} distinct identifiers, {len(ex.occurrences):,} uses"


def page_rows(code: str, repeat: int) -> list[tuple[str, float]]:
    import logging

    import streamlit as st
    from streamlit import logger
    from streamlit.testing.v1 import AppTest

    def quiet() -> None:  # AppTest runs in bare mode and says so on every run
        logger.set_log_level("error")
        for name in list(logging.root.manager.loggerDict):
            if name.startswith("streamlit"):
                logging.getLogger(name).setLevel(logging.ERROR)

    quiet()
    cold, warm, tabs = [], [], {}
    for _ in range(repeat):
        st.cache_data.clear()
        at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=600)
        at.run()
        quiet()
        at.switch_page("app_pages/identifiers.py").run()
        t0 = time.perf_counter()
        at.text_area(key="identifiers_text").input(code).run()
        cold.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
        t0 = time.perf_counter()
        at.text_input(key="identifiers_filter").input("part").run()
        warm.append(time.perf_counter() - t0)
        for tab in ("Code view", "Naming styles", "Layout", "Teaching mode"):
            at.session_state["identifiers_tab"] = tab
            t0 = time.perf_counter()
            at.run()
            tabs.setdefault(tab, []).append(time.perf_counter() - t0)
            assert not at.exception, at.exception
    rows = [("page: paste the file, first run (cold caches)", statistics.median(cold)),
            ("page: rerun after typing a filter (warm)", statistics.median(warm))]  # fmt: skip
    rows += [(f"page: open the {tab} tab", statistics.median(v)) for tab, v in tabs.items()]
    return rows


def print_table(title: str, rows: list[tuple[str, float]], reference: float) -> None:
    print(f"\n{title}")
    print(f"  {'step':58} {'seconds':>9} {'x count':>8}")
    for label, value in rows:
        print(f"  {label:58} {value:9.3f} {value / reference:8.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 lines, one repeat, no page run")
    parser.add_argument("--lines", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-page", action="store_true", help="skip the AppTest page timing")
    args = parser.parse_args(argv)
    lines = 1_000 if args.quick else max(1, args.lines)
    repeat = 1 if args.quick else max(1, args.repeat)
    files = {"standard library code": stdlib_code(lines), "synthetic (bundled sample)": make_code(lines)}
    print(f"Code identifiers benchmark: {lines:,} lines, tokenizers {', '.join(TOKENIZERS)}, "
          f"median of {repeat} run(s)")  # fmt: skip
    for name, code in files.items():
        print(f"\n== {name}: {len(code):,} characters, {code.count(chr(10)):,} lines")
        rows, found = core_rows(code, repeat)
        print_table(f"core (tokenizer_core, no Streamlit): {found}", rows, rows[0][1])
        if not args.quick and not args.no_page:
            print_table(
                "page (AppTest, headless: script time, no browser drawing)",
                page_rows(code, repeat),
                rows[0][1],
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

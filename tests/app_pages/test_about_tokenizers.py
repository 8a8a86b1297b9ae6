""" "About these tokenizers" on the prompt workspace names where each tokenizer comes from in
words (package, version, what it is), not as file paths inside packages (docs/tokenizers.md
keeps those for developers)."""

from __future__ import annotations

import re

from tokenizer_core.tokenizers import BUILTINS

# A path inside a package or the repository ("quicktok/data/o200k.vocab", "llama4/tokenizer.py"),
# or a data file's own name ("tekken_240911.json", "tokenizer.model").
PATH = re.compile(r"\b[\w.-]+/[\w.-]+|\b[\w-]+\.(?:vocab|special|tiktoken|model|json|py)\b")


def _shown(cell: str) -> str:
    """A cell as the page shows it (the table reads Markdown: its text is escaped)."""
    return re.sub(r"\\(.)", r"\1", cell)


def _about_table(at):
    (table,) = [t.value for t in at.table if "Data source" in t.value.columns]
    return table


def test_the_about_table_names_sources_without_file_paths(app):
    table = _about_table(app)
    builtin_names = {spec.info.name for spec in BUILTINS.values()}
    shown = table[table["Tokenizer"].str.replace("\\", "", regex=False).isin(builtin_names)]
    assert len(shown) == len(builtin_names)  # every built-in tokenizer has its row
    paths = {  # cells are Markdown-escaped on the page: read them as shown
        row["Tokenizer"]: PATH.findall(_shown(f"{row['Data source']} {row['Notes']}"))
        for _, row in shown.iterrows()
    }
    assert {name: found for name, found in paths.items() if found} == {}
    sources = {_shown(name): _shown(source) for name, source in zip(shown["Tokenizer"], shown["Data source"])}
    # still says which package and version, and the hash it was checked against
    assert "quicktok-v1 0.4.0" in sources["o200k_base"] and "446a9538" in sources["o200k_base"]
    assert "mistral-common 1.13.1" in sources["Mistral Tekken"]


def test_the_registry_gives_every_builtin_a_source_in_words():
    for spec in BUILTINS.values():
        assert PATH.findall(spec.info.source) == [], spec.info.id
        assert "PyPI" in spec.info.source or "rebuilt here" in spec.info.source, spec.info.id

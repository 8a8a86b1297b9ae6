"""The workspace's count cards: Markdown with every name escaped, read back as shown."""

from __future__ import annotations

import re

import pytest

from tests.helpers.count_cards import read_count_card
from tokenizer_core.workspace.count_cards import CountCard, count_card_markdown

HOSTILE = [
    '<img src=x onerror="alert(1)">',
    "**bold** [x](https://evil.example) ![i](https://evil.example/i.png)",
    "a]b[c] :smile: :material/home: $x^2$ `code` # h",
    "   indented\n\n## not a heading\r\nnext",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_is_escaped_and_reads_back_as_typed_on_one_line(name):
    md = count_card_markdown(CountCard(name, 1234567, models=name))
    assert md.count("\n\n") == 2  # name, count, models: never a line of the name's own
    for raw in ("<img", r"\*\*", r"\]\(", ":smile:", r"\$x"):  # none left unescaped
        assert not re.search(r"(?<!\\)" + raw, md), raw
    assert read_count_card(md) == (" ".join(name.split()), "1,234,567")


def test_the_count_is_a_heading_and_models_a_badge_only_when_there_are_some():
    assert count_card_markdown(CountCard("Llama 3", 0)) == ":small[Llama 3]\n\n### 0"
    md = count_card_markdown(CountCard("o200k_base", 3081, models="GPT-5.5, GPT-4o"))
    assert md == ":small[o200k\\_base]\n\n### 3,081\n\n:gray-badge[GPT\\-5\\.5, GPT\\-4o]"
    assert read_count_card(md) == ("o200k_base", "3,081")


def test_other_markdown_is_not_a_card():
    assert read_count_card("**not a count**") is None
    assert read_count_card(":small[x]\n\n### twelve") is None

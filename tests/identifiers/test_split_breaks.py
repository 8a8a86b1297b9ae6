"""Where the identifier tables may break a line: between tokens and between a name's words only."""

from __future__ import annotations

import pytest

from tokenizer_core.identifiers.view import name_html


@pytest.mark.parametrize(
    "name, html",
    [
        ("gewicht_gramm", "gewicht_<wbr>gramm"),
        ("DEFAULT_REORDER_POINT", "DEFAULT_<wbr>REORDER_<wbr>POINT"),
        ("quantityOnHand", "quantity<wbr>On<wbr>Hand"),
        ("__init__", "__<wbr>init__"),
        ("Started", "Started"),
        ("<b>x", "&lt;b&gt;x"),
    ],
)
def test_a_name_may_break_only_between_its_words(name, html):
    assert name_html(name) == html
    assert name_html(name).replace("<wbr>", "").replace("&lt;", "<").replace("&gt;", ">") == name

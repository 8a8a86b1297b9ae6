"""HTML for the coloured view: escaped, coloured by id, whitespace made visible."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import Segment
from tokenizer_core.tokenizers import escape_markdown, segments_html
from tokenizer_core.tokenizers.render import (
    token_background,
    token_class,
    token_css,
    token_hue,
    visible_whitespace,
)

ATTACKS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)",
    "&lt;already escaped&gt;",
]


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


def parse(markup: str) -> TagCollector:
    p = TagCollector()
    p.feed(markup)
    return p


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("mode", ["text", "ids"])
def test_user_text_is_escaped(attack, mode):
    tok = builtin("cl100k_base")
    markup = segments_html(tok.segments(f"x {attack} y"), mode=mode)
    parsed = parse(markup)
    assert set(parsed.tags) <= {"div", "span", "em"}
    assert {name for name, _ in parsed.attrs} <= {"class", "style", "title"}
    if mode == "text":
        assert "".join(parsed.text) == f"x {attack} y"


@given(text=st.text(max_size=60))
def test_any_text_round_trips_through_the_markup(text):
    segs = builtin("o200k_base").segments(text)
    parsed = parse(segments_html(segs))
    if text:
        assert "".join(parsed.text) == text
    assert set(parsed.tags) <= {"div", "span", "em"}


def test_same_token_same_colour_everywhere():
    tok = builtin("cl100k_base")
    markup = segments_html(tok.segments(" the cat and the dog"))
    the_id = tok.encode(" the")[0]
    colour = token_background((the_id,))
    assert markup.count(f"background:{colour}") == 2
    assert token_hue(0) == 0 and token_hue(1) == 137
    assert token_background(()) == "transparent"


def test_visible_whitespace_keeps_line_breaks():
    assert visible_whitespace("a b\tc\n") == "a⋅b→c↵\n"
    markup = segments_html(builtin("o200k_base").segments("a b\n"), show_whitespace=True)
    assert "⋅" in markup and "↵\n" in markup


def test_tooltip_has_ids_bytes_and_offsets():
    tok = builtin("cl100k_base")
    segs = tok.segments("🦜")
    titles = re.findall(r'title="([^"]*)"', segments_html(segs))
    assert len(titles) == 1
    title = html.unescape(titles[0])
    assert title.startswith("ids ") and ", ".join(map(str, segs[0].ids)) in title
    assert "f0 9f a6 9c" in title and "chars 0-1" in title


def test_ids_mode_shows_ids_not_text():
    tok = builtin("o200k_base")
    parsed = parse(segments_html(tok.segments("hello world"), mode="ids"))
    assert "".join(parsed.text).split() == ["24912", "2375"]


def test_marked_boundaries_get_a_bar_and_special_tokens_an_outline():
    segs = [Segment(0, 1, (1,), "a", b"a"), Segment(1, 2, (2,), "b", b"b", special=True)]
    markup = segments_html(segs, marked={1})
    spans = markup.split("<span")[1:]
    assert "inset 2px" not in spans[0] and "inset 2px" in spans[1]
    assert "dashed" in spans[1]


def test_empty_and_bad_mode():
    assert "empty" in segments_html([])
    with pytest.raises(ValueError, match="mode"):
        segments_html([], mode="pixels")


WJ = "\u2060"
HOSTILE_NAMES = [
    "ALICE-SECRET-BPE **bold** [x](https://evil.example)",
    "see https://evil.example/a_b?c=1 now",
    "www.evil.example",
    "HTTP://EVIL.EXAMPLE and ftp://evil.example",
    "mail bob@evil.example",
    ":red[hot] :smile: :material/home:",
    "<b>hi</b> <img src=x onerror=alert(1)> & &amp; $x^2$",
    "# heading",
    "x\n===\n- item\n1. item\n> quote\n    indented code",
    "`code` ``more`` \\ back\\slash",
    "![img](https://evil.example/a.png) | a | b |\n|---|---|",
    "~~strike~~ _em_ __strong__ ***both***",
    "3.14 ok. file.txt: done",
]


def _unescape(md: str) -> str:
    """What CommonMark shows for escaped text: `\\x` is x (x ASCII punctuation); U+2060 is invisible."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md).replace(WJ, "").replace("\u00a0", " ")


@pytest.mark.parametrize("text", HOSTILE_NAMES)
def test_escape_markdown_shows_the_text_exactly(text):
    md = escape_markdown(text)
    # every backslash escapes ASCII punctuation, so none is shown; the text comes back exactly
    assert "\\" not in re.sub(r"\\[!-/:-@\[-`{-~]", "", md)
    assert _unescape(md) == text.replace("\t", "    ")
    # no Markdown syntax is left unescaped
    bare = re.sub(r"\\.", "", md)
    assert not set(bare) & set("*_[]()<>`#|~$!&-+=\\")
    # nothing Streamlit would turn into a link or an icon, escapes or not
    plain = md.replace("\\", "")
    assert not re.search(r"(?i)[a-z]+://|www\.|\w@|@\w|:[a-z_/]+:", plain)
    assert not re.search(r"(?m)^ {4}", md)  # no indented code block


def test_escape_markdown_examples():
    assert escape_markdown("**bold** [x](http://a) <b>") == (
        f"\\*\\*bold\\*\\* \\[x\\]\\(http:{WJ}//a\\) \\<b\\>"
    )
    assert escape_markdown("a.b end. www.x") == f"a\\.b end\\. www{WJ}\\.x"
    assert escape_markdown("plain words") == "plain words"


def test_markdown_code_spans_show_text_literally():
    from tokenizer_core.tokenizers import markdown_code

    assert markdown_code("get_user_by_id") == "`get_user_by_id`"  # no backslashes inside code
    assert markdown_code("low</w>") == "`low</w>`"
    assert markdown_code("a`b") == "``a`b``"
    assert markdown_code("`x") == "`` `x ``"
    assert markdown_code("two\nlines") == "`two lines`"


def test_token_classes_share_one_stylesheet():
    assert token_class([1]) == f"tw-tok h{token_hue(1)}" and token_class([]) == "tw-tok"
    css = token_css([token_hue(1), token_hue(1), 0])
    assert css.count("<style>") == 1 and css.count("background:hsl") == 2
    assert f"hsl({token_hue(1)} 75% 84%)" in css and "white-space:pre" in css

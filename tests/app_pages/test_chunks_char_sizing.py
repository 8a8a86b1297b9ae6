"""The chunk previewer shows the documents' common mistake on the document: a cut every
4 x budget characters, with the chunks that go over the token budget marked."""

from __future__ import annotations

from tests.app_pages.test_chunks import set_text
from tests.chunking.test_char_sizing import HINDI
from tests.conftest import builtin

PAGE = "app_pages/chunks.py"


def test_a_hindi_document_cut_in_characters_goes_over(page):
    set_text(page, HINDI)
    expander = next(e for e in page.expander if e.label == "The common mistake: chunks sized in characters")
    (box,) = [w for w in expander.warning]
    size = 128  # the page's default chunk size and tokenizer (cl100k_base), as test_chunks.py uses
    pieces = [HINDI[i : i + 4 * size] for i in range(0, len(HINDI), 4 * size)]
    tok = builtin("cl100k_base")
    over = sum(tok.count(p) > size for p in pieces)
    assert over > 0
    assert f"{over:,} of {len(pieces):,} chunks go over {size:,} tokens" in box.value

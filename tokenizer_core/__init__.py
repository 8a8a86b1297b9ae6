"""Tokenizer Workbench core: real tokenizers, counting, BPE, identifiers, languages, chunking.

Importable from a notebook; never imports Streamlit. One package per feature, on one base:

* `tokenizers`: the shared base (registry, engines, vocabulary files, patterns, segments,
  token HTML, text input). Every feature builds on it; it imports no feature.
* `counter`: counts, chat formats, share links.  `pricing`: prices (from a pinned offline source) and costs,
  used by the counter's page and by `languages`.
* `bpe`: the BPE playground.  `identifiers`: code identifiers and the greedy teaching tokenizer.
* `languages`: language premiums.  `chunking`: the chunk previewer.

Each package's `charts` module (Altair) is imported on its own, never from here. Everything a
package lists in its `__all__` is also importable from here:

    >>> from tokenizer_core import load_builtin
    >>> load_builtin("cl100k_base").encode("hello world")
    [15339, 1917]
"""

from . import bpe, chunking, counter, identifiers, languages, pricing, tokenizers
from .bpe import *  # noqa: F403
from .chunking import *  # noqa: F403
from .counter import *  # noqa: F403
from .identifiers import *  # noqa: F403
from .languages import *  # noqa: F403
from .pricing import *  # noqa: F403
from .tokenizers import *  # noqa: F403

__all__ = [
    *tokenizers.__all__,
    *counter.__all__,
    *pricing.__all__,
    *bpe.__all__,
    *identifiers.__all__,
    *languages.__all__,
    *chunking.__all__,
]

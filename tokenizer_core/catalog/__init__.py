"""The model catalog and prices: a base that the workspace and the language page share.

* `entries`: the models teams use, by their makers' names, one line each (tokenizer, chat
  format, price reference); `choices`: what a pick resolves to, grouped by the tokenizer that
  counts it.
* `source`: the pinned `genai-prices` package's bundled data (never updated over the network),
  read by price reference (``"openai:gpt-5.5"``) for a date and a rate option (standard, batch...).
* `rates`: prices per million tokens, long-prompt tiers, the exact cost of one request.
* `prices`: a model's price in the app (the source's, with the user's edits on top), the
  editor's rows; `windows`: the one rule for a model's context window.
* `images`: an image's size from its header, the images in a request's content parts, and the
  tokens an image costs on each model by its maker's documented rule.
* `lookup`: a model or tokenizer by name -> its tokenizer and chat format (``tokenizer_for``),
  so every call that takes a tokenizer also takes a name.

It builds on `tokenizers` only and imports no feature: chat formats are the workspace's, what
a workload costs in each language is the language page's (`tokenizer_core.languages.costs`).
"""

from .entries import MODELS
from .lookup import tokenizer_for
from .prices import PriceError, PriceTable

__all__ = ["MODELS", "PriceError", "PriceTable", "tokenizer_for"]

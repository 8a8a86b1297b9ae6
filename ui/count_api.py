"""Counts for the text box while the user types, without waiting for a rerun.

Streamlit answers a keystroke with a rerun, and the browser then draws the whole page three
times over (docs/benchmarks.md, "Why the rest costs a keystroke"): on the prompt workspace that
is most of the time from a pause in typing to new counts. So on a pause the box first asks this
server for the counts of its text (``POST /api/counts``) and writes them on the count cards,
then sends the text for the rerun, which draws them again with everything else.

The answer is what the rerun draws: the same call (`ui.counting.counts`, whose shared tier serves
every session), so the rerun then finds it counted. Only built-in tokenizers (a session's own
live in its session state, which a request does not reach) and texts the box counts as you type
(`LIVE_LIMIT`). The counting runs in threads of its own, never on the server's event loop.

Served by `streamlit run streamlit_app.py`, which finds the ``app`` that file makes (`st.App`).
A server started another way has no such route: the box then waits for the rerun, as before.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

MAX_TOKENIZERS = 16  # more than the model picker lets a page choose
MAX_WINDOW = 100_000_000  # tokens of a context window: the most a share link or the page takes
_MAX_DIGITS = 12  # of any number in a request: a window has at most 9
PATH = "/api/counts"
# Two threads: a count of up to LIVE_LIMIT characters takes milliseconds; more would only queue
# for the interpreter the sessions' reruns share.
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tw-count")


def count_url() -> str:
    """Where the page finds the route (under the server's base URL path, if it has one)."""
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{PATH}" if base else PATH


class _TooLong(ValueError):
    """A number in a request with more digits than any the page sends."""


def _short_int(digits: str) -> int:
    """A JSON integer, read only when it is short: Python refuses more than 4,300 digits with a
    message about its own settings, and converting thousands of digits is work for nothing."""
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise _TooLong(digits[:20])
    return int(digits)


def parse_request(body: bytes, *, max_chars: int) -> tuple[str, tuple[str, ...], int, bool]:
    """The text, the tokenizer ids, the context window and `allow_special` of a request; a
    ValueError says what is wrong with it.

    ``parse_request(b'{"text": "hi", "ids": ["o200k_base"], "window": 8192, "special": false}',
    max_chars=30_000) -> ("hi", ("o200k_base",), 8192, False)``
    """
    from tokenizer_core import BUILTINS
    from tokenizer_core.tokenizers import clean_text

    if len(body) > 4 * max_chars + 4096:  # UTF-8 is at most 4 bytes a character
        raise ValueError("the text is longer than the box counts as you type")
    try:
        data: Any = json.loads(body, parse_int=_short_int)
    except _TooLong:
        raise ValueError(
            f"a number in the request is longer than any the page sends (window: 1 to {MAX_WINDOW:,} tokens)"
        ) from None
    except (UnicodeDecodeError, ValueError):  # json.JSONDecodeError is a ValueError
        raise ValueError("not a JSON request") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    text, ids, window, special = data.get("text"), data.get("ids"), data.get("window"), data.get("special")
    if not isinstance(text, str) or len(text) > max_chars:
        raise ValueError("the text is missing or longer than the box counts as you type")
    if not isinstance(ids, list) or not 0 < len(ids) <= MAX_TOKENIZERS:
        raise ValueError(f"ids: a list of 1 to {MAX_TOKENIZERS} built-in tokenizer ids")
    if not all(isinstance(i, str) and i in BUILTINS for i in ids):
        raise ValueError("ids: built-in tokenizers only")
    if isinstance(window, bool) or not isinstance(window, int) or not 0 < window <= MAX_WINDOW:
        raise ValueError(f"window: a whole number of tokens from 1 to {MAX_WINDOW:,}")
    if not isinstance(special, bool):
        raise ValueError("special: true or false")
    return clean_text(text), tuple(ids), window, special  # half an emoji: U+FFFD, as the box's rerun


def _count(text: str, ids: tuple[str, ...], window: int, allow_special: bool) -> list[int]:
    # Imported here, not above: this module is imported when the server starts, before
    # Streamlit's runtime exists, and these modules make components and caches.
    from ui.counting import counts
    from ui.state import builtin_tokenizer

    rows = counts(text, [builtin_tokenizer(i) for i in ids], special=allow_special, window=window, where=None)
    return [r.tokens for r in rows or ()]


async def counts(request: Request) -> Response:
    """``POST {"text", "ids", "window", "special"}`` -> ``{"tokens": [n, ...]}`` (in the order of
    `ids`); 400 with ``{"error"}`` for a request it cannot answer."""
    from tokenizer_core import TokenizerUnavailable
    from ui.live_text import LIVE_LIMIT

    try:
        text, ids, window, special = parse_request(await request.body(), max_chars=LIVE_LIMIT)
    except ValueError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    try:
        tokens = await asyncio.get_running_loop().run_in_executor(_POOL, _count, text, ids, window, special)
    except TokenizerUnavailable as exc:  # a tokenizer this server cannot load: the rerun says why
        return JSONResponse({"error": str(exc)}, status_code=503)
    return JSONResponse({"tokens": tokens}, headers={"Cache-Control": "no-store"})


def routes() -> list[Route]:
    return [Route(count_url(), counts, methods=["POST"])]

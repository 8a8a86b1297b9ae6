"""Shareable links: the counter's settings (and short texts) as URL query parameters.

Text travels as ``z`` = base64url(zlib(UTF-8)) so newlines, emoji and HTML survive any URL
handling and the link stays short. Reading is forgiving: a damaged or unknown parameter is
dropped with a warning, never an exception, and every value is checked where it enters
(tokenizer_core.workspace.intake): nothing unchecked reaches the page.

A link must pass the proxies in front of the app: nginx reads a request line (and each header,
such as the Referer that repeats the address) into a buffer of 8 KB by default, and the app's
own server (uvicorn's h11) refuses a request head still incomplete past 16 KB, as a head that
arrives in network-sized pieces is. So the whole query stays within
``MAX_LINK_CHARS``; what does not fit is left out, most important first kept, and the page says
what was left out.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from ..tokenizers import clean_text, some_of
from .cost_inputs import CostInputs, costs_from_params, costs_to_params
from .intake import read_messages, read_versions, tools_problem
from .limits import JSONInputError, load_json, shown
from .versions import PromptVersion

# UTF-8 bytes of each text carried (the text, the chat, the tools, the versions)
MAX_SHARED_TEXT_BYTES = 4_000
# characters of the whole query: under nginx's 8 KB with the address and "GET /? HTTP/1.1"
MAX_LINK_CHARS = 7_000
# characters of it for the models (~150 of the catalog's ids): the rest is for the texts
MAX_MODELS_CHARS = MAX_LINK_CHARS // 2
VIEW_MODES = ("text", "ids", "hide")
PROMPT_MODES = ("text", "chat")
CHAT_ROLES = ("system", "developer", "user", "assistant")
# What each packed parameter carries, in the words the page uses.
PACKED = {"z": "the text", "zs": "the chat's system message", "zm": "the chat", "zt": "the tools",
          "zv": "the saved versions", "tok": "some of the models"}  # fmt: skip
# The link also says what it left out (``cut=z,zv``), so that the page it opens says so at its top.
CUT = "cut"
_CUT_ROOM = len("&cut=") + len("%2C".join(PACKED))  # kept free in the link for that parameter


@dataclass
class ShareState:
    tokenizers: list[str] = field(default_factory=list)
    text: str | None = None
    view: str | None = None
    context_window: int | None = None
    whitespace: bool | None = None
    allow_special: bool | None = None
    chat: bool | None = None
    system: str | None = None
    mode: str | None = None
    messages: list[tuple[str, str]] | None = None
    tools: str | None = None
    versions: list[PromptVersion] | None = None
    costs: dict[str, int | str] = field(default_factory=dict)  # CostInputs fields the link sets
    left_out: list[str] = field(default_factory=list)  # what the sender's link could not carry (PACKED words)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ShareLink:
    """A link's query parameters, and what was left out of it: (parameter, why) pairs."""

    params: dict[str, str]
    left_out: tuple[tuple[str, str], ...] = ()


def pack_text(text: str) -> str:
    """``pack_text("hi") -> "eJzLyAQAAVIA1Q"`` (base64url of zlib, no padding).

    A lone surrogate (half an emoji, which a browser can send) is kept as its 3 bytes, so the
    text comes back exactly as it was.
    """
    raw = zlib.compress(text.encode("utf-8", "surrogatepass"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def unpack_text(packed: str) -> str:
    """Inverse of pack_text (a lone surrogate comes back as U+FFFD); raises ValueError for
    anything damaged or longer than the app packs."""
    try:
        raw = base64.b64decode(packed + "=" * (-len(packed) % 4), altchars=b"-_", validate=True)
        # cap the output so a crafted link cannot blow up memory
        d = zlib.decompressobj()
        data = d.decompress(raw, MAX_SHARED_TEXT_BYTES)
        if d.unconsumed_tail and d.decompress(d.unconsumed_tail, 1):
            raise ValueError("the shared text is too long")
        if not d.eof:  # empty or cut short: a link copied in part
            raise ValueError("the shared text is damaged (it ends early: the link was copied in part)")
        # half an emoji (a lone surrogate) read back as U+FFFD, as every tokenizer reads it: a
        # string holding one cannot be hashed by the page's caches
        return clean_text(data.decode("utf-8", "surrogatepass"))
    except binascii.Error:
        raise ValueError(
            "the shared text is damaged (it holds characters a link's text never has, or it was cut short)"
        ) from None
    except zlib.error:
        raise ValueError(
            "the shared text is damaged (it does not unpack: the link was changed or cut)"
        ) from None
    except UnicodeDecodeError:
        raise ValueError("the shared text is damaged (it unpacks to something that is not text)") from None


def _fits(text: str) -> bool:
    return len(text.encode("utf-8", "surrogatepass")) <= MAX_SHARED_TEXT_BYTES


def share_link(
    *,
    tokenizers: Sequence[str],
    text: str,
    view: str,
    context_window: int,
    whitespace: bool,
    allow_special: bool,
    chat: bool = False,
    system: str = "",
    mode: str = "text",
    messages: Sequence[tuple[str, str]] = (),
    tools: str = "",
    versions: Sequence[dict] = (),
    costs: CostInputs | None = None,
) -> ShareLink:
    """Query parameters for a link that reproduces the view, and what had to be left out.

    Each text (the text, the chat, the tools, the versions) is carried up to
    MAX_SHARED_TEXT_BYTES of UTF-8, and the whole query up to MAX_LINK_CHARS: the prompt of
    the current mode first, then the saved versions, then the rest. The models take up to
    MAX_MODELS_CHARS of it (the first chosen kept). The cost inputs that differ from the page's
    defaults come along (``out``, ``cached``, ``req``, ``rate``); what was left out is named in
    ``cut`` so that the page the link opens says so.
    """
    left_out = []
    kept = list(tokenizers)
    while len(kept) > 1 and len(urlencode({"tok": ",".join(kept)})) > MAX_MODELS_CHARS:
        kept.pop()  # the first chosen are kept
    if len(kept) < len(tokenizers):
        left_out.append(
            ("tok", f"the last {len(tokenizers) - len(kept)} of {len(tokenizers)}: too many for a link")
        )
    params = {
        "tok": ",".join(kept),
        "view": view,
        "ctx": str(context_window),
        "ws": "1" if whitespace else "0",
        "special": "1" if allow_special else "0",
    }
    if chat:
        params["chat"] = "1"
    if mode != "text":
        params["mode"] = mode
    params.update(costs_to_params(costs or CostInputs()))
    texts = {
        "z": text,
        "zs": system if chat else "",
        "zm": json.dumps([list(m) for m in messages], ensure_ascii=False, separators=(",", ":")) if messages else "",
        "zt": tools,
        "zv": json.dumps(list(versions), ensure_ascii=False, separators=(",", ":")) if versions else "",
    }  # fmt: skip
    order = ("zm", "zt", "zs", "zv", "z") if mode == "chat" or chat else ("z", "zs", "zv", "zm", "zt")
    for key in order:
        if not texts[key]:
            continue
        if not _fits(texts[key]):
            left_out.append((key, f"longer than {MAX_SHARED_TEXT_BYTES:,} bytes"))
            continue
        packed = pack_text(texts[key])
        if len(urlencode({**params, key: packed})) > MAX_LINK_CHARS - _CUT_ROOM:
            left_out.append((key, "too long for the link together with the rest"))
            continue
        params[key] = packed
    if left_out:
        params[CUT] = ",".join(key for key, _ in left_out)
    return ShareLink(params, tuple(left_out))


def share_params(**settings: Any) -> dict[str, str]:
    """Query parameters for a link that reproduces the view (see share_link, which also says
    what was left out): ``share_params(tokenizers=["o200k_base"], text="hi", view="text",
    context_window=8192, whitespace=False, allow_special=False)["z"] -> "eJzLyAQAAVIA1Q"``"""
    return share_link(**settings).params


def _unpacked_json(packed: str, what: str) -> object:
    """The JSON value a packed parameter carries; ValueError (worded for the user) if damaged."""
    try:
        return load_json(unpack_text(packed), what=what)
    except json.JSONDecodeError:
        raise ValueError(f"the {what} are damaged (not valid JSON)") from None
    except JSONInputError as exc:
        raise ValueError(str(exc)) from None


def read_share_params(
    params: Mapping[str, str | list[str]], *, known_tokenizers: Sequence[str]
) -> ShareState:
    """Parse query parameters back into settings; problems become `warnings`, one per bad
    parameter (for the versions: one per bad field of a version)."""

    def one(key: str) -> str | None:
        value = params.get(key)
        if isinstance(value, list):
            value = value[-1] if value else None
        return value

    state = ShareState()
    warn = state.warnings.append
    if (tok := one("tok")) is not None:
        unknown = []
        for tid in filter(None, (t.strip() for t in tok.split(","))):
            if tid not in known_tokenizers:
                unknown.append(shown(tid))
            elif tid not in state.tokenizers:
                state.tokenizers.append(tid)
        if unknown:
            s = "s" * (len(unknown) != 1)
            warn(f"the link names {len(unknown):,} tokenizer{s} this app does not have: {some_of(unknown)}")
    for key, attr in (("z", "text"), ("zs", "system")):
        if (z := one(key)) is not None:
            try:
                setattr(state, attr, unpack_text(z))
            except ValueError as exc:
                warn(str(exc) if key == "z" else f"chat system message: {exc}")
    if (view := one("view")) is not None:
        if view in VIEW_MODES:
            state.view = view
        else:
            warn(f"unknown view {shown(view)} in the link")
    if (ctx := one("ctx")) is not None:
        value = int(ctx) if ctx.isascii() and ctx.isdigit() and len(ctx) <= 9 else 0
        if 0 < value <= 100_000_000:
            state.context_window = value
        else:
            warn(f"context window {shown(ctx)} in the link is not a number from 1 to 100,000,000")
    if (mode := one("mode")) is not None:
        if mode in PROMPT_MODES:
            state.mode = mode
        else:
            warn(f"unknown prompt mode {shown(mode)} in the link")
    if (zt := one("zt")) is not None:
        try:
            state.tools = unpack_text(zt)
        except ValueError as exc:
            warn(f"chat tools: {exc}")
        else:
            if problem := tools_problem(state.tools):  # kept as text, as if typed: the editor shows it
                warn(f"chat tools: {problem} They are left out of the counts until fixed.")
    if (zm := one("zm")) is not None:
        try:
            state.messages, found = read_messages(_unpacked_json(zm, "chat messages"), where="the chat")
            state.warnings += found
        except ValueError as exc:
            warn(f"chat messages: {exc}")
    if (zv := one("zv")) is not None:
        try:
            state.versions, found = read_versions(_unpacked_json(zv, "prompt versions"))
            state.warnings += found
        except ValueError as exc:
            warn(f"prompt versions: {exc}")
    state.costs, found = costs_from_params(
        {k: v for k in ("out", "cached", "req", "rate") if (v := one(k)) is not None}
    )
    state.warnings += found
    if (cut := one(CUT)) is not None:  # what the sender's link left out (unknown names are ignored)
        state.left_out = [PACKED[k] for k in dict.fromkeys(cut.split(",")) if k in PACKED]
    for key, attr in (("ws", "whitespace"), ("special", "allow_special"), ("chat", "chat")):
        if (flag := one(key)) is not None:
            if flag in ("0", "1"):
                setattr(state, attr, flag == "1")
            else:
                warn(f"{key}={shown(flag)} in the link should be 0 or 1")
    return state


def longest_link(tokenizers: Sequence[str], *, seed: int = 0) -> dict[str, str]:
    """The longest link this app makes (for checking the proxies in front of it): every
    tokenizer named (as many as a link keeps), a text and a saved version of random characters
    (which zlib cannot shorten), each as long as the link's limits allow, the text first.
    ``len(urlencode(longest_link(["o200k_base"]))) <= MAX_LINK_CHARS``
    """
    import random

    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(0x21, 0x7F)] + [chr(c) for c in range(0xA1, 0x250)]

    def noise(n_bytes: int) -> str:
        out, size = [], 0
        while size < n_bytes:
            out.append(rng.choice(alphabet))
            size += len(out[-1].encode("utf-8"))
        return "".join(out[:-1])

    text, version_text = noise(MAX_SHARED_TEXT_BYTES), noise(MAX_SHARED_TEXT_BYTES)

    def link(n_text: int, n_version: int) -> ShareLink:
        versions = [PromptVersion("v1", text=version_text[:n_version]).to_json()]
        return share_link(tokenizers=tokenizers, text=text[:n_text], view="text", context_window=100_000_000,
                          whitespace=True, allow_special=True, versions=versions)  # fmt: skip

    def longest(fits: Callable[[int], bool], most: int) -> int:
        lo, hi = 0, most  # the largest n that fits
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
        return lo

    n_text = longest(lambda n: "z" in link(n, 0).params, len(text))  # the text first, as the page keeps it
    n_version = longest(lambda n: "zv" in link(n_text, n).params, len(version_text))
    return link(n_text, n_version).params

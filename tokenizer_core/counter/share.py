"""Shareable links: the counter's settings (and short texts) as URL query parameters.

Text travels as ``z`` = base64url(zlib(UTF-8)) so newlines, emoji and HTML survive any URL
handling and the link stays short. Reading is forgiving: a damaged or unknown parameter is
dropped with a warning, never an exception.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

MAX_SHARED_TEXT_BYTES = 4_000
VIEW_MODES = ("text", "ids", "hide")
PROMPT_MODES = ("text", "chat")
CHAT_ROLES = ("system", "developer", "user", "assistant")


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
    versions: list[dict] | None = None
    warnings: list[str] = field(default_factory=list)


def pack_text(text: str) -> str:
    """``pack_text("hi") -> "eJzLyAQAAVIA1Q"`` (base64url of zlib, no padding)."""
    raw = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def unpack_text(packed: str) -> str:
    """Inverse of pack_text; raises ValueError for anything damaged."""
    try:
        raw = base64.b64decode(packed + "=" * (-len(packed) % 4), altchars=b"-_", validate=True)
        # cap the output so a crafted link cannot blow up memory
        d = zlib.decompressobj()
        data = d.decompress(raw, MAX_SHARED_TEXT_BYTES * 4)
        if d.unconsumed_tail:
            raise ValueError("the shared text is too long")
        if not d.eof:  # empty or cut short: a link copied in part
            raise ValueError("the shared text is damaged (incomplete)")
        return data.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise ValueError(f"the shared text is damaged ({type(exc).__name__})") from None


def share_params(
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
) -> dict[str, str]:
    """Query parameters for a link that reproduces the view.

    The text (and the chat request's system message) are included only up to
    MAX_SHARED_TEXT_BYTES of UTF-8 each; longer text is left out (the caller says so).
    """
    params = {
        "tok": ",".join(tokenizers),
        "view": view,
        "ctx": str(context_window),
        "ws": "1" if whitespace else "0",
        "special": "1" if allow_special else "0",
    }
    if text and len(text.encode("utf-8", "surrogatepass")) <= MAX_SHARED_TEXT_BYTES:
        params["z"] = pack_text(text)
    if chat:
        params["chat"] = "1"
        if system and len(system.encode("utf-8", "surrogatepass")) <= MAX_SHARED_TEXT_BYTES:
            params["zs"] = pack_text(system)
    if mode != "text":
        params["mode"] = mode
    for key, value in (("zm", [list(m) for m in messages]), ("zv", list(versions))):
        if value:
            raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            if len(raw.encode("utf-8", "surrogatepass")) <= MAX_SHARED_TEXT_BYTES:
                params[key] = pack_text(raw)
    if tools and len(tools.encode("utf-8", "surrogatepass")) <= MAX_SHARED_TEXT_BYTES:
        params["zt"] = pack_text(tools)
    return params


def _messages(data: object) -> list[tuple[str, str]]:
    """[[role, text], ...] from a link; raises ValueError for anything else."""
    if not isinstance(data, list):
        raise ValueError("the chat messages are damaged")
    out = []
    for item in data:
        if (not isinstance(item, list) or len(item) != 2 or item[0] not in CHAT_ROLES
                or not isinstance(item[1], str)):  # fmt: skip
            raise ValueError("the chat messages are damaged")
        out.append((item[0], item[1]))
    return out


def read_share_params(
    params: Mapping[str, str | list[str]], *, known_tokenizers: Sequence[str]
) -> ShareState:
    """Parse query parameters back into settings; problems become `warnings`."""

    def one(key: str) -> str | None:
        value = params.get(key)
        if isinstance(value, list):
            value = value[-1] if value else None
        return value

    state = ShareState()
    if (tok := one("tok")) is not None:
        for tid in filter(None, (t.strip() for t in tok.split(","))):
            if tid in known_tokenizers:
                if tid not in state.tokenizers:
                    state.tokenizers.append(tid)
            else:
                state.warnings.append(f"the link names a tokenizer this app does not have: {tid!r}")
    for key, attr in (("z", "text"), ("zs", "system")):
        if (z := one(key)) is not None:
            try:
                setattr(state, attr, unpack_text(z))
            except ValueError as exc:
                state.warnings.append(str(exc) if key == "z" else f"chat system message: {exc}")
    if (view := one("view")) is not None:
        if view in VIEW_MODES:
            state.view = view
        else:
            state.warnings.append(f"unknown view {view!r} in the link")
    if (ctx := one("ctx")) is not None:
        try:
            value = int(ctx)
            if not 0 < value <= 100_000_000:
                raise ValueError
            state.context_window = value
        except ValueError:
            state.warnings.append(f"context window {ctx!r} in the link is not a positive number")
    if (mode := one("mode")) is not None:
        if mode in PROMPT_MODES:
            state.mode = mode
        else:
            state.warnings.append(f"unknown prompt mode {mode!r} in the link")
    if (zt := one("zt")) is not None:
        try:
            state.tools = unpack_text(zt)
        except ValueError as exc:
            state.warnings.append(f"chat tools: {exc}")
    if (zm := one("zm")) is not None:
        try:
            state.messages = _messages(json.loads(unpack_text(zm)))
        except ValueError as exc:
            state.warnings.append(f"chat messages: {exc}")
    if (zv := one("zv")) is not None:
        try:
            versions = json.loads(unpack_text(zv))
            if not isinstance(versions, list) or not all(isinstance(v, dict) for v in versions):
                raise ValueError("the prompt versions are damaged")
            state.versions = versions
        except ValueError as exc:
            state.warnings.append(f"prompt versions: {exc}")
    for key, attr in (("ws", "whitespace"), ("special", "allow_special"), ("chat", "chat")):
        if (flag := one(key)) is not None:
            if flag in ("0", "1"):
                setattr(state, attr, flag == "1")
            else:
                state.warnings.append(f"{key}={flag!r} in the link should be 0 or 1")
    return state

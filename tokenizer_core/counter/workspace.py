"""Prompt versions compared, and the workspace file that keeps them.

A version is a text or a chat (messages and tools). Versions are compared per model: the tokens
of each (the text alone, or the whole request in the model's chat format), the difference, and a
word-level diff of the text with the tokens each changed region adds or saves.

The workspace file is versioned JSON like the BPE model file:

    {"format": "tokenizer-workbench/workspace", "version": 1, "models": ["gpt-4o", ...],
     "mode": "chat", "text": "...", "messages": [["system", "..."], ...], "tools": "[...]",
     "versions": [{"name": "v1", "kind": "text", "text": "...", "messages": [], "tools": ""}, ...],
     "prices": {"rate": "standard", "edits": [{"model": "gpt-5.5", "rate": "standard", "input": "4"}]}}

"prices" (the user's edited prices, per model and rate option, USD per million tokens as decimal
strings) is optional: files saved before it existed load with the source's prices.
"""

from __future__ import annotations

import difflib
import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..pricing.source import RATE_OPTIONS
from ..pricing.table import Edits, PriceError, edits_from_json, edits_to_json
from ..tokenizers.encoders import Tokenizer
from ..tokenizers.textio import InputError, read_json_file
from .chat import CHAT_FORMATS, ChatRenderError, Message, count_request, parse_tools

FORMAT = "tokenizer-workbench/workspace"
VERSION = 1
MAX_FILE_BYTES = 5_000_000
KINDS = ("text", "chat")
ROLES = ("system", "developer", "user", "assistant")


class WorkspaceError(InputError):
    """A workspace file the app cannot read; the message says what is wrong and where."""


@dataclass(frozen=True)
class PromptVersion:
    """One version of a prompt: a text, or a chat (messages as (role, text) pairs, tools as JSON)."""

    name: str
    kind: str = "text"
    text: str = ""
    messages: tuple[tuple[str, str], ...] = ()
    tools: str = ""

    def as_text(self) -> str:
        """What the diff compares: the text, or each message as "[role]" then its text."""
        if self.kind == "text":
            return self.text
        body = "\n\n".join(f"[{role}]\n{content}" for role, content in self.messages)
        return body + (f"\n\n[tools]\n{self.tools.strip()}" if self.tools.strip() else "")

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "text": self.text,
                "messages": [list(m) for m in self.messages], "tools": self.tools}  # fmt: skip


def version_tokens(version: PromptVersion, tokenizer: Tokenizer, chat_format: str | None) -> int | None:
    """Tokens of a version for one model: a text alone, or the whole chat request in the model's
    chat format (None when the request cannot be counted for it)."""
    if version.kind == "text":
        return tokenizer.count(version.text)
    if chat_format is None:
        return None
    try:
        tools = parse_tools(version.tools)
    except ValueError:
        tools = []
    msgs = [Message(r, c) for r, c in version.messages]
    try:
        return count_request(tokenizer, CHAT_FORMATS[chat_format], msgs, tools).total
    except ChatRenderError:
        return None


_WORDS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class DiffRegion:
    """A piece of the diff: kept ("equal"), or changed ("replace", "delete", "insert")."""

    tag: str
    old: str
    new: str
    tokens: int = 0  # tokens the change adds (negative: saves), counted on the region's texts alone


def diff_regions(old: str, new: str, tokenizer: Tokenizer | None = None) -> list[DiffRegion]:
    """Word-level diff of two texts; with a tokenizer, each changed region's token difference.

    ``[r.tag for r in diff_regions("a big cat", "a cat")] -> ["equal", "delete", "equal"]``
    """
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    out: list[DiffRegion] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        o, n = "".join(a[i1:i2]), "".join(b[j1:j2])
        delta = tokenizer.count(n) - tokenizer.count(o) if tokenizer and tag != "equal" else 0
        out.append(DiffRegion(tag, o, n, delta))
    return out


def diff_html(regions: Sequence[DiffRegion], *, context: int = 80) -> str:
    """The diff as escaped HTML: removed text struck through in red, added text in green, each
    change with its token difference; long unchanged stretches shortened to `context` characters."""
    esc = html.escape
    parts = ['<div class="tw-diff" style="font-family:monospace;white-space:pre-wrap;line-height:1.7;'
             'padding:0.6rem;border:1px solid rgba(128,128,128,.35);border-radius:0.5rem">']  # fmt: skip
    for r in regions:
        if r.tag == "equal":
            t = r.old
            if len(t) > 2 * context:
                t = t[:context] + " … " + t[-context:]
            parts.append(esc(t))
            continue
        if r.old:
            parts.append(
                f'<del style="background:rgba(255,80,80,.25);text-decoration:line-through">{esc(r.old)}</del>'
            )
        if r.new:
            parts.append(
                f'<ins style="background:rgba(60,200,90,.25);text-decoration:none">{esc(r.new)}</ins>'
            )
        sign = f"{r.tokens:+d}" if r.tokens else "±0"
        parts.append(f'<sup style="font-size:0.7em;opacity:0.8;margin:0 0.15em">{sign}</sup>')
    parts.append("</div>")
    return "".join(parts)


@dataclass
class Workspace:
    """What a workspace file holds."""

    models: list[str] = field(default_factory=list)
    mode: str = "text"
    text: str = ""
    messages: list[tuple[str, str]] = field(default_factory=list)
    tools: str = ""
    versions: list[PromptVersion] = field(default_factory=list)
    price_edits: Edits = field(default_factory=dict)
    price_rate: str | None = "standard"  # None: the file has no prices (saved before they were kept)


def save_workspace(ws: Workspace) -> str:
    """The workspace as JSON text: ``json.loads(save_workspace(Workspace()))["version"] == 1``."""
    doc = {
        "format": FORMAT, "version": VERSION, "models": ws.models, "mode": ws.mode, "text": ws.text,
        "messages": [list(m) for m in ws.messages], "tools": ws.tools, "versions": [v.to_json() for v in ws.versions],
        "prices": {"rate": ws.price_rate or "standard", "edits": edits_to_json(ws.price_edits)},
    }  # fmt: skip
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _str(doc: dict, key: str, where: str) -> str:
    value = doc.get(key, "")
    if not isinstance(value, str):
        raise WorkspaceError(f'{where}: "{key}" must be text')
    return value


def _messages(value: object, where: str) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        raise WorkspaceError(f'{where}: "messages" must be a list of [role, text] pairs')
    out = []
    for n, m in enumerate(value, start=1):
        if not (isinstance(m, list) and len(m) == 2 and isinstance(m[1], str)):
            raise WorkspaceError(f"{where}, message {n}: expected [role, text]")
        if m[0] not in ROLES:
            raise WorkspaceError(
                f"{where}, message {n}: unknown role {m[0]!r}; use one of {', '.join(ROLES)}"
            )
        out.append((m[0], m[1]))
    return out


def version_from_json(v: object, where: str) -> PromptVersion:
    """One version from its JSON object (a file or a link); raises WorkspaceError."""
    if not isinstance(v, dict):
        raise WorkspaceError(f"{where} is not an object")
    kind = v.get("kind", "text")
    if kind not in KINDS:
        raise WorkspaceError(f'{where}: "kind" must be "text" or "chat", not {kind!r}')
    name = _str(v, "name", where).strip() or where
    return PromptVersion(name, kind, _str(v, "text", where), tuple(_messages(v.get("messages", []), where)),
                         _str(v, "tools", where))  # fmt: skip


def load_workspace(data: bytes | str, *, known_models: Sequence[str]) -> tuple[Workspace, list[str]]:
    """Read a workspace file; returns it and notes (e.g. models this app does not have, skipped).

    Raises WorkspaceError saying what is wrong and where; nothing is partly loaded.
    """
    doc = read_json_file(data, max_bytes=MAX_FILE_BYTES, error=WorkspaceError, kind="a .json workspace file")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise WorkspaceError(f'not a workspace file saved by this app (expected "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise WorkspaceError('the file has no valid "version" number')
    if version > VERSION:
        raise WorkspaceError(
            f"the file is format version {version}; this app reads version {VERSION}: update the app"
        )
    mode = doc.get("mode", "text")
    if mode not in KINDS:
        raise WorkspaceError(f'"mode" must be "text" or "chat", not {mode!r}')
    models = doc.get("models", [])
    if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
        raise WorkspaceError('"models" must be a list of model or tokenizer names')
    notes = [
        f"the file names a model this app does not have: {m!r} (skipped)"
        for m in models
        if m not in known_models
    ]
    raw_versions = doc.get("versions", [])
    if not isinstance(raw_versions, list):
        raise WorkspaceError('"versions" must be a list')
    versions = [version_from_json(v, f"version {n}") for n, v in enumerate(raw_versions, start=1)]
    edits, rate, price_notes = _prices(doc.get("prices"))
    notes += price_notes
    ws = Workspace(
        models=[m for m in models if m in known_models], mode=mode, text=_str(doc, "text", "the file"),
        messages=_messages(doc.get("messages", []), "the file"), tools=_str(doc, "tools", "the file"),
        versions=versions, price_edits=edits, price_rate=rate,
    )  # fmt: skip
    return ws, notes


def _prices(value: object) -> tuple[Edits, str | None, list[str]]:
    """The file's edited prices and rate option (rate None: a file saved before prices were kept)."""
    if value is None:
        return {}, None, []
    if not isinstance(value, dict):
        raise WorkspaceError('"prices" must be an object with "rate" and "edits"')
    rate = value.get("rate", "standard")
    notes = []
    if rate not in RATE_OPTIONS:
        notes.append(
            f"the file's price rate {str(rate)[:40]!r} is not one this app offers: standard prices used"
        )
        rate = "standard"
    try:
        edits = edits_from_json(value.get("edits", []), where='"prices"')
    except PriceError as exc:
        raise WorkspaceError(str(exc)) from None
    if unknown := sorted({r for _, r in edits} - set(RATE_OPTIONS)):
        notes.append(
            f"edited prices for a rate this app does not offer ({', '.join(unknown)}) are kept but unused"
        )
    return edits, rate, notes


__all__ = [
    "FORMAT", "VERSION", "DiffRegion", "PromptVersion", "Workspace", "WorkspaceError", "diff_html", "diff_regions",
    "load_workspace", "save_workspace", "version_from_json", "version_tokens",
]  # fmt: skip

"""The workspace file: the prompt (text or chat and tools), its saved versions and the models.

Versioned JSON like the BPE model file:

    {"format": "tokenizer-workbench/workspace", "version": 1, "models": ["gpt-4o", ...],
     "mode": "chat", "text": "...", "messages": [["system", "..."], ...], "tools": "[...]",
     "versions": [{"name": "v1", "kind": "text", "text": "...", "messages": [], "tools": ""}, ...],
     "prices": {"rate": "standard", "edits": [{"model": "gpt-5.5", "rate": "standard", "input": "4"}]},
     "costs": {"output_tokens": 300, "cached_tokens": 0, "requests": 1000}}

"prices" (the user's edited prices, per model and rate option, USD per million tokens as decimal
strings) is optional: files saved before it existed load with the source's prices. "costs" (the
cost inputs: whole numbers, see `cost_inputs`) is optional too: a file saved before it existed
leaves the page's cost inputs as they are, and an app that predates it ignores it. So is "images"
(the chat's images as ``[message, name, width, height, format, detail]``: their sizes, never the
image files; `images.ChatImage`).

A file that is not a workspace file (or a newer format) is refused whole; in a workspace file,
every value is checked as it is read (tokenizer_core.workspace.intake) and what fails is left out
with a note naming it. Versions themselves are in `versions`, their diff in `diff`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..catalog.prices import Edits, PriceError, edits_from_json, edits_to_json
from ..catalog.source import RATE_OPTIONS
from ..tokenizers import some_of
from ..tokenizers.textio import InputError, read_json_file
from .cost_inputs import COUNT_FIELDS, read_cost_inputs
from .diff import DiffRegion, diff_html, diff_regions
from .images import ChatImage, read_images
from .intake import read_messages, read_versions, tools_problem
from .limits import MAX_DEPTH, nesting_depth, no_lone_surrogates, shown, too_deep_message
from .versions import KINDS, PromptVersion, version_tokens

FORMAT = "tokenizer-workbench/workspace"
VERSION = 1
MAX_FILE_BYTES = 5_000_000


class WorkspaceError(InputError):
    """A workspace file the app cannot read; the message says what is wrong and where."""


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
    costs: dict[str, int] = field(default_factory=dict)  # cost inputs (COUNT_FIELDS); {}: none in the file
    images: list[ChatImage] = field(default_factory=list)  # the chat's images (sizes, not files)


_SURROGATE = re.compile("[\ud800-\udfff]")


def save_workspace(ws: Workspace) -> str:
    """The workspace as JSON text: ``json.loads(save_workspace(Workspace()))["version"] == 1``.

    A lone surrogate (half an emoji, which a browser can send) is written as its \\u escape, so
    the file is valid UTF-8 and reads back the same.
    """
    doc = {
        "format": FORMAT, "version": VERSION, "models": ws.models, "mode": ws.mode, "text": ws.text,
        "messages": [list(m) for m in ws.messages], "tools": ws.tools, "versions": [v.to_json() for v in ws.versions],
        "prices": {"rate": ws.price_rate or "standard", "edits": edits_to_json(ws.price_edits)},
        **({"costs": {f: ws.costs[f] for f in COUNT_FIELDS if f in ws.costs}} if ws.costs else {}),
        **({"images": [img.to_json() for img in ws.images]} if ws.images else {}),
    }  # fmt: skip
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _text_field(doc: dict, key: str, notes: list[str]) -> str:
    value = doc.get(key, "")
    if isinstance(value, str):
        return value
    notes.append(f'"{key}" left out: it must be text, not {shown(value)}')
    return ""


def load_workspace(data: bytes | str, *, known_models: Sequence[str]) -> tuple[Workspace, list[str]]:
    """Read a workspace file; returns it and notes, one per value left out (a model this app does
    not have, a version with a bad field, messages over the cap...).

    Raises WorkspaceError, saying what is wrong, for a file that is not a workspace file of a
    version this app reads; then nothing is loaded.
    """
    doc = read_json_file(data, max_bytes=MAX_FILE_BYTES, error=WorkspaceError, kind="a .json workspace file")
    if nesting_depth(doc) > MAX_DEPTH:
        raise WorkspaceError(
            too_deep_message("file's lists and objects") + " Upload a workspace file saved by this app"
        )
    doc = no_lone_surrogates(doc)  # "\ud83d" (half an emoji) in its texts: U+FFFD, as tokenizers read it
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise WorkspaceError(f'not a workspace file saved by this app (expected "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise WorkspaceError('the file has no valid "version" number')
    if version > VERSION:
        raise WorkspaceError(
            f"the file is format version {version}; this app reads version {VERSION}: update the app"
        )
    notes: list[str] = []
    mode = doc.get("mode", "text")
    if mode not in KINDS:
        notes.append(f'"mode" left out: it must be "text" or "chat", not {shown(mode)}')
        mode = "text"
    models = doc.get("models", [])
    if not isinstance(models, list):
        notes.append(f'"models" left out: it must be a list of model or tokenizer names, not {shown(models)}')
        models = []
    known = set(known_models)
    if unknown := [shown(m) for m in models if not isinstance(m, str) or m not in known]:
        s = "s" * (len(unknown) != 1)
        notes.append(
            f"the file names {len(unknown):,} model{s} this app does not have, skipped: {some_of(unknown)}"
        )
    messages, found = read_messages(doc.get("messages", []), where="the chat")
    notes += found
    tools = _text_field(doc, "tools", notes)
    if tools and (problem := tools_problem(tools)):
        notes.append(f"the chat's tools are left out of the counts until fixed: {problem}")
    versions, found = read_versions(doc.get("versions", []))
    notes += found
    edits, rate, found = _prices(doc.get("prices"))
    notes += found
    costs: dict[str, int] = {}
    if "costs" in doc:
        read, found = read_cost_inputs(doc["costs"])
        costs = {k: v for k, v in read.items() if isinstance(v, int)}
        notes += found
    images, found = read_images(doc.get("images", []), n_messages=len(messages), where="the chat")
    notes += found
    ws = Workspace(
        models=list(dict.fromkeys(m for m in models if isinstance(m, str) and m in known)), mode=mode,
        text=_text_field(doc, "text", notes), messages=messages, tools=tools, versions=versions,
        price_edits=edits, price_rate=rate, costs=costs, images=images,
    )  # fmt: skip
    return ws, notes


def _prices(value: object) -> tuple[Edits, str | None, list[str]]:
    """The file's edited prices and rate option (rate None: a file saved before prices were kept);
    what cannot be used is left out with a note, as every other value of the file."""
    if value is None:
        return {}, None, []
    if not isinstance(value, dict):
        return (
            {},
            None,
            [f'"prices" left out: it must be an object with "rate" and "edits", not {shown(value)}'],
        )
    rate = value.get("rate", "standard")
    notes = []
    if not isinstance(rate, str) or rate not in RATE_OPTIONS:
        notes.append(f"the file's price rate {shown(rate)} is not one this app offers: standard prices used")
        rate = "standard"
    try:
        edits = edits_from_json(value.get("edits", []), where='"prices"')
    except PriceError as exc:
        notes.append(f"the edited prices are left out: {exc}")
        edits = {}
    if unknown := sorted({r for _, r in edits} - set(RATE_OPTIONS)):
        notes.append(
            f"edited prices for a rate this app does not offer ({', '.join(unknown)}) are kept but unused"
        )
    return edits, rate, notes


__all__ = [
    "FORMAT", "VERSION", "DiffRegion", "PromptVersion", "Workspace", "WorkspaceError", "diff_html", "diff_regions",
    "load_workspace", "save_workspace", "version_tokens",
]  # fmt: skip

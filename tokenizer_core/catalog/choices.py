"""What a pick resolves to: catalog models, models of the price source, and tokenizers by their
own names, grouped by the tokenizer that counts them.

    >>> [c.name for c in resolve_choices(["gpt-4o", "o200k_base"])]
    ['GPT-4o', 'o200k_base']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .entries import CATALOG, MODELS, SOURCE_PREFIX, ModelEntry, builtin_names, canonical_id, source_entry


@dataclass(frozen=True, slots=True)
class Choice:
    """A picked model or encoding, resolved to what counts it."""

    id: str
    name: str
    tokenizer_id: str | None  # None: nothing here counts it (no public tokenizer, or none chosen yet)
    model: ModelEntry | None = None
    users_tokenizer: bool = False  # counted with a tokenizer the user chose for a model the catalog lacks

    @property
    def label(self) -> str:
        return self.name

    @property
    def chat_format(self) -> str | None:
        return self.model.chat_format if self.model else None

    @property
    def counted(self) -> bool:
        return self.tokenizer_id is not None


def choice_label(
    choice_id: str,
    *,
    tokenizer_names: Mapping[str, str] | None = None,
    source_names: Mapping[str, str] | None = None,
) -> str:
    """The name a picker shows for a model id, a source model id or a tokenizer id."""
    cid = canonical_id(choice_id)
    if cid in MODELS:
        return MODELS[cid].name
    if cid.startswith(SOURCE_PREFIX):
        return (source_names or {}).get(cid, cid.removeprefix(SOURCE_PREFIX).partition(":")[2])
    return (tokenizer_names or builtin_names()).get(cid, cid)


def resolve_choices(
    choice_ids: Iterable[str],
    *,
    tokenizer_names: Mapping[str, str] | None = None,
    users_tokenizers: Mapping[str, str] | None = None,
    source_models: Mapping[str, ModelEntry] | None = None,
) -> list[Choice]:
    """Picked ids in order: catalog models, source models (``"src:..."``, counted with the tokenizer
    the user chose in `users_tokenizers`), tokenizers. Old ids are read as their current ones."""
    names = tokenizer_names or builtin_names()
    chosen = users_tokenizers or {}
    out: list[Choice] = []
    for cid in dict.fromkeys(canonical_id(i) for i in choice_ids):
        model = MODELS.get(cid)
        if model is not None:
            out.append(Choice(cid, model.name, model.tokenizer_id, model))
        elif cid.startswith(SOURCE_PREFIX):
            entry = (source_models or {}).get(cid) or source_entry(
                cid.removeprefix(SOURCE_PREFIX), name=choice_label(cid), maker=""
            )
            tok = chosen.get(cid)
            out.append(Choice(cid, entry.name, tok if tok in names else None, entry, users_tokenizer=True))
        else:
            out.append(Choice(cid, names.get(cid, cid), cid))
    return out


@dataclass(frozen=True, slots=True)
class TokenizerGroup:
    """The choices that one tokenizer counts: counted once for all of them."""

    tokenizer_id: str
    choices: tuple[Choice, ...] = field(default_factory=tuple)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.choices]

    @property
    def shared(self) -> bool:
        return len(self.choices) > 1


def group_by_tokenizer(choices: Sequence[Choice]) -> list[TokenizerGroup]:
    """One group per tokenizer, in order of first appearance (choices nothing counts are left out).

    ``[g.names for g in group_by_tokenizer(resolve_choices(["gpt-4o", "gpt-5", "gpt-4"]))]
    -> [["GPT-4o", "GPT-5"], ["GPT-4"]]``
    """
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        if c.tokenizer_id is not None:
            groups.setdefault(c.tokenizer_id, []).append(c)
    return [TokenizerGroup(tid, tuple(cs)) for tid, cs in groups.items()]


def names_by_tokenizer(choices: Sequence[Choice]) -> dict[str, str]:
    """Tokenizer id -> the picked names it counts, as the picker shows them.

    ``names_by_tokenizer(resolve_choices(["gpt-4o", "gpt-5", "llama-3.1-8b"]))
    -> {"o200k_base": "GPT-4o, GPT-5", "llama3": "Llama 3.1 8B"}``
    """
    return {g.tokenizer_id: ", ".join(g.names) for g in group_by_tokenizer(choices)}


def shared_tokenizer_note(groups: Sequence[TokenizerGroup], *, tokenizer_names: Mapping[str, str]) -> str:
    """A sentence for the page when some choices share a tokenizer, else ``""``."""
    parts = []
    for g in groups:
        if not g.shared:
            continue
        tok = tokenizer_names.get(g.tokenizer_id, g.tokenizer_id)
        names = [n for n in g.names if n != tok]
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        parts.append(f"{listed} {'use' if len(names) > 1 else 'uses'} {tok}")
    return ("; ".join(parts) + ": counted once.") if parts else ""


def picker_options(tokenizer_ids: Sequence[str]) -> list[str]:
    """Catalog models whose tokenizer is available (and those without a public one), then the
    tokenizers (encodings) themselves."""
    have = set(tokenizer_ids)
    return [m.id for m in CATALOG if m.tokenizer_id is None or m.tokenizer_id in have] + list(tokenizer_ids)


__all__ = [
    "Choice", "TokenizerGroup", "choice_label", "group_by_tokenizer", "names_by_tokenizer", "picker_options",
    "resolve_choices", "shared_tokenizer_note",
]  # fmt: skip

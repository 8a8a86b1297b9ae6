"""The prompt: a text or a chat request (the mode), its editor, and what each chosen model counts
in it."""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from tokenizer_core import CountRow, Tokenizer
from tokenizer_core.catalog.choices import Choice, TokenizerGroup, names_by_tokenizer
from tokenizer_core.tokenizers import load_sample
from tokenizer_core.workspace.chat import Message
from tokenizer_core.workspace.counting import with_windows
from tokenizer_core.workspace.versions import PromptVersion

from ..widgets import text_entry, text_source_controls, working_tokenizers
from .chat_editor import chat_editor, current_messages, current_tools
from .chat_view import message_labels, request_counts, request_section
from .counts import count_cards, count_rows, live_count_spec

SAMPLES = {
    "Mixed: prose, code, numbers, emoji, Hindi": lambda: load_sample("mixed"),
    "Support reply (English prose)": lambda: load_sample("prose"),
    "Python code": lambda: load_sample("python"),
    "JSON order": lambda: load_sample("json"),
}
PROMPT_MODES = {"text": "Text", "chat": "Chat request"}
WORKSPACE = "counter_workspace"  # the fragment that draws the workspace (app_pages/workspace.py)
NOW = "counter_prompt_now"  # this session's PromptNow


@dataclass(frozen=True)
class PromptNow:
    """What the prompt part of the page last drew, for the parts below it: they are fragments
    that rerun on their own (after a keystroke, or for a widget of theirs) and read it here."""

    mode: str = "text"
    text: str = ""
    allow_special: bool = False
    toks: list[Tokenizer] = field(default_factory=list)  # those that counted it
    counts: list[CountRow] | None = None  # text mode: the count rows
    messages: list[Message] = field(default_factory=list)  # chat mode
    tokens: dict[str, int] = field(default_factory=dict)  # each chosen model's, by choice id
    not_counted: dict[str, str] = field(default_factory=dict)  # chat mode: why a model's request is not

    @property
    def shows(self) -> tuple[str, bool]:
        """What the rest of the page depends on that typing changes."""
        return self.text, self.allow_special


def set_prompt_now(now: PromptNow) -> PromptNow:
    st.session_state[NOW] = now
    return now


def prompt_now() -> PromptNow:
    """The prompt as last drawn (an empty text before the first run drew it)."""
    now = st.session_state.get(NOW)
    return now if isinstance(now, PromptNow) else PromptNow()


def prompt_mode() -> str:
    """ "text" or "chat", the user's choice."""
    st.session_state.setdefault("counter_mode", "text")
    return st.segmented_control(
        "Prompt", list(PROMPT_MODES), format_func=PROMPT_MODES.get, key="counter_mode", persist_state="session",
        help="Text: count a text alone. Chat request: messages with roles (and tools), counted the way each "
        "model's chat format wraps them.",
    ) or "text"  # fmt: skip


def text_controls() -> None:
    """Upload a file or load a sample, above the text box."""
    text_source_controls("counter", samples=SAMPLES, default_sample=next(iter(SAMPLES)))


def text_box(toks: list[Tokenizer], window: int) -> tuple[str, bool]:
    """The text (typed, uploaded or a sample), and whether text such as <|endoftext|> counts as
    the special token (`special_toggle`). While the user types, the box asks the server for the
    counts of `toks` and shows them on the count cards before the rerun draws them."""
    allow_special = bool(st.session_state.get("counter_special"))
    spec = live_count_spec(toks, window, allow_special=allow_special)
    return text_entry("counter", height=240, live=True, live_counts=spec), allow_special


def special_toggle() -> None:
    """Whether text such as <|endoftext|> counts as the special token. Under the counts and
    outside their fragment: a keystroke's run does not draw it again, and flipping it reruns
    the workspace (counts, views and costs all change)."""
    st.toggle(
        "Count special tokens as special", key="counter_special", persist_state="session",
        help="Off: text such as <|endoftext|> is counted as ordinary text (what an API does with "
        "user content). On: it becomes the single special token the tokenizer reserves for it.",
    )  # fmt: skip


def text_counts(
    text: str, choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int,
    *, allow_special: bool,
) -> tuple[list[Tokenizer], list[CountRow] | None]:  # fmt: skip
    """A count per tokenizer (or what to do first); the tokenizers that counted the text and
    their rows (None when there are none)."""
    counts = None
    if not choices:
        st.info("Choose at least one model or tokenizer above.", icon=":material/arrow_upward:")
    elif not text:
        st.info("Paste some text, upload a file or load a sample to see its tokens.", icon=":material/edit:")
    elif (toks := working_tokenizers(toks, [text])) and (
        counts := count_rows(text, toks, window, allow_special)
    ) is not None:
        counts = with_windows(counts, groups, chosen=window)
        count_cards(counts, toks, groups)
    return toks, counts


def text_tokens(counts: list[CountRow], choices: list[Choice]) -> dict[str, int]:
    """Each chosen model's tokens in the text, by choice id."""
    by_tok = {r.tokenizer_id: r.tokens for r in counts}
    return {c.id: by_tok[c.tokenizer_id] for c in choices if c.tokenizer_id in by_tok}


def chat_request(
    choices: list[Choice], toks: dict[str, Tokenizer], window: int
) -> tuple[list[Message], list[dict]]:
    """The chat editor (a count by each message) and the whole request per model; the messages
    and the count rows."""
    messages = current_messages("counter_chat")
    tools, _ = current_tools("counter_chat")
    rows = request_counts(messages, tools, choices, toks)
    messages, tools = chat_editor(
        "counter_chat", message_tokens=message_labels(rows, len(messages), names_by_tokenizer(choices))
    )
    rows = request_counts(messages, tools, choices, toks)
    if choices and toks:
        request_section(rows, messages, tools, window, toks)
    return messages, rows


def chat_tokens(rows: list[dict], choices: list[Choice]) -> dict[str, int]:
    """Each chosen model's tokens in the whole request, by choice id."""
    totals = {(r["tokenizer_id"], r["format_id"]): r["total"] for r in rows if "total" in r}
    return {
        c.id: totals[(c.tokenizer_id, c.chat_format)]
        for c in choices
        if (c.tokenizer_id, c.chat_format) in totals
    }


def chat_not_counted(rows: list[dict], choices: list[Choice]) -> dict[str, str]:
    """Why a chosen model's request is not counted (its format cannot render it), by choice id."""
    errors = {(r["tokenizer_id"], r["format_id"]): r["error"] for r in rows if "error" in r}
    return {
        c.id: errors[(c.tokenizer_id, c.chat_format)]
        for c in choices
        if (c.tokenizer_id, c.chat_format) in errors
    }


def prompt_version(mode: str, text: str, messages: list[Message]) -> PromptVersion:
    """The prompt on the page as a version: the text, or the chat and its tools."""
    tools = st.session_state.get("counter_chat_tools", "") or ""
    pairs = tuple((m.role, m.content) for m in messages)
    return PromptVersion(
        "current", mode, text if mode == "text" else "", pairs, tools if mode == "chat" else ""
    )

"""The token counter: one text (or one chat request) counted by several tokenizers.

Data flows text -> `counting` (a :class:`CountRow` per tokenizer, plus text statistics and CSV)
or messages -> `chat` (each tokenizer's chat template around the messages -> a :class:`ChatCount`;
`harmony` renders gpt-oss's harmony format, with reasoning and tools).
`share` packs the text and settings into a link and back; `charts` draws the rows
(``tokenizer_core.counter.charts``, imported on its own so Altair loads only when drawn).
Costs in money come from the top-level `tokenizer_core.pricing`.
"""

from .chat import (
    CHAT_FORMATS,
    ChatCount,
    ChatFormat,
    ChatPart,
    chat_formats_for,
    chat_template_text,
    count_chat,
    count_chats,
)
from .counting import CONTEXT_WINDOWS, CountRow, TextStats, count_row, count_table, rows_to_csv, text_stats
from .harmony import HarmonyMessage, HarmonySystem, HarmonyTool, harmony_parts
from .share import ShareState, pack_text, read_share_params, share_params, unpack_text

__all__ = [
    "CONTEXT_WINDOWS", "CountRow", "TextStats", "count_row", "count_table", "rows_to_csv", "text_stats",
    "CHAT_FORMATS", "ChatCount", "ChatFormat", "ChatPart", "chat_formats_for", "chat_template_text",
    "count_chat", "count_chats",
    "HarmonyMessage", "HarmonySystem", "HarmonyTool", "harmony_parts",
    "ShareState", "pack_text", "read_share_params", "share_params", "unpack_text",
]  # fmt: skip

"""The prompt workspace: one text (or one chat request) counted by several tokenizers.

Data flows text -> `counting` (a :class:`CountRow` per tokenizer, plus text statistics and CSV)
or messages (+ tools) -> `chat` (each family's chat format around them -> a :class:`RequestCount`;
`formats` holds the types every format shares and the registry `chat` fills; `harmony`,
`gemma_chat`, `llama4_chat`, `mistral_spm_chat` and `gemini_rule` are single families' formats).
The models picked by their makers' names, their prices and context windows come from the shared
`tokenizer_core.catalog`.
`share` packs the text and settings into a link and back; `charts` draws the rows
(``tokenizer_core.workspace.charts``, imported on its own so Altair loads only when drawn).
"""

from .chat import (
    CHAT_FORMATS,
    ChatCount,
    ChatFormat,
    ChatPart,
    ChatRenderError,
    Message,
    RequestCount,
    ToolsError,
    chat_formats_for,
    chat_template_text,
    count_chat,
    count_chats,
    count_request,
    parse_tools,
    request_segments,
)
from .counting import CONTEXT_WINDOWS, CountRow, TextStats, count_row, count_table, rows_to_csv, text_stats
from .harmony import HarmonyMessage, HarmonySystem, HarmonyTool, harmony_parts
from .share import ShareState, pack_text, read_share_params, share_params, unpack_text

__all__ = [
    "CONTEXT_WINDOWS", "CountRow", "TextStats", "count_row", "count_table", "rows_to_csv", "text_stats",
    "CHAT_FORMATS", "ChatCount", "ChatFormat", "ChatPart", "chat_formats_for", "chat_template_text",
    "count_chat", "count_chats",
    "HarmonyMessage", "HarmonySystem", "HarmonyTool", "harmony_parts",
    "ChatRenderError", "Message", "RequestCount", "ToolsError", "count_request",
    "parse_tools", "request_segments",
    "ShareState", "pack_text", "read_share_params", "share_params", "unpack_text",
]  # fmt: skip

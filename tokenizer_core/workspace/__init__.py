"""The prompt workspace: one text (or one chat request) counted by several tokenizers.

Data flows text -> `counting` (a :class:`CountRow` per tokenizer, plus text statistics and CSV)
or messages (+ `tools`) -> `chat` (the registry of chat formats; each family's format around
them -> a :class:`RequestCount`). `formats` holds the record every format is (its renderer or
its counting rule); each family's formats have a module of their own: `openai_rule`,
`llama3_chat`, `qwen_chat`, `mistral_chat`, `harmony`, `deepseek_chat`, `gemini_rule`,
`gemma_chat`, `llama4_chat`.
The models picked by their makers' names, their prices and context windows come from the shared
`tokenizer_core.catalog`.
`share` packs the text and settings into a link and back; `charts` draws the rows
(``tokenizer_core.workspace.charts``, imported on its own so Altair loads only when drawn).
"""

from .chat import CHAT_FORMATS, ChatRenderError, Message, RequestCount, count_request
from .counting import CONTEXT_WINDOWS, CountRow, count_table, rows_to_csv
from .share import pack_text, read_share_params, unpack_text
from .tools import ToolsError

__all__ = [
    "CHAT_FORMATS",
    "ChatRenderError",
    "CONTEXT_WINDOWS",
    "count_request",
    "count_table",
    "CountRow",
    "Message",
    "pack_text",
    "read_share_params",
    "RequestCount",
    "rows_to_csv",
    "ToolsError",
    "unpack_text",
]

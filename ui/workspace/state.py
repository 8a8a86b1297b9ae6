"""The prompt workspace's page state: what the prompt part of the page last drew, one typed value
the parts below it are handed (`PAGE`, ui/fast_first.py, keeps it between their runs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tokenizer_core import CountRow, Tokenizer
from tokenizer_core.workspace.chat import Message

from ..fast_first import FastFirst

WORKSPACE = "workspace_page"  # the fragment that draws the workspace (app_pages/workspace.py)


@dataclass(frozen=True)
class WorkspaceState:
    """The prompt as the page last drew it. The parts below the prompt (the views, the cost table,
    versions, the file and the link) are fragments that rerun on their own and are handed this."""

    mode: str = "text"
    text: str = ""
    allow_special: bool = False
    toks: list[Tokenizer] = field(default_factory=list)  # those that counted it
    counts: list[CountRow] | None = None  # text mode: the count rows
    messages: list[Message] = field(default_factory=list)  # chat mode
    tokens: dict[str, int] = field(default_factory=dict)  # each chosen model's, by choice id
    not_counted: dict[str, str] = field(default_factory=dict)  # chat mode: why a model's request is not
    # chat mode, with images: what they add to each model's tokens (None: not counted for it)
    image_tokens: dict[str, int | None] = field(default_factory=dict)

    @property
    def shows(self) -> tuple[str, bool] | None:
        """What the rest of the page depends on that typing in the text box changes (None in a
        chat: the rest is drawn with the editor, in the same run)."""
        return (self.text, self.allow_special) if self.mode == "text" else None

    @property
    def tokenizer_names(self) -> dict[str, str]:
        return {t.id: t.info.name for t in self.toks}


PAGE: FastFirst[WorkspaceState] = FastFirst("workspace", WorkspaceState)

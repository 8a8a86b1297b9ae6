"""The workspace file: save or load the versions, the chat, the tools, the chosen models and the
prices, as one JSON file."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.catalog.choices import Choice
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace.chat import Message
from tokenizer_core.workspace.cost_inputs import costs_to_json
from tokenizer_core.workspace.file import (
    MAX_FILE_BYTES,
    Workspace,
    WorkspaceError,
    load_workspace,
    save_workspace,
)

from ..failures import guarded_callback
from ..fast_first import rerun_parts
from ..messages import clear_message, leave_message, leave_notes, show_message
from ..models import known_choice_ids
from ..prices import RATE, current_rate, price_edits, set_price_edits
from ..uploads import upload_limit_mb
from .chat_editor import current_images, set_messages
from .costs import cost_inputs_now, set_cost_inputs
from .state import WORKSPACE
from .versions import set_versions, versions

WS_EXPANDER = "workspace_ws_expander"
FILE_MESSAGE = "workspace_ws_file"  # what loading the last workspace file did


def _on_workspace_file() -> None:
    clear_message(FILE_MESSAGE)
    file = st.session_state.get("workspace_ws_file")
    if file is None:
        return
    st.session_state[WS_EXPANDER] = True  # the answer is shown inside: keep it open
    try:
        ws, notes = load_workspace(file.getvalue(), known_models=known_choice_ids())
    except WorkspaceError as exc:
        text = escape_markdown(f"{file.name}: {exc}. Nothing was changed.")
        leave_message(FILE_MESSAGE, text, kind="error", icon=":material/block:")
        return
    if ws.models:
        st.session_state["workspace_tokenizers"] = ws.models
    st.session_state["workspace_mode"] = ws.mode
    st.session_state["workspace_text"] = ws.text
    if ws.messages:
        set_messages("workspace_chat", ws.messages, ws.images)
    st.session_state["workspace_chat_tools"] = ws.tools
    set_versions(ws.versions)
    if ws.price_rate is not None:  # a file saved before prices were kept leaves the prices alone
        set_price_edits(ws.price_edits)
        st.session_state[RATE] = ws.price_rate
    set_cost_inputs(ws.costs)  # a file saved before they were kept leaves them alone
    n = len(ws.versions)
    loaded = escape_markdown(f"Loaded {file.name}: {n} version{'s' * (n != 1)}.")
    leave_message(FILE_MESSAGE, loaded, kind="success", icon=":material/check:")
    leave_notes(FILE_MESSAGE, notes, kind="warning", icon=":material/data_object:", prefix=f"{file.name}: ")
    if ws.models:
        st.rerun()  # the whole page: the model picker, above the workspace's fragment, shows them
    rerun_parts(WORKSPACE)  # the prompt and the prices are above this section's fragment


def current_workspace(choices: list[Choice], mode: str, text: str, messages: list[Message]) -> Workspace:
    """What a workspace file saves now: the chosen models, the prompt, the versions and prices."""
    tools = st.session_state.get("workspace_chat_tools", "") or ""
    pairs = [(m.role, m.content) for m in messages]
    return Workspace(
        [c.id for c in choices], mode, text, pairs, tools, versions(),
        price_edits=price_edits(), price_rate=current_rate(),
        costs=costs_to_json(cost_inputs_now()), images=current_images("workspace_chat") if mode == "chat" else [],
    )  # fmt: skip


def workspace_file_section(current: Workspace) -> None:
    # The expander keeps its state (keyed, rerun on toggle), so a loaded file's confirmation,
    # shown inside it, is still in view after the page reruns for the file's models.
    with st.expander(
        "Workspace file (save or load versions, chat, tools and models)", icon=":material/folder_open:",
        key=WS_EXPANDER, on_change="rerun",
    ):  # fmt: skip
        c1, c2 = st.columns(2, vertical_alignment="bottom")
        c1.download_button(
            # The file itself, not a function that makes it on click: Streamlit names a file by its
            # content, so a run that draws the same workspace (opening this expander, any click
            # elsewhere) keeps the name the browser holds, and a replaced file is kept one more run.
            # A function's file is dropped as soon as a run draws the button again, and a click in
            # between downloaded nothing. This section is drawn after a pause in typing, not on
            # every keystroke. No rerun on click: nothing here changes then.
            "Save the workspace (JSON)", save_workspace(current), file_name="prompt_workspace.json",
            mime="application/json", icon=":material/download:", key="workspace_ws_save", on_click="ignore",
        )  # fmt: skip
        c2.file_uploader(
            "Load a workspace file", type=["json"], key="workspace_ws_file", max_upload_size=upload_limit_mb(MAX_FILE_BYTES // 1_000_000),
            on_change=guarded_callback(_on_workspace_file),
        )  # fmt: skip
        show_message(FILE_MESSAGE)

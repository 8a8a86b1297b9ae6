"""The chat editor: any number of messages (role + text, and images), added, removed and
reordered, and an optional list of tools as JSON Schema. Message texts use the live box, so counts
follow typing.

State (all in st.session_state, kept across pages): ``{key}_msgs`` is a list of message ids in
order; each message's role and text live under ``{key}_role_{id}`` and ``{key}_text_{id}``; its
images' ids under ``{key}_imgs_{id}``, each image (size, format and name: the file itself is not
kept) under ``{key}_img_{image id}`` and its detail level under ``{key}_imgdetail_{image id}``; the
tools' JSON text under ``{key}_tools``.
"""

from __future__ import annotations

import itertools

import streamlit as st

from tokenizer_core.catalog.images import ImageError
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace.chat import ROLES, Message
from tokenizer_core.workspace.images import DETAILS, MAX_IMAGES, ChatImage, attach_image
from tokenizer_core.workspace.limits import MAX_MESSAGES
from tokenizer_core.workspace.tools import ToolsError, parse_tools

from ..live_text import live_text_area
from ..uploads import upload_limit_mb

ROLE_LABELS = {"system": "System", "developer": "Developer", "user": "User", "assistant": "Assistant"}
DEFAULT_CHAT = (
    ("system", "You are a support assistant for an online shop. Answer briefly and politely."),
    ("user", "Where is my order #90210? It was due on Monday."),
)
IMAGE_TYPES = ["png", "jpg", "jpeg", "gif", "webp"]
IMAGE_MB = 20  # an image file's upload limit (only its header is read)
DETAIL_HELP = (
    "OpenAI's detail level: low is a fixed small count at any size; high counts the image's tiles or "
    "patches; auto is counted as the model's documented default. Other makers' rules say how they read it."
)
_counter = itertools.count()


def _new_id(key: str) -> str:
    ids = st.session_state.get(f"{key}_msgs", [])
    while (mid := f"m{next(_counter)}") in ids:
        pass
    return mid


def _drop_images(key: str, mid: str) -> list[ChatImage]:
    """Take a message's images out of the state; returns them (with their detail levels)."""
    out = []
    for iid in st.session_state.pop(f"{key}_imgs_{mid}", []):
        img = st.session_state.pop(f"{key}_img_{iid}", None)
        detail = st.session_state.pop(f"{key}_imgdetail_{iid}", "auto")
        if isinstance(img, ChatImage):
            out.append(ChatImage(img.message, img.name, img.width, img.height, img.format, detail))
    return out


def _put_image(key: str, mid: str, img: ChatImage) -> None:
    iid = f"i{next(_counter)}"
    st.session_state[f"{key}_img_{iid}"] = img
    st.session_state[f"{key}_imgdetail_{iid}"] = img.detail if img.detail in DETAILS else "auto"
    st.session_state[f"{key}_imgs_{mid}"] = [*st.session_state.get(f"{key}_imgs_{mid}", []), iid]


def set_messages(key: str, messages: list[tuple[str, str]], images: list[ChatImage] = ()) -> None:  # type: ignore[assignment]
    """Replace the chat with these (role, text) pairs and images (from a link, a file or a version;
    the readers of those already left out what is over MAX_MESSAGES, and so does this)."""
    for mid in st.session_state.get(f"{key}_msgs", []):
        st.session_state.pop(f"{key}_role_{mid}", None)
        _drop_images(key, mid)
    ids = []
    for role, text in messages[:MAX_MESSAGES]:
        mid = _new_id(key)
        ids.append(mid)
        st.session_state[f"{key}_msgs"] = ids
        st.session_state[f"{key}_role_{mid}"] = role if role in ROLES else "user"
        st.session_state[f"{key}_text_{mid}"] = text
    st.session_state[f"{key}_msgs"] = ids
    for img in list(images)[:MAX_IMAGES]:
        if 0 <= img.message < len(ids):
            _put_image(key, ids[img.message], img)


def current_messages(key: str) -> list[Message]:
    """The chat as it stands (also callable before the editor is drawn)."""
    if f"{key}_msgs" not in st.session_state:
        set_messages(key, list(DEFAULT_CHAT))
    return [
        Message(
            st.session_state.get(f"{key}_role_{mid}", "user"), st.session_state.get(f"{key}_text_{mid}", "")
        )
        for mid in st.session_state[f"{key}_msgs"]
    ]


def current_images(key: str) -> list[ChatImage]:
    """The images attached to the chat's messages, in order, each with its message's position
    and its detail level as chosen (also callable before the editor is drawn)."""
    out = []
    for i, mid in enumerate(st.session_state.get(f"{key}_msgs", [])):
        for iid in st.session_state.get(f"{key}_imgs_{mid}", []):
            img = st.session_state.get(f"{key}_img_{iid}")
            if isinstance(img, ChatImage):
                detail = st.session_state.get(f"{key}_imgdetail_{iid}", "auto")
                out.append(ChatImage(i, img.name, img.width, img.height, img.format, detail))
    return out


def _on_upload(key: str, mid: str, upload_key: str) -> None:
    """Read each uploaded file's size from its header and keep that, not the file: the box is
    then drawn afresh under a new key, so the upload's bytes are let go."""
    files = st.session_state.get(upload_key) or []
    room = MAX_IMAGES - len(current_images(key))
    problems = []
    for f in files:
        if room <= 0:
            problems.append(f"{f.name}: not attached, the chat has {MAX_IMAGES} images, the most it holds.")
            continue
        try:
            _put_image(key, mid, attach_image(-1, f.name, f.getvalue()))
            room -= 1
        except ImageError as exc:
            problems.append(f"{f.name}: {exc}")
    st.session_state[f"{key}_upgen_{mid}"] = st.session_state.get(f"{key}_upgen_{mid}", 0) + 1
    st.session_state.pop(upload_key, None)
    st.session_state[f"{key}_img_problems"] = problems


def _remove_image(key: str, mid: str, iid: str) -> None:
    st.session_state[f"{key}_imgs_{mid}"] = [
        i for i in st.session_state.get(f"{key}_imgs_{mid}", []) if i != iid
    ]
    st.session_state.pop(f"{key}_img_{iid}", None)
    st.session_state.pop(f"{key}_imgdetail_{iid}", None)


def _image_controls(key: str, mid: str, i: int) -> None:
    """The uploader that attaches images to message i (in a small popover under the message's text:
    the buttons' row above has no room left on a narrow page)."""
    gen = st.session_state.get(f"{key}_upgen_{mid}", 0)
    upload_key = f"{key}_upload_{mid}_{gen}"
    with st.popover("Attach an image", icon=":material/add_photo_alternate:", type="tertiary",
                    key=f"{key}_imgpop_{mid}", help=f"Attach an image to message {i + 1}"):  # fmt: skip
        st.file_uploader(
            f"Images for message {i + 1} (PNG, JPEG, GIF or WebP)", type=IMAGE_TYPES, accept_multiple_files=True,
            key=upload_key, on_change=_on_upload, args=(key, mid, upload_key),
            max_upload_size=upload_limit_mb(IMAGE_MB),
            help="Only the image's size is read and kept (from its header), not the image itself.",
        )  # fmt: skip


def _image_rows(key: str, mid: str, i: int) -> None:
    """Each image of message i: its name and size, its detail level, a button to remove it."""
    for n, iid in enumerate(st.session_state.get(f"{key}_imgs_{mid}", [])):
        img = st.session_state.get(f"{key}_img_{iid}")
        if not isinstance(img, ChatImage):
            continue
        with st.container(horizontal=True, vertical_alignment="center", key=f"icons_{key}_img_{iid}"):
            st.caption(
                f":material/image: {escape_markdown(img.name)} · {img.width:,} × {img.height:,} px {img.format}",
                width="stretch",
            )
            st.selectbox(
                f"Detail of image {n + 1} of message {i + 1}", DETAILS, key=f"{key}_imgdetail_{iid}",
                format_func=lambda d: f"detail: {d}", label_visibility="collapsed", width=140, help=DETAIL_HELP,
                persist_state="session",
            )  # fmt: skip
            st.button(f"Remove image {n + 1} of message {i + 1}", key=f"{key}_imgrm_{iid}", icon=":material/close:",
                      help="Remove this image", on_click=_remove_image, args=(key, mid, iid))  # fmt: skip


def current_tools(key: str) -> tuple[list[dict], str | None]:
    """The parsed tools and an error message (then the tools are left out of the counts)."""
    try:
        return parse_tools(st.session_state.get(f"{key}_tools", "") or ""), None
    except ToolsError as exc:
        return [], str(exc)


def _move(key: str, i: int, step: int) -> None:
    ids = st.session_state[f"{key}_msgs"]
    j = i + step
    if 0 <= j < len(ids):
        ids[i], ids[j] = ids[j], ids[i]


def _remove(key: str, i: int) -> None:
    ids = st.session_state[f"{key}_msgs"]
    mid = ids.pop(i)
    st.session_state[f"{key}_removed"] = (
        i, st.session_state.get(f"{key}_role_{mid}", "user"), st.session_state.get(f"{key}_text_{mid}", ""),
        _drop_images(key, mid),
    )  # fmt: skip


def _undo_remove(key: str) -> None:
    removed = st.session_state.pop(f"{key}_removed", None)
    if removed and len(st.session_state[f"{key}_msgs"]) < MAX_MESSAGES:
        i, role, text, images = removed
        mid = _new_id(key)
        st.session_state[f"{key}_role_{mid}"] = role
        st.session_state[f"{key}_text_{mid}"] = text
        for img in images:
            _put_image(key, mid, img)
        st.session_state[f"{key}_msgs"].insert(min(i, len(st.session_state[f"{key}_msgs"])), mid)


def _add(key: str) -> None:
    ids = st.session_state[f"{key}_msgs"]
    if len(ids) >= MAX_MESSAGES:
        return
    last = st.session_state.get(f"{key}_role_{ids[-1]}") if ids else None
    mid = _new_id(key)
    st.session_state[f"{key}_role_{mid}"] = "assistant" if last == "user" else "user"
    st.session_state[f"{key}_text_{mid}"] = ""
    ids.append(mid)


def chat_editor(
    key: str, *, message_tokens: dict[int, str] | None = None
) -> tuple[list[Message], list[dict]]:
    """Draw the editor; returns the messages and the usable tools.

    `message_tokens` maps a message's position to a short count shown by it (e.g. "42 tokens").
    """
    current_messages(key)  # defaults on first use
    ids = st.session_state[f"{key}_msgs"]
    message_tokens = message_tokens or {}
    for i, mid in enumerate(list(ids)):
        with st.container(border=True):
            c1, c2 = st.columns([3, 4], vertical_alignment="bottom")
            c1.selectbox(
                f"Message {i + 1}", ROLES, key=f"{key}_role_{mid}", persist_state="session", format_func=ROLE_LABELS.get,
            )  # fmt: skip
            # one row, also on a phone; icon buttons whose labels are their names for screen readers
            with c2.container(horizontal=True, vertical_alignment="center", key=f"icons_{key}_{mid}"):
                st.caption(message_tokens.get(i, ""), width="stretch")
                st.button(f"Move message {i + 1} up", key=f"{key}_up_{mid}", icon=":material/arrow_upward:",
                          help="Move up", on_click=_move, args=(key, i, -1), disabled=i == 0)  # fmt: skip
                st.button(f"Move message {i + 1} down", key=f"{key}_down_{mid}", icon=":material/arrow_downward:",
                          help="Move down", on_click=_move, args=(key, i, 1), disabled=i == len(ids) - 1)  # fmt: skip
                st.button(f"Remove message {i + 1}", key=f"{key}_rm_{mid}", icon=":material/delete:",
                          help="Remove this message", on_click=_remove, args=(key, i))  # fmt: skip
            live_text_area(
                f"{key}_text_{mid}", label=f"Text of message {i + 1}", height=90,
                placeholder="Type the message...",
            )  # fmt: skip
            _image_rows(key, mid, i)
            _image_controls(key, mid, i)
    for problem in st.session_state.pop(f"{key}_img_problems", []):
        st.warning(escape_markdown(problem), icon=":material/hide_image:")
    full = len(ids) >= MAX_MESSAGES
    b1, b2 = st.columns([1, 3], vertical_alignment="center")
    b1.button("Add a message", key=f"{key}_add", icon=":material/add:", on_click=_add, args=(key,),
              disabled=full)  # fmt: skip
    if full:
        b2.caption(f"{MAX_MESSAGES} messages, the most the editor holds.")
    elif removed := st.session_state.get(f"{key}_removed"):
        b2.button(
            f"Bring back the removed {ROLE_LABELS.get(removed[1], 'message').lower()} message",
            key=f"{key}_undo", icon=":material/undo:", type="tertiary", on_click=_undo_remove, args=(key,),
        )  # fmt: skip
    with st.expander("Tools (function definitions, JSON Schema)", icon=":material/build:"):
        st.text_area(
            "Tools as JSON", key=f"{key}_tools", persist_state="session", height=160,
            placeholder='[{"type": "function", "function": {"name": "get_weather", "description": "...", '
            '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]',
            help="A list of tools in the OpenAI form, or bare functions with name, description and parameters.",
        )  # fmt: skip
        tools, error = current_tools(key)
        # Tool names (and the errors that quote them) are the user's text: shown literally, never
        # as Markdown (a name like ![x](https://...) would make the browser fetch it).
        if error:
            st.error(escape_markdown(error) + " The tools are left out of the counts until this is fixed; "
                     "your text is kept.", icon=":material/data_object:")  # fmt: skip
        elif tools:
            st.caption(
                f"{len(tools)} tool{'s' * (len(tools) != 1)}: "
                + escape_markdown(", ".join(t["function"]["name"] for t in tools))
            )
    return current_messages(key), tools

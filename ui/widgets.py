"""Reusable widget groups. Each takes a `key` prefix and returns its value (house habit 10)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from tokenizer_core import (
    BUILTINS,
    InputError,
    Tokenizer,
    TokenizerFailed,
    TokenizerUnavailable,
    VocabularyError,
    decode_text,
)
from tokenizer_core.hosted import HostedTokenizer
from tokenizer_core.jobs import JobError
from tokenizer_core.saved_work import KeptTokenizer
from tokenizer_core.tokenizers import (
    DEFAULT_IDS,
    MAX_TEXT_BYTES,
    NO_PUBLIC_TOKENIZER,
    PATTERNS,
    TEXT_EXTENSIONS,
    escape_markdown,
    is_own_id,
    vocabulary_file_problem,
)
from tokenizer_core.tokenizers.known_vocab import KnownVocabulary, identify_tiktoken
from tokenizer_core.tokenizers.uploads import MAX_UPLOAD_BYTES

from .jobs import run_in_worker
from .live_text import live_text_area
from .saved_work import clear_saved_work, forget_own_tokenizer, keep_own_tokenizer, saved_work
from .state import (
    check_room_for_own_tokenizer,
    register_session_tokenizer,
    remove_session_tokenizer,
    session_tokenizers,
    tokenizer_infos,
    tokenizer_label,
)
from .uploads import upload_limit_mb

PICKER_HELP = (
    "Built-in tokenizers work offline. Add your own in the sidebar. "
    + " ".join(
        f"{name.split(' (')[0]}: no public tokenizer; its API counts tokens." for name in NO_PUBLIC_TOKENIZER
    )
    + " No count is shown for them here."
)


def tokenizer_select(
    key: str,
    *,
    label: str = "Tokenizers",
    default: Sequence[str] = DEFAULT_IDS,
    multi: bool = True,
    help: str | None = None,
) -> list[str] | str | None:
    """Pick built-in or session tokenizers. Returns ids (a list, or one id if `multi=False`)."""
    options = [i.id for i in tokenizer_infos()]
    help = help or PICKER_HELP
    # The choice lives in session state (set here, never also passed as a default), so ids that
    # no longer exist (a removed upload) are dropped without Streamlit's default/state warning.
    if multi:
        current = st.session_state.get(key, list(default))
        st.session_state[key] = [i for i in current if i in options]
        return st.multiselect(
            label, options, format_func=tokenizer_label, key=key, persist_state="session", help=help
        )
    if st.session_state.get(key) not in options:
        st.session_state[key] = next((i for i in default if i in options), options[0])
    return st.selectbox(
        label, options, format_func=tokenizer_label, key=key, persist_state="session", help=help
    )


def show_unavailable(errors: Sequence[TokenizerUnavailable]) -> None:
    """One clear error box per tokenizer that could not load."""
    for exc in errors:
        st.error(
            f"**{exc.tokenizer_id}** cannot be used: {exc.problem}.  \nFix: `{exc.fix}`",
            icon=":material/error:",
        )


@st.cache_data(max_entries=128, show_spinner=False)
def _failure(tokenizer_id: str, texts: tuple[str, ...], _tok: Tokenizer) -> str | None:
    """Why this user tokenizer cannot tokenize `texts` (cached by id and texts), or None."""
    try:
        _tok.count_many(list(texts))
    except TokenizerFailed as exc:
        return exc.problem
    return None


def tokenizer_failed(exc: TokenizerFailed, name: str) -> None:
    """The error box for a tokenizer that broke on the text (the other tokenizers go on)."""
    st.error(
        f"**{escape_markdown(name)}** cannot tokenize this text: {escape_markdown(exc.problem)}. "
        "It is left out here; the other tokenizers are unaffected. Fix: upload a corrected file, "
        "or remove it under *Your own tokenizers* in the sidebar.",
        icon=":material/error:",
    )


def working_tokenizers(toks: Sequence[Tokenizer], texts: Sequence[str]) -> list[Tokenizer]:
    """`toks` without the user tokenizers that break on `texts`, with an error box for each.

    Built-in tokenizers are trusted; an uploaded or trained one is run on the texts once (the
    answer is cached), so one broken file never stops a page or the other tokenizers.
    """
    ok: list[Tokenizer] = []
    for tok in toks:
        problem = None if tok.id in BUILTINS else _failure(tok.id, tuple(texts), tok)
        if problem is None:
            ok.append(tok)
        else:
            tokenizer_failed(TokenizerFailed(tok.id, problem), tok.info.name)
    return ok


def text_source(
    key: str,
    *,
    samples: dict[str, Callable[[], str]],
    label: str = "Text",
    height: int = 220,
    placeholder: str = "Paste or type text here...",
    extensions: Sequence[str] = TEXT_EXTENSIONS,
    default_sample: str | None = None,
    live: bool = False,
) -> str:
    """Paste, upload a text file, or load a sample. Returns the current text.

    `live=True` uses the box that sends its text while the user types (ui/live_text.py).

    The text lives in `st.session_state[f"{key}_text"]` and persists across pages, and so does
    an uploaded file's name and text (`uploaded_file_name`), though Streamlit's uploader forgets
    the file when its page is left. Loading a
    sample or a file replaces it, and a "Restore" button brings back what was there before, so
    nothing typed is lost. A binary or non-UTF-8 upload shows a message and changes nothing.
    A page that reruns the box apart from the rest draws the two halves itself:
    `text_source_controls` (upload, samples) and `text_entry` (the box, Restore).
    """
    text_source_controls(key, samples=samples, extensions=extensions, default_sample=default_sample)
    return text_entry(key, label=label, height=height, placeholder=placeholder, live=live)


def text_source_controls(
    key: str,
    *,
    samples: dict[str, Callable[[], str]],
    extensions: Sequence[str] = TEXT_EXTENSIONS,
    default_sample: str | None = None,
) -> None:
    """The upload and sample row above a text box (see `text_source`), and an upload's error."""
    text_key, err_key, file_key = f"{key}_text", f"{key}_upload_error", f"{key}_file"
    if text_key not in st.session_state and default_sample in samples:
        st.session_state[text_key] = samples[default_sample]()

    def on_upload() -> None:
        st.session_state.pop(err_key, None)
        file = st.session_state.get(f"{key}_upload")
        if file is None:  # the user removed the file
            st.session_state.pop(file_key, None)
            return
        try:
            text = decode_text(file.getvalue(), filename=file.name)
        except InputError as exc:
            st.session_state[err_key] = str(exc)
            return
        _replace_text(key, text)
        st.session_state[file_key] = (file.name, text)

    def on_sample() -> None:
        name = st.session_state.get(f"{key}_sample")
        if name in samples:
            _replace_text(key, samples[name]())
            st.session_state.pop(file_key, None)

    c1, c2 = st.columns([2, 3], vertical_alignment="bottom")  # room for the longest sample name
    with c1:
        st.file_uploader(
            "Upload a text file", type=list(extensions), key=f"{key}_upload", on_change=on_upload,
            max_upload_size=upload_limit_mb(MAX_TEXT_BYTES // 1_000_000),
            help="UTF-8 or UTF-16 text: " + ", ".join(f".{e}" for e in extensions[:12]) + ", ...",
        )  # fmt: skip
        # Streamlit forgets an upload when its page is left; the file's name comes back from here.
        name = uploaded_file_name(key, st.session_state.get(text_key, ""))
        if name is not None and st.session_state.get(f"{key}_upload") is None:
            st.caption(f":material/description: From your file **{escape_markdown(name)}**")
    with c2:
        s1, s2 = st.columns([3, 1], vertical_alignment="bottom")
        s1.selectbox("Sample", list(samples), key=f"{key}_sample", persist_state="session")
        s2.button("Load sample", key=f"{key}_load_sample", on_click=on_sample, width="stretch")
    if err_key in st.session_state:
        st.error(
            escape_markdown(st.session_state[err_key]) + " Your text below is unchanged.",
            icon=":material/block:",
        )


def uploaded_file_name(key: str, text: str) -> str | None:
    """The name of the file uploaded into the text box `key` while the box still holds exactly
    that file's text (kept for the session, also after the user visits another page), else None."""
    kept = st.session_state.get(f"{key}_file")
    if isinstance(kept, tuple) and len(kept) == 2 and kept[1] == text:
        return str(kept[0])
    return None


def text_entry(
    key: str,
    *,
    label: str = "Text",
    height: int = 220,
    placeholder: str = "Paste or type text here...",
    live: bool = False,
    live_counts: dict | None = None,
) -> str:
    """The text box of `text_source` and its Restore button; the current text. `live_counts`:
    the counts the live box asks for as the user types (`live_text_area`)."""
    text_key, prev_key = f"{key}_text", f"{key}_previous"

    def on_restore() -> None:
        if prev_key in st.session_state:
            st.session_state[text_key], st.session_state[prev_key] = (
                st.session_state[prev_key], st.session_state.get(text_key, ""),
            )  # fmt: skip

    if live:
        text = live_text_area(
            text_key, label=label, height=height, placeholder=placeholder, counts=live_counts
        )
    else:
        text = st.text_area(
            label, key=text_key, persist_state="session", height=height, placeholder=placeholder,
        ) or ""  # fmt: skip
    if st.session_state.get(prev_key):
        st.button(
            "Restore the text you had before", key=f"{key}_restore", on_click=on_restore,
            icon=":material/undo:", type="tertiary",
        )  # fmt: skip
    return text


def _replace_text(key: str, new: str) -> None:
    """Put `new` in the text box `key`, keeping what it held for the Restore button."""
    text_key, prev_key = f"{key}_text", f"{key}_previous"
    old = st.session_state.get(text_key, "")
    if old and old != new:
        st.session_state[prev_key] = old
    st.session_state[text_key] = new


def _read_hf_upload(data: bytes, name: str) -> Tokenizer:
    """The user's tokenizer.json as a tokenizer living in a process of its own, which reads and
    checks the file (the server's interpreter never parses it). Raises VocabularyError."""
    return HostedTokenizer("hf", data, name=name)


def add_own_tokenizer(
    kind: str, data: bytes, *, file_name: str, name: str, pattern_id: str = "o200k"
) -> tuple[str, str]:
    """Make the user's uploaded vocabulary (`kind` "tiktoken" or "hf") one of this session's
    tokenizers; returns its id and the sentence that says so (Markdown, user text escaped). Raises
    VocabularyError (the file's problem, in words) or JobError (the workers could not take it)."""
    name = name or file_name
    check_room_for_own_tokenizer()
    own = session_tokenizers()  # taken before the build: see register_session_tokenizer
    if kind == "tiktoken":
        tok: Tokenizer = HostedTokenizer("tiktoken", data, name=name, pattern_id=pattern_id)
    else:
        tok = _read_hf_upload(data, name)
    tok = register_session_tokenizer(tok, into=own)
    pattern = f", pattern {escape_markdown(PATTERNS[pattern_id].label)}" if kind == "tiktoken" else ""
    return tok.id, (
        f"Added **{escape_markdown(tok.info.name)}** ({tok.n_vocab:,} tokens{pattern}). "
        "It is now in every tokenizer list."
    )


_SAID = "custom_tok_said"  # {"added" | "error": the sentence}, of the last "Add tokenizer"


def _add_custom(kind: str) -> None:
    """Callback: turn the uploaded file into a session tokenizer, or record the error.

    What it writes after the build goes to objects taken before it (see
    ui.state.register_session_tokenizer): a click during the build stops this run at its next use
    of `st.session_state`, and the tokenizer, its keeping in the browser and the sentence that
    says so must not be lost to that stop."""
    said = st.session_state.setdefault(_SAID, {})
    said.clear()
    file = st.session_state.get("custom_tok_file")
    if file is None:
        said["error"] = "Choose a file first."
        return
    if vocabulary_file_problem(file.name, kind):
        return  # the box already says why the file is not a vocabulary
    data, name = file.getvalue(), st.session_state.get("custom_tok_name", "")
    pattern_id = st.session_state.get("custom_tok_pattern", "o200k")
    work = saved_work()
    with work.building:
        try:
            added, said["added"] = add_own_tokenizer(
                kind, data, file_name=file.name, name=name, pattern_id=pattern_id
            )
        except (VocabularyError, JobError) as exc:
            said["error"] = f"{escape_markdown(file.name)}: {escape_markdown(str(exc))}"
            return
        if is_own_id(added):  # kept in the browser for a reload (ui/saved_work.py)
            keep_own_tokenizer(KeptTokenizer(added, kind, data, file.name, name, pattern_id), work)


def _remove_own(tokenizer_id: str) -> None:
    """Callback: remove one of the user's own tokenizers, here and in the browser's store."""
    remove_session_tokenizer(tokenizer_id)
    forget_own_tokenizer(tokenizer_id)


@st.cache_data(max_entries=16, ttl=600, show_spinner=False)
def _identity(file_id: str, _file) -> KnownVocabulary | None:
    """The built-in vocabulary in an uploaded `.tiktoken` file, read in a worker (parsing a large
    file here would hold every session's interpreter). Cached by the upload's id (random, one per
    upload): a rerun that comes while the worker reads does not stop the run that asked (Streamlit
    starts the next run beside it), and the next run waits for that reading instead of sending the
    file to a worker again."""
    return run_in_worker(identify_tiktoken, _file.getvalue())


def _upload_identity(file) -> KnownVocabulary | str | None:
    """The built-in vocabulary an uploaded `.tiktoken` file holds (None: no built-in one; a
    string: why the file cannot be read), worked out once per file.

    The first time a file is seen, its vocabulary's own pattern is preselected (before the
    pattern box is drawn in this run); the user's later choice is left alone.
    """
    seen = st.session_state.get("custom_tok_known")
    if seen is not None and seen[0] == file.file_id:
        return seen[1]
    try:
        known: KnownVocabulary | str | None = _identity(file.file_id, file)
    except (VocabularyError, JobError) as exc:
        known = f"{escape_markdown(file.name)}: {escape_markdown(str(exc))}"
    st.session_state["custom_tok_known"] = (file.file_id, known)
    if isinstance(known, KnownVocabulary):
        st.session_state["custom_tok_pattern"] = known.pattern_id
    return known


def _pattern_notes(known: KnownVocabulary | str | None) -> None:
    """Say which pattern an uploaded vocabulary needs (or why the file cannot be read)."""
    if isinstance(known, str):
        st.error(known, icon=":material/error:")
        return
    if known is None:
        st.warning(
            "This vocabulary is none of the built-in ones. The pattern decides the counts: choose "
            "the one the model was trained with (any other pattern gives other counts).",
            icon=":material/warning:",
        )
        return
    name, own = escape_markdown(known.name), escape_markdown(PATTERNS[known.pattern_id].label)
    if known.exact:
        st.info(
            f"This file is the **{name}** vocabulary, so its own pattern is selected below: "
            "counts equal the built-in's.",
            icon=":material/check_circle:",
        )
    else:
        st.info(
            f"The first {known.n_ranks:,} tokens of this file are the **{name}** vocabulary, so its "
            f"pattern ({own}) is selected below. The pattern decides the counts: keep it only if "
            "your model was trained with it.",
            icon=":material/info:",
        )


def custom_tokenizer_sidebar() -> None:
    """Sidebar panel to add (and remove) this session's own tokenizers."""
    with st.sidebar.expander("Your own tokenizers", icon=":material/upload_file:"):
        st.caption(
            "Upload a `.tiktoken` vocabulary or a Hugging Face `tokenizer.json`. It appears on "
            "every page and is kept in this browser, so a reload adds it again."
        )
        kind = st.radio(
            "Format", ["tiktoken", "hf"], key="custom_tok_kind", persist_state="session", horizontal=True,
            format_func={"tiktoken": ".tiktoken", "hf": "tokenizer.json"}.get,
        )  # fmt: skip
        # any file is taken and its name checked here: Streamlit's own type filter answers a
        # wrong file with "application/octet-stream files are not allowed"
        file = st.file_uploader(
            "Vocabulary file", key="custom_tok_file", max_upload_size=upload_limit_mb(MAX_UPLOAD_BYTES // 1_000_000),
            help="A .tiktoken (or .txt) file for .tiktoken, a .json file for tokenizer.json.",
        )  # fmt: skip
        wrong = vocabulary_file_problem(file.name, kind) if file is not None else None
        if wrong:
            st.error(escape_markdown(wrong), icon=":material/error:")
        if kind == "tiktoken":
            known = _upload_identity(file) if file is not None and not wrong else None
            if file is not None and not wrong:
                _pattern_notes(known)
            pattern = st.selectbox(
                "Pre-tokenization pattern", list(PATTERNS), key="custom_tok_pattern", persist_state="session",
                format_func=lambda p: PATTERNS[p].label,
                help="The regular expression that cuts text into pieces before the merges apply. "
                "The same vocabulary with another pattern gives other counts.",
            )  # fmt: skip
            if isinstance(known, KnownVocabulary) and pattern != known.pattern_id:
                st.warning(
                    f"**{escape_markdown(known.name)}** cuts text with the "
                    f"{escape_markdown(PATTERNS[known.pattern_id].label)} pattern: with this one, "
                    "counts will differ from its own.",
                    icon=":material/warning:",
                )
        st.text_input("Name", key="custom_tok_name", persist_state="session", placeholder="e.g. my-model v2")
        st.button("Add tokenizer", key="custom_tok_add", on_click=_add_custom, args=(kind,))
        said = st.session_state.get(_SAID, {})
        if msg := said.get("error"):
            st.error(msg, icon=":material/error:")
        if msg := said.get("added"):
            st.success(msg, icon=":material/check:")
        for tid, tok in list(session_tokenizers().items()):
            c1, c2 = st.columns([4, 1], vertical_alignment="center")
            c1.text(f"{tok.info.name} · {tok.info.family} · {tok.n_vocab:,}")
            # an icon button: its label, hidden by ui/style.py, is its name for screen readers
            with c2.container(key=f"icons_custom_tok_{tid}"):
                st.button(
                    f"Remove {escape_markdown(tok.info.name)}", key=f"custom_tok_rm_{tid}", icon=":material/delete:", help="Remove",
                    on_click=_remove_own, args=(tid,),
                )  # fmt: skip
            if tid in (not_kept := saved_work().not_kept):
                name, why = map(escape_markdown, not_kept[tid])
                st.caption(f"Not kept in this browser: **{name}** ({why}). Add it again after a reload.")


def saved_work_sidebar() -> None:
    """The sidebar's word on the work each page keeps in this browser, and its Clear button."""
    from tokenizer_core.saved_work import MAX_BYTES, MAX_KEPT_ALL, MAX_KEPT_FILE

    with st.sidebar.expander("Your work in this browser", icon=":material/history:"):
        st.caption(
            "Each page keeps your texts, settings, chat, versions and trained model in this browser "
            f"(local storage, up to {MAX_BYTES // 1_000_000} MB per page), and the tokenizers you added "
            f"(up to {MAX_KEPT_FILE // 1_000_000} MB each once compressed, {MAX_KEPT_ALL // 1_000_000} MB "
            "in all), so a reload or a restart finds them again. The server keeps a copy of your "
            "tokenizers' files only to spare sending them again."
        )
        if st.button("Clear my saved work", key="saved_work_clear", icon=":material/delete:",
                     on_click=clear_saved_work):  # fmt: skip
            st.caption("Cleared. What you change from now on is kept again.")

"""The set to count: a file, a folder or a pasted list; its shape, a sample row and its fields."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import zipfile
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from tokenizer_core.datasets import SHAPES, DatasetError, Detected, detect, pasted
from tokenizer_core.datasets.detect import PASTED_NAME, shape_label
from tokenizer_core.tokenizers import escape_markdown

from ..uploads import upload_limit_mb
from .samples import SAMPLES, sample_bytes

_log = logging.getLogger(__name__)

DATA = "datasets_data"  # session state: the Loaded set (kept across pages; an upload widget is not)
DETECTED = "_datasets_detected"  # session state: (fingerprint, Detected | error sentence)
SOURCES = {"file": "A file", "folder": "A folder", "paste": "Paste a list", "sample": "A sample"}
# An upload through the browser is held in the server's memory: bounded well below what the
# counting accepts from a notebook (1.5 GB); 200 MB is the largest Batch file OpenAI takes.
# TW_DATASET_UPLOAD_MB lowers it (never above server.maxUploadSize: ui/uploads.py).
UPLOAD_MB = int(os.environ.get("TW_DATASET_UPLOAD_MB", "200"))
FILE_TYPES = ["jsonl", "json", "ndjson", "csv", "tsv", "tab", "parquet", "zip", "gz", "tgz", "txt"]
FIELD_KEYS = (
    "datasets_shape",
    "datasets_text_field",
    "datasets_id_field",
    "datasets_columns",
    "datasets_id_column",
)
NO_ID = "(the line number)"


@dataclass(frozen=True)
class Loaded:
    """A set as the page holds it: its name, its bytes and their fingerprint."""

    name: str
    data: bytes
    digest: str
    note: str = ""  # e.g. the folder's files that were packed


def _loaded(name: str, data: bytes, note: str = "") -> Loaded:
    return Loaded(name, data, hashlib.blake2b(data, digest_size=16).hexdigest(), note)


def _new_set(loaded: Loaded | None) -> None:
    """A new set: its shape and fields are detected afresh."""
    from .job import forget_count

    for key in FIELD_KEYS:
        st.session_state.pop(key, None)
    st.session_state.pop(DETECTED, None)
    forget_count()
    if loaded is None:
        st.session_state.pop(DATA, None)
    else:
        st.session_state[DATA] = loaded


def _on_file() -> None:
    f = st.session_state.get("datasets_file")
    _new_set(_loaded(f.name, f.getvalue()) if f is not None else None)


def folder_zip(files: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A dropped folder's files packed as a zip (paths kept), named after the folder.

    ``folder_zip([("repo/a.py", b"x")])[0] -> "repo.zip"``
    """
    tops = {n.replace("\\", "/").lstrip("/").split("/")[0] for n, _ in files if "/" in n.replace("\\", "/")}
    name = (tops.pop() if len(tops) == 1 else "folder") + ".zip"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in files:
            z.writestr(n.replace("\\", "/").lstrip("/"), data)
    return name, buf.getvalue()


def _on_folder() -> None:
    files = st.session_state.get("datasets_folder") or []
    if not files:
        _new_set(None)
        return
    name, data = folder_zip([(f.name, f.getvalue()) for f in files])
    _new_set(_loaded(name, data, f"{len(files):,} files of the folder"))


def _on_sample() -> None:
    key = st.session_state.get("datasets_sample") or next(iter(SAMPLES))
    name, data = sample_bytes(key)
    _new_set(_loaded(name, data))


def _on_source() -> None:
    _new_set(None)


def source_section() -> Loaded | None:
    """Where the set comes from; the set (None until there is one)."""
    kind = st.segmented_control(
        "The set", list(SOURCES), format_func=SOURCES.get, key="datasets_source", default="file",
        on_change=_on_source, persist_state="session",
    )  # fmt: skip
    kind = kind or "file"
    if kind == "file":
        st.file_uploader(
            "A JSONL (OpenAI Batch requests, chat fine-tuning, any JSON lines), a CSV, TSV or Parquet table, "
            "or a repository as .zip / .tar.gz", type=FILE_TYPES, key="datasets_file", on_change=_on_file,
            max_upload_size=upload_limit_mb(UPLOAD_MB),
        )  # fmt: skip
    elif kind == "folder":
        st.file_uploader(
            "A folder (counted as a repository: its .gitignore is honoured)", accept_multiple_files="directory",
            key="datasets_folder", on_change=_on_folder, max_upload_size=upload_limit_mb(UPLOAD_MB),
        )  # fmt: skip
    elif kind == "paste":
        text = st.text_area(
            "One text a line", key="datasets_paste", height=160, persist_state="session",
            placeholder="What is the capital of France?\nSummarise this article in one line.",
        )  # fmt: skip
        if not text.strip():
            st.session_state.pop(DATA, None)
            return None
        loaded = st.session_state.get(DATA)
        data = pasted(text)
        if loaded is None or loaded.data != data:
            st.session_state[DATA] = loaded = _loaded(PASTED_NAME, data)
        return loaded
    else:
        st.selectbox(
            "Sample", list(SAMPLES), format_func=SAMPLES.get, key="datasets_sample", on_change=_on_sample,
            persist_state="session",
        )  # fmt: skip
        if DATA not in st.session_state:
            _on_sample()
    loaded = st.session_state.get(DATA)
    if loaded is not None and kind in ("file", "folder"):
        widget = st.session_state.get("datasets_file" if kind == "file" else "datasets_folder")
        if not widget:
            st.caption(
                f"Counting **{escape_markdown(loaded.name)}** ({len(loaded.data):,} bytes), dropped earlier in "
                "this session. After a reload of the page, drop it again."
            )
    return loaded


def detected(loaded: Loaded, shape: str | None) -> Detected | str:
    """The set's shape (detected, or the one chosen) with a sample; or why it cannot be counted."""
    key = (loaded.digest, shape)
    held = st.session_state.get(DETECTED)
    if held is not None and held[0] == key:
        return held[1]
    try:
        got: Detected | str = detect(loaded.name, loaded.data, shape=shape)
    except DatasetError as exc:
        got = str(exc)
    except Exception:  # noqa: BLE001  (a file that is not what the shape says: a sentence)
        _log.exception("detecting the shape of %r as %s failed", loaded.name, shape)
        got = f"{loaded.name} cannot be read as {SHAPES.get(shape or '', 'a set')}: choose another shape."
    st.session_state[DETECTED] = (key, got)
    return got


def shown_text(text: str) -> str:
    """Text a JSON string may hold, made showable: ``shown_text("a\\ud83d") -> "a?"`` (a lone
    surrogate cannot be sent to the browser)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _sample_view(d: Detected) -> None:
    if not d.sample:
        return
    if d.shape in ("csv", "tsv", "parquet"):
        st.dataframe(pd.DataFrame(list(d.sample)).astype(str).map(shown_text), hide_index=True, height=160)
    elif d.shape == "repository":
        # plain text, escaped: inside a code span (backticks) Markdown's escapes would show as "\."
        st.caption("First files: " + ", ".join(escape_markdown(s["path"]) for s in d.sample))
    elif d.shape == "list":
        st.code(shown_text(str(d.sample[0].get("text", "")))[:2000], language=None, wrap_lines=True)
    else:
        st.code(
            shown_text(json.dumps(d.sample[0], ensure_ascii=False, indent=1)[:4000]),
            language="json",
            wrap_lines=True,
        )


def shape_section(loaded: Loaded) -> tuple[Detected | None, dict[str, Any]]:
    """The shape detected, changeable, with a sample row and the fields to count; the Detected
    (None when the set cannot be counted: the page said why) and the options for the count."""
    first = detected(loaded, None)
    if isinstance(first, str):
        st.error(escape_markdown(first), icon=":material/block:")
        return None, {}
    shapes = [s for s in SHAPES if (s == "repository") == (first.shape == "repository")]
    c1, c2 = st.columns([2, 3], vertical_alignment="bottom")

    shape = c1.selectbox(
        "Shape", shapes, format_func=lambda s: shape_label(s, loaded.name), key="datasets_shape", persist_state="session",
        index=shapes.index(first.shape) if first.shape in shapes else 0,
        help="Detected from the file's name and first lines; change it if the guess is wrong.",
    )  # fmt: skip
    d = first if shape == first.shape else detected(loaded, shape)
    if isinstance(d, str):
        st.error(escape_markdown(d), icon=":material/block:")
        return None, {}
    rows_hint = f"{loaded.note} · " if loaded.note else ""
    array = f" (a JSON array of {first.array_items:,})" if first.array_items is not None else ""
    c2.caption(
        f"{escape_markdown(loaded.name)} · {rows_hint}{d.size:,} bytes · detected: {first.label}{array}"
    )
    options: dict[str, Any] = {"name": loaded.name, "detected": d}
    if d.shape == "jsonl" and d.fields:
        f1, f2 = st.columns(2)
        default = d.text_fields[0] if d.text_fields else None
        options["text_field"] = f1.selectbox(
            "Field that holds the text", list(d.fields), key="datasets_text_field", persist_state="session",
            index=list(d.fields).index(default) if default in d.fields else None, placeholder="Choose a field",
        )  # fmt: skip
        ids = [NO_ID, *d.fields]
        idf = f2.selectbox(
            "Field that names a row", ids, key="datasets_id_field", persist_state="session",
            index=ids.index(d.id_field) if d.id_field in ids else 0,
        )  # fmt: skip
        options["id_field"] = None if idf == NO_ID else idf
    elif d.shape in ("csv", "tsv", "parquet"):
        f1, f2 = st.columns(2)
        options["columns"] = f1.multiselect(
            "Columns that hold the text (joined by a blank line)", list(d.fields), key="datasets_columns",
            default=[c for c in d.text_fields if c in d.fields], persist_state="session",
        )  # fmt: skip
        ids = [NO_ID, *d.fields]
        idc = f2.selectbox(
            "Column that names a row", ids, key="datasets_id_column", persist_state="session",
            index=ids.index(d.id_field) if d.id_field in ids else 0,
        )  # fmt: skip
        options["id_column"] = None if idc == NO_ID else idc
    elif d.shape == "repository":
        r1, r2, r3 = st.columns(3)
        options["honour_gitignore"] = r1.toggle("Honour .gitignore", True, key="datasets_gitignore",
                                                persist_state="session")  # fmt: skip
        options["skip_vendored"] = r2.toggle("Skip vendored folders", True, key="datasets_vendored",
                                             persist_state="session")  # fmt: skip
        options["skip_locks"] = r3.toggle(
            "Skip lock files", True, key="datasets_locks", persist_state="session"
        )
        options["skip_secrets"] = st.toggle(
            "Skip files that may hold secrets", True, key="datasets_secrets", persist_state="session",
            help="By name (.env, private keys, *.pem, id_rsa...) and by content (a private key block, an AWS, "
            "GitHub, Slack, Google or API secret key), as repomix's security check does. Skipped files are "
            "listed with the reason.",
        )  # fmt: skip
    with st.expander("A sample of the set", icon=":material/visibility:", expanded=False):
        _sample_view(d)
    if d.problems:
        st.warning(
            "\n".join(f"- {escape_markdown(shown_text(p))}" for p in d.problems), icon=":material/warning:"
        )
    return d, options

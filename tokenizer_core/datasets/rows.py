"""Rows of a dataset, parsed from the lines or cells that hold them (pure functions).

A row is what one count is about: a chat request (OpenAI Batch request, fine-tuning example),
a text (a JSON field, table cells, a pasted line) or a repository file. Parsing never raises
for a bad row: it returns a :class:`RowError` with the line number, and the row is left out.

    >>> rows, errors = parse_lines([b'{"messages": [{"role": "user", "content": "Hi"}]}', b"{oops"],
    ...                            shape="finetune", first_line=1)
    >>> rows[0].messages[0].content, errors[0].line
    ('Hi', 2)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..workspace.formats import Message
from . import limits
from .jsonwords import json_problem

CHAT_SHAPES = ("batch", "finetune")
BATCH_KEYS = ("custom_id", "method", "url", "body")


@dataclass(frozen=True, slots=True)
class Row:
    """One counted unit. Chat rows have `messages` (and maybe `tools`); text rows have `text`."""

    id: str
    line: int  # 1-based line (JSONL), row (tables) or 0 (repository files)
    text: str = ""
    messages: tuple[Message, ...] = ()
    tools: tuple[dict, ...] = ()
    max_tokens: int | None = None  # the row's own max_tokens / max_completion_tokens
    weights: tuple[int, ...] = ()  # fine-tuning: per message, 1 trained on, 0 not (assistant only)

    @property
    def chat(self) -> bool:
        return bool(self.messages)


@dataclass(frozen=True, slots=True)
class RowError:
    """A row that could not be counted: its line and what is wrong, in a sentence."""

    line: int
    id: str
    problem: str

    def text(self) -> str:
        where = f"line {self.line:,}" if self.line else self.id
        return f"{where}: {self.problem}"


def _content_text(content: object) -> str | None:
    """A message's text: a string, or the text parts of a list of content parts (images are not
    text and are not counted). None: not a message content."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
        return "".join(texts)
    return None


def _messages(items: object, *, fine_tuning: bool) -> tuple[tuple[Message, ...], tuple[int, ...]] | str:
    """Messages (and their weights) from a JSON list, or a sentence saying what is wrong."""
    if not isinstance(items, list) or not items:
        return 'it has no "messages" list'
    out, weights = [], []
    for n, m in enumerate(items, start=1):
        if not isinstance(m, dict):
            return f"message {n} is not an object"
        role = m.get("role")
        if not isinstance(role, str) or not role:
            return f'message {n} has no "role"'
        text = _content_text(m.get("content"))
        if text is None:
            return f'message {n} has a "content" that is neither text nor a list of parts'
        calls = m.get("tool_calls") or m.get("function_call")
        if calls:  # an assistant's tool calls are sent back as their JSON
            text += json.dumps(calls, ensure_ascii=False)
        if not text and not calls and role != "assistant" and fine_tuning:
            return f'message {n} ({role}) has no "content"'
        weight = m.get("weight", 1)
        if weight not in (0, 1) or isinstance(weight, bool):
            return f'message {n} has a "weight" of {weight!r}: use 0 or 1'
        out.append(Message(role, text))
        weights.append(int(weight))
    if fine_tuning and not any(m.role == "assistant" for m in out):
        return "it has no assistant message: a fine-tuning example needs one to train on"
    return tuple(out), tuple(weights)


def _tools(value: object) -> tuple[dict, ...] | str:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        return '"tools" is not a list of tool objects'
    return tuple(value)


def _positive_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def batch_row(obj: dict, line: int) -> Row | str:
    """A row from one OpenAI Batch request line, or what is wrong with it."""
    cid = obj.get("custom_id")
    rid = str(cid) if cid is not None else f"line {line}"
    body = obj.get("body")
    if not isinstance(body, dict):
        return 'it has no "body" object'
    max_tokens = _positive_int(body.get("max_completion_tokens")) or _positive_int(body.get("max_tokens"))
    max_tokens = max_tokens or _positive_int(body.get("max_output_tokens"))
    url = str(obj.get("url", ""))
    if "embeddings" in url:
        value = body.get("input")
        texts = [value] if isinstance(value, str) else value
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 'an embeddings request needs "input" as text or a list of texts'
        return Row(rid, line, text="\n".join(texts))
    if "messages" not in body and "input" in body:  # /v1/responses
        inp = body["input"]
        items = [{"role": "user", "content": inp}] if isinstance(inp, str) else inp
        if isinstance(body.get("instructions"), str) and isinstance(items, list):
            items = [{"role": "developer", "content": body["instructions"]}, *items]
    else:
        items = body.get("messages")
    msgs = _messages(items, fine_tuning=False)
    if isinstance(msgs, str):
        return msgs
    tools = _tools(body.get("tools"))
    if isinstance(tools, str):
        return tools
    return Row(rid, line, messages=msgs[0], tools=tools, max_tokens=max_tokens)


def finetune_row(obj: dict, line: int) -> Row | str:
    """A row from one chat fine-tuning example, or what is wrong with it."""
    msgs = _messages(obj.get("messages"), fine_tuning=True)
    if isinstance(msgs, str):
        return msgs
    tools = _tools(obj.get("tools", obj.get("functions")))
    if isinstance(tools, str):
        return tools
    return Row(f"line {line}", line, messages=msgs[0], tools=tools, weights=msgs[1])


def text_row(obj: object, line: int, field: str, id_field: str | None) -> Row | str:
    """A text row from a JSON object's `field`, or what is wrong with it."""
    if not isinstance(obj, dict):
        return "it is not a JSON object"
    value = obj.get(field)
    if value is None:
        return f'it has no "{field}" field'
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    rid = str(obj.get(id_field)) if id_field and obj.get(id_field) is not None else f"line {line}"
    return Row(rid, line, text=text)


def parse_lines(
    lines: Iterable[bytes],
    *,
    shape: str,
    first_line: int,
    text_field: str = "text",
    id_field: str | None = None,
) -> tuple[list[Row], list[RowError]]:
    """Rows of consecutive JSONL lines (blank lines are skipped) for a shape: "batch", "finetune",
    "jsonl" (a text field) or "list" (each line is a text)."""
    rows: list[Row] = []
    errors: list[RowError] = []
    for n, raw in enumerate(lines, start=first_line):
        raw = raw.rstrip(b"\r\n")
        if not raw.strip():
            continue
        if len(raw) > limits.MAX_LINE_BYTES:
            errors.append(RowError(n, f"line {n}", f"the line is over {limits.mb(limits.MAX_LINE_BYTES)}"))
            continue
        if shape == "list":
            rows.append(Row(f"line {n}", n, text=raw.decode("utf-8", "replace")))
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            problem = json_problem(exc)
            errors.append(RowError(n, f"line {n}", f"not valid JSON ({problem})"))
            continue
        if shape in CHAT_SHAPES and not isinstance(obj, dict):
            got: Row | str = "it is not a JSON object"
        elif shape == "batch":
            got = batch_row(obj, n)
        elif shape == "finetune":
            got = finetune_row(obj, n)
        else:
            got = text_row(obj, n, text_field, id_field)
        if isinstance(got, str):
            errors.append(RowError(n, f"line {n}", got))
        else:
            rows.append(got)
    return rows, errors


def split_lines(data: bytes) -> list[bytes]:
    """``split_lines(b"a\\nb\\n") -> [b"a", b"b"]`` (a last line without newline is kept)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def table_rows(
    columns: Sequence[Sequence[object]], *, ids: Sequence[object] | None, first_row: int
) -> list[Row]:
    """Text rows from table columns (their cells joined by a blank line; empty cells left out)."""
    n = len(columns[0]) if columns else 0
    out = []
    for i in range(n):
        cells = [c[i] for c in columns]
        text = "\n\n".join(str(v) for v in cells if v is not None and v != "")
        row_no = first_row + i
        rid = str(ids[i]) if ids is not None and ids[i] is not None else f"row {row_no}"
        out.append(Row(rid, row_no, text=text))
    return out


__all__ = [
    "BATCH_KEYS", "CHAT_SHAPES", "Row", "RowError", "batch_row", "finetune_row", "parse_lines", "split_lines",
    "table_rows", "text_row",
]  # fmt: skip

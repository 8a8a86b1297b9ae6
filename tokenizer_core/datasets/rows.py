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
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import orjson

from ..catalog.images import ImagePart, image_part
from ..catalog.limits import NO_MAX_TOKENS_PREFIXES
from ..workspace.formats import Message
from . import limits
from .jsonwords import json_problem

CHAT_SHAPES = ("batch", "finetune", "gemini-batch", "mistral-batch", "anthropic-batch")
BATCH_KEYS = ("custom_id", "method", "url", "body")
# OpenAI Batch: the endpoints a batch may call (the Batch guide, "Create batch" in the API reference)
BATCH_ENDPOINTS = ("/v1/responses", "/v1/chat/completions", "/v1/embeddings", "/v1/completions",
                   "/v1/moderations")  # fmt: skip
# OpenAI embeddings (API reference, "Create embeddings"): inputs per request
MAX_EMBEDDING_INPUTS = 2_048
# Anthropic Message Batches ("Create a Message Batch" in its API reference): a custom_id's pattern
ANTHROPIC_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# OpenAI fine-tuning (the fine-tuning guide and its data-preparation notebook): what an example
# and a message may hold
FINE_TUNING_KEYS = frozenset({"messages", "tools", "functions", "parallel_tool_calls"})
FINE_TUNING_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
MESSAGE_KEYS = frozenset({"role", "content", "name", "function_call", "tool_calls", "tool_call_id", "weight",
                          "refusal"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Row:
    """One counted unit. Chat rows have `messages` (and maybe `tools`); text rows have `text`;
    an embeddings request has `inputs`, each counted on its own."""

    id: str
    line: int  # 1-based line (JSONL), row (tables) or 0 (repository files)
    text: str = ""
    messages: tuple[Message, ...] = ()
    tools: tuple[dict, ...] = ()
    max_tokens: int | None = None  # the row's own max_tokens / max_completion_tokens
    weights: tuple[int, ...] = ()  # fine-tuning: per message, 1 trained on, 0 not (assistant only)
    model: str = ""  # the model the request names ("": none)
    url: str = ""  # OpenAI Batch: the endpoint; other files: ""
    method: str = ""
    inputs: tuple[str, ...] = ()  # an embeddings request's inputs
    token_inputs: tuple[int, ...] = ()  # an embeddings request's inputs given as token ids: their lengths
    prompts: tuple[str, ...] = ()  # a completions request's prompts when it has several: each its own request
    prompt_ids: int = 0  # a completions request's prompts given as token ids: how many ids
    choices: int = 1  # completions the request asks for (`n`): each is billed as output
    images: tuple[ImagePart, ...] = ()  # images in the request (counted per model by its maker's rule)
    notes: tuple[str, ...] = ()  # parts of the request that are not counted, and why
    problems: tuple[str, ...] = ()  # what the provider would refuse in this row (found when reading it)
    failures: tuple[str, ...] = ()  # what makes this request fail when it runs (found when reading it)

    @property
    def chat(self) -> bool:
        return bool(self.messages)


@dataclass(frozen=True, slots=True)
class RowError:
    """A row that could not be counted: its line and what is wrong, in a sentence."""

    line: int
    id: str
    problem: str
    stage: str = (
        "read"  # "read": the provider would refuse the line too; "count": this app could not count it
    )

    def text(self) -> str:
        where = f"line {self.line:,}" if self.line else self.id
        return f"{where}: {self.problem}"


@dataclass(slots=True)
class _Parts:
    """What a message's content holds besides text: images, and parts not counted."""

    images: list[ImagePart]
    notes: list[str]


AUDIO_NOTE = "an audio part is not counted: its tokens depend on the sound's length, which is not read here"
FILE_NOTE = (
    "a file part (such as a PDF) is not counted: the provider counts the text and page images it extracts"
)
SCHEMA_NOTE = (
    "the response format's JSON schema is not counted: OpenAI documents no rule for how a schema is counted"
)


def _part_text(part: dict, parts: _Parts) -> str:
    """The text of one content part; images and parts not counted go to `parts`."""
    kind = part.get("type")
    image = image_part(part)
    if image is not None:
        parts.images.append(image)
        return ""
    if isinstance(part.get("text"), str):
        return part["text"]
    if isinstance(part.get("refusal"), str):
        return part["refusal"]
    if kind in ("input_audio", "audio") or "input_audio" in part:
        parts.notes.append(AUDIO_NOTE)
    elif kind in ("file", "input_file") or "file" in part:
        parts.notes.append(FILE_NOTE)
    else:
        parts.notes.append(f"a part of type {str(kind)[:40]!r} is not counted: no rule for it is known here")
    return ""


def _content_text(content: object, parts: _Parts) -> str | None:
    """A message's text: a string, or the text of a list of content parts (images and parts not
    counted are collected in `parts`). None: not a message content."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict):
                texts.append(_part_text(part, parts))
        return "".join(texts)
    return None


@dataclass(frozen=True, slots=True)
class _Chat:
    messages: tuple[Message, ...]
    weights: tuple[int, ...]
    images: tuple[ImagePart, ...]
    notes: tuple[str, ...]


def _messages(items: object, *, fine_tuning: bool) -> _Chat | str:
    """Messages (and their weights, images and parts not counted) from a JSON list, or a sentence
    saying what is wrong. Fine-tuning examples are held to OpenAI's format checks."""
    if not isinstance(items, list) or not items:
        return 'it has no "messages" list'
    out, weights = [], []
    parts = _Parts([], [])
    for n, m in enumerate(items, start=1):
        if not isinstance(m, dict):
            return f"message {n} is not an object"
        role = m.get("role")
        if not isinstance(role, str) or not role:
            return f'message {n} has no "role"'
        if fine_tuning:
            if role not in FINE_TUNING_ROLES:
                return f'message {n} has the role "{role[:40]}", which fine-tuning does not take'
            unknown = sorted(k for k in m if k not in MESSAGE_KEYS)
            if unknown:
                return f"message {n} has keys a message does not have: {', '.join(unknown[:5])}"
        text = _content_text(m.get("content"), parts)
        if text is None:
            return f'message {n} has a "content" that is neither text nor a list of parts'
        calls = m.get("tool_calls") or m.get("function_call")
        if calls:  # an assistant's tool calls are sent back as their JSON
            text += json.dumps(calls, ensure_ascii=False)
        if fine_tuning and "content" not in m and not calls:
            return f'message {n} ({role}) has no "content"'
        if not text and not calls and role != "assistant" and fine_tuning:
            return f'message {n} ({role}) has no "content"'
        weight = m.get("weight", 1)
        if "weight" in m and fine_tuning and role != "assistant":
            return f'message {n} ({role}) has a "weight": only assistant messages take one'
        if weight not in (0, 1) or isinstance(weight, bool):
            return f'message {n} has a "weight" of {weight!r}: use 0 or 1'
        out.append(Message(role, text))
        weights.append(int(weight))
    if fine_tuning and not any(m.role == "assistant" for m in out):
        return "it has no assistant message: a fine-tuning example needs one to train on"
    return _Chat(tuple(out), tuple(weights), tuple(parts.images), tuple(dict.fromkeys(parts.notes)))


def _tools(value: object) -> tuple[dict, ...] | str:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        return '"tools" is not a list of tool objects'
    return tuple(value)


def _positive_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _max_tokens(body: dict) -> int | None:
    """The output ceiling a request sets, under any of its endpoints' names for it."""
    for key in ("max_completion_tokens", "max_tokens", "max_output_tokens"):
        n = _positive_int(body.get(key))
        if n:
            return n
    return None


# OpenAI answers a request that sets both with 400 "Setting 'max_tokens' and 'max_completion_tokens'
# at the same time is not supported." (invalid_parameter_combination)
BOTH_MAX_TOKENS = "it sets both max_tokens and max_completion_tokens, which OpenAI refuses in one request"
# "Create embeddings": the input "cannot be an empty string"
EMPTY_INPUT = "an input is an empty text, which the embeddings endpoint refuses"
# what a request sets that fails it whatever the model (not a limit of the model)
NO_MAX_TOKENS = "its model does not take max_tokens: the o-series and GPT-5 models take max_completion_tokens"
# a model whose page lists text as its only input refuses an image part (docs/preflight-rules.md)
IMAGE_REFUSED = "it holds an image, and its model takes no images"
# failures that are not over a limit (the summary's "over the limit" leaves them out)
REQUEST_FAILURES = frozenset({BOTH_MAX_TOKENS, EMPTY_INPUT, NO_MAX_TOKENS, IMAGE_REFUSED})


def _choices(body: dict) -> int:
    """How many completions a request has generated and billed: ``n``, or the legacy completions
    endpoint's ``best_of`` (it generates that many and returns the best ``n``)."""
    return max(_positive_int(body.get("n")) or 1, _positive_int(body.get("best_of")) or 1)


def _schema_notes(body: dict) -> list[str]:
    fmt = body.get("response_format")
    text_format = body.get("text", {}).get("format") if isinstance(body.get("text"), dict) else None
    for f in (fmt, text_format):
        if isinstance(f, dict) and f.get("type") == "json_schema":
            return [SCHEMA_NOTE]
    return []


def _token_ids(value: object) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(t, int) and not isinstance(t, bool) for t in value)
    )


def _embedding_inputs(value: object) -> tuple[tuple[str, ...], tuple[int, ...]] | str:
    """An embeddings request's inputs: texts, and inputs given as token ids (their lengths). The
    API takes a text, a list of texts, a list of token ids, or a list of such lists.

    ``_embedding_inputs([[1, 2, 3], [4]]) -> ((), (3, 1))``
    """
    if _token_ids(value):
        return (), (len(value),)  # type: ignore[arg-type]
    items = [value] if isinstance(value, str) else value
    if isinstance(items, list) and items and all(isinstance(t, str) for t in items):
        return tuple(items), ()
    if isinstance(items, list) and items and all(_token_ids(t) for t in items):
        return (), tuple(len(t) for t in items)
    return 'an embeddings request needs "input" as a text, a list of texts, or token ids'


def _response_items(items: list) -> tuple[list, list[str]]:
    """Responses API input items as messages: a message item as it is, a function call as the
    assistant's (its name and arguments as JSON), a function call's output as a tool message;
    items that hold nothing to count here (reasoning, a reference to a stored item) get a note.

    ``_response_items([{"type": "function_call_output", "call_id": "c", "output": "42"}])[0]``
    -> ``[{"role": "tool", "content": "42"}]``
    """
    out: list = []
    notes: list[str] = []
    for item in items:
        if not isinstance(item, dict) or "role" in item:
            out.append(item)
            continue
        kind = str(item.get("type", ""))
        if "content" in item and kind in ("", "message"):
            out.append({"role": "user", **item})
        elif kind.endswith("_call_output") or (kind and "output" in item):
            output = item.get("output")
            text = output if isinstance(output, (str, list)) else json.dumps(output, ensure_ascii=False)
            out.append({"role": "tool", "content": text})
        elif kind.endswith("_call"):
            call = {k: item[k] for k in ("name", "arguments", "input", "action") if k in item}
            out.append({"role": "assistant", "content": json.dumps(call, ensure_ascii=False)})
        elif kind == "reasoning":
            notes.append("a reasoning item is not counted: its content is held by OpenAI")
        elif kind == "item_reference":
            notes.append("an item given by reference is not counted: its content is stored by OpenAI")
        else:
            notes.append(f"an input item of type {kind[:40]!r} is not counted: no rule for it is known here")
    return out, notes


def _request(rid: str, line: int, body: dict, *, url: str, method: str, problems: list[str]) -> Row | str:
    """A row from a request body of OpenAI's endpoints (chat completions, responses, embeddings,
    completions), or what is wrong with it."""
    model = body["model"] if isinstance(body.get("model"), str) else ""
    both = body.get("max_tokens") is not None and body.get("max_completion_tokens") is not None
    failures: tuple[str, ...] = (BOTH_MAX_TOKENS,) if both else ()
    if (
        url.endswith("/chat/completions")
        and body.get("max_tokens") is not None
        and model.startswith(NO_MAX_TOKENS_PREFIXES)
    ):
        failures = (*failures, NO_MAX_TOKENS)
    base = Row(rid, line, model=model, url=url, method=method, max_tokens=_max_tokens(body),
               choices=_choices(body), failures=failures)  # fmt: skip
    if url.endswith("/embeddings"):
        got = _embedding_inputs(body.get("input"))
        if isinstance(got, str):
            return got
        inputs, token_inputs = got
        k = len(inputs) + len(token_inputs)
        if k > MAX_EMBEDDING_INPUTS:
            problems.append(
                f"it has {k:,} inputs; an embeddings request takes at most {MAX_EMBEDDING_INPUTS:,}"
            )
        if "" in inputs:
            failures = (*failures, EMPTY_INPUT)
        return replace(base, inputs=inputs, token_inputs=token_inputs, problems=tuple(problems),
                       failures=failures)  # fmt: skip
    if url.endswith(("/completions", "/moderations")) and "messages" not in body:
        # "Create completion": a text, texts, token ids or lists of them; each prompt completed `n` times
        prompt = body.get("prompt" if url.endswith("/completions") else "input")
        ids = [prompt] if _token_ids(prompt) else prompt if isinstance(prompt, list) and prompt and all(_token_ids(p) for p in prompt) else None  # fmt: skip
        if ids is not None and url.endswith("/completions"):
            return replace(base, prompt_ids=sum(map(len, ids)), choices=base.choices * len(ids), problems=tuple(problems),
                           notes=("a prompt given as token ids is counted as its number of ids, on every model",))  # fmt: skip
        texts = [prompt] if isinstance(prompt, str) else prompt
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 'a completions request needs "prompt" as a text, a list of texts, or token ids'
        many = url.endswith("/completions") and len(texts) > 1
        return replace(base, text="".join(texts), prompts=tuple(texts) if many else (),
                       choices=base.choices * (len(texts) if many else 1), problems=tuple(problems))  # fmt: skip
    item_notes: list[str] = []
    if "messages" not in body and "input" in body:  # /v1/responses
        inp = body["input"]
        items = [{"role": "user", "content": inp}] if isinstance(inp, str) else inp
        if isinstance(items, list):
            items, item_notes = _response_items(items)
            if not items and item_notes:
                return "its input holds no item that can be counted"
        if isinstance(body.get("instructions"), str) and isinstance(items, list):
            items = [{"role": "developer", "content": body["instructions"]}, *items]
    else:
        items = body.get("messages")
    chat = _messages(items, fine_tuning=False)
    if isinstance(chat, str):
        return chat
    tools = _tools(body.get("tools"))
    if isinstance(tools, str):
        return tools
    builtin = [str(t.get("type"))[:40] for t in tools if t.get("type", "function") != "function"]
    if builtin:  # web search, file search, code interpreter...: not a function definition
        tools = tuple(t for t in tools if t.get("type", "function") == "function")
        item_notes += [f"a built-in tool of type {k!r} is not counted: OpenAI documents no rule for how it is "
                       "counted, and bills its calls apart" for k in builtin]  # fmt: skip
    notes = tuple(dict.fromkeys([*chat.notes, *item_notes, *_schema_notes(body)]))
    return replace(base, messages=chat.messages, tools=tools, images=chat.images, notes=notes,
                   problems=tuple(problems))  # fmt: skip


def _row_id(
    obj: dict, line: int, key: str = "custom_id", why: str = "", required: bool = True
) -> tuple[str, list[str]]:
    """A row's id (its line when it has none) and, when it has none and one is `required`, that problem.

    ``_row_id({"custom_id": "a"}, 3) -> ("a", [])``; ``_row_id({}, 3) -> ("line 3", ['it has no "custom_id"'])``
    """
    value = obj.get(key)
    if isinstance(value, str) and value:
        return value, []
    if value is not None and value != "":
        return str(value)[:200], [f'its "{key}" is {json.dumps(value)[:40]}, not a text{why}']
    return f"line {line}", [f'it has no "{key}"{why}'] if required else []


def batch_row(obj: dict, line: int) -> Row | str:
    """A row from one OpenAI Batch request line, or what is wrong with it. What the Batch API would
    refuse in a row it can still count (no custom_id, a method or endpoint it does not take) is
    kept in the row's `problems`."""
    rid, problems = _row_id(obj, line, why=" (every request needs one, unique in the file)")
    body = obj.get("body")
    if not isinstance(body, dict):
        return 'it has no "body" object'
    method = obj.get("method")
    if method != "POST":
        problems.append(f'its "method" is {method!r}; a Batch request is "POST"')
    url = obj.get("url")
    if url not in BATCH_ENDPOINTS:
        problems.append(
            f'its "url" {str(url)[:60]!r} is not an endpoint a batch takes ({", ".join(BATCH_ENDPOINTS)})'
        )
    if not isinstance(body.get("model"), str) or not body.get("model"):
        problems.append('its body names no "model"')
    return _request(rid, line, body, url=str(url or ""), method=str(method or ""), problems=problems)


def mistral_batch_row(obj: dict, line: int) -> Row | str:
    """A row of a Mistral batch file: ``{"custom_id", "body": {"messages", "max_tokens"}}``
    (the model is chosen when the job is created, not per line); ``custom_id`` optional, as in Mistral's schema."""
    rid, problems = _row_id(obj, line, required=False)
    body = obj.get("body")
    if not isinstance(body, dict):
        return 'it has no "body" object'
    return _request(rid, line, body, url="", method="", problems=problems)


def _gemini_parts(parts: object, images: list[ImagePart], notes: list[str]) -> str | None:
    if not isinstance(parts, list):
        return None
    texts = []
    for p in parts:
        if not isinstance(p, dict):
            return None
        image = image_part(p)
        if image is not None:
            images.append(image)
        elif isinstance(p.get("text"), str):
            texts.append(p["text"])
        else:
            kind = next(iter(p), "?")
            notes.append(
                f"a part of kind {str(kind)[:40]!r} is not counted: only text and images are counted here"
            )
    return "".join(texts)


def gemini_batch_row(obj: dict, line: int) -> Row | str:
    """A row of a Gemini batch file: ``{"key", "request": {"contents": [{"role", "parts"}]}}``. Google names no
    rule for the key: the verdict warns of a missing one, and any other value is the row's id."""
    rid = _row_id(obj, line, key="key")[0]
    req = obj.get("request")
    if not isinstance(req, dict):
        return 'it has no "request" object'
    contents = req.get("contents")
    if not isinstance(contents, list) or not contents:
        return 'its request has no "contents" list'
    images: list[ImagePart] = []
    notes: list[str] = []
    messages = []
    system = req.get("systemInstruction", req.get("system_instruction"))
    if isinstance(system, dict):
        text = _gemini_parts(system.get("parts"), images, notes)
        if text is None:
            return 'its "systemInstruction" has no "parts" list'
        messages.append(Message("system", text))
    for n, c in enumerate(contents, start=1):
        if not isinstance(c, dict):
            return f"content {n} is not an object"
        text = _gemini_parts(c.get("parts"), images, notes)
        if text is None:
            return f'content {n} has no "parts" list of objects'
        role = "assistant" if c.get("role") == "model" else "user"
        messages.append(Message(role, text))
    config = req.get("generationConfig", req.get("generation_config"))
    config = config if isinstance(config, dict) else {}
    max_tokens = _positive_int(config.get("maxOutputTokens", config.get("max_output_tokens")))
    # candidateCount: that many answers, each billed as output (Google's GenerationConfig)
    choices = _positive_int(config.get("candidateCount", config.get("candidate_count"))) or 1
    return Row(rid, line, messages=tuple(messages), max_tokens=max_tokens, images=tuple(images),
               notes=tuple(dict.fromkeys(notes)), choices=choices)  # fmt: skip


def anthropic_batch_row(obj: dict, line: int) -> Row | str:
    """A row of an Anthropic Message Batches file: ``{"custom_id", "params": {"model", "max_tokens",
    "messages"}}``, checked for its structure (no public tokenizer counts it)."""
    rid, problems = _row_id(obj, line)
    if not problems and not ANTHROPIC_ID.fullmatch(rid):
        problems.append('its "custom_id" is not 1 to 64 letters, digits, "_" or "-" (as Anthropic requires)')
    params = obj.get("params")
    if not isinstance(params, dict):
        return 'it has no "params" object'
    if not isinstance(params.get("model"), str):
        problems.append('its params name no "model"')
    if _positive_int(params.get("max_tokens")) is None:
        problems.append('its params have no "max_tokens" (Anthropic requires it)')
    chat = _messages(params.get("messages"), fine_tuning=False)
    if isinstance(chat, str):
        return chat
    system = params.get("system")
    messages = chat.messages
    if isinstance(system, str):
        messages = (Message("system", system), *messages)
    return Row(rid, line, messages=messages, max_tokens=_positive_int(params.get("max_tokens")),
               model=str(params.get("model") or ""), images=chat.images, notes=chat.notes,
               problems=tuple(problems))  # fmt: skip


def finetune_row(obj: dict, line: int) -> Row | str:
    """A row from one chat fine-tuning example, or what is wrong with it (OpenAI's format checks)."""
    unknown = sorted(k for k in obj if k not in FINE_TUNING_KEYS)
    if unknown:
        return f"it has keys a fine-tuning example does not have: {', '.join(unknown[:5])}"
    chat = _messages(obj.get("messages"), fine_tuning=True)
    if isinstance(chat, str):
        return chat
    tools = _tools(obj.get("tools", obj.get("functions")))
    if isinstance(tools, str):
        return tools
    return Row(f"line {line}", line, messages=chat.messages, tools=tools, weights=chat.weights,
               images=chat.images, notes=chat.notes)  # fmt: skip


ROW_READERS = {
    "batch": batch_row, "finetune": finetune_row, "gemini-batch": gemini_batch_row,
    "mistral-batch": mistral_batch_row, "anthropic-batch": anthropic_batch_row,
}  # fmt: skip


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


def loads(raw: bytes) -> Any:
    """A JSON line's value: orjson first (a line with base64 images is read several times faster),
    the standard parser for anything orjson refuses, so what is accepted, and the words of an
    error, are the standard parser's (orjson refuses lone surrogates and integers past 64 bits).

    ``loads(b'{"a": [1, 2]}') -> {"a": [1, 2]}``
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


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
            obj = loads(raw)
        except (ValueError, RecursionError) as exc:
            problem = json_problem(exc)
            errors.append(RowError(n, f"line {n}", f"not valid JSON ({problem})"))
            continue
        if shape in CHAT_SHAPES and not isinstance(obj, dict):
            got: Row | str = "it is not a JSON object"
        elif shape in ROW_READERS:
            got = ROW_READERS[shape](obj, n)
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


__all__ = [
    "BATCH_ENDPOINTS", "BATCH_KEYS", "CHAT_SHAPES", "MAX_EMBEDDING_INPUTS", "REQUEST_FAILURES", "ROW_READERS", "Row",
    "RowError",
    "anthropic_batch_row", "batch_row", "finetune_row", "gemini_batch_row", "mistral_batch_row", "parse_lines",
    "split_lines", "text_row",
]  # fmt: skip

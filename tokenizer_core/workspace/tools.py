"""Tool (function) definitions a user pastes: read from JSON into the OpenAI form, or a
sentence that says what to fix.

``parse_tools('{"name": "f"}') -> [{"type": "function", "function": {"name": "f"}}]``
"""

from __future__ import annotations

import json

from ..tokenizers.textio import json_problem
from .limits import MAX_TOOLS, JSONInputError, load_json


class ToolsError(ValueError):
    """Tool definitions that are not usable; the message says where and how to fix them."""


def parse_tools(text: str) -> list[dict]:
    """Tool definitions from JSON text: a list (or one object) of OpenAI-style tools
    (``{"type": "function", "function": {...}}``) or bare functions (``{"name": ..., "parameters": ...}``).

    Returns them in the OpenAI form; ``""`` gives ``[]``. Raises ToolsError saying what is wrong.
    """
    if not text.strip():
        return []
    try:
        data = load_json(text, what="tools")
    except json.JSONDecodeError as exc:
        raise ToolsError(f"The tools are not valid JSON: {json_problem(exc)}.") from None
    except JSONInputError as exc:
        raise ToolsError(str(exc)) from None
    items = data if isinstance(data, list) else [data]
    if len(items) > MAX_TOOLS:
        raise ToolsError(f"There are {len(items):,} tools; a request holds at most {MAX_TOOLS}: remove some.")
    out = []
    for n, item in enumerate(items, start=1):
        where = f"Tool {n}"
        if not isinstance(item, dict):
            raise ToolsError(
                f'{where} is not an object: each tool is {{"name": ..., "parameters": {{...}}}}.'
            )
        f = item.get("function", item) if item.get("type", "function") == "function" else None
        if not isinstance(f, dict):
            raise ToolsError(f'{where}: only function tools can be counted ("type": "function").')
        name = f.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ToolsError(f'{where} has no "name": give each function a name.')
        params = f.get("parameters", {"type": "object", "properties": {}})
        if not isinstance(params, dict) or params.get("type", "object") != "object":
            raise ToolsError(f"{where} ({name}): \"parameters\" must be a JSON Schema object "
                             '({"type": "object", "properties": {...}}).')  # fmt: skip
        if not isinstance(params.get("properties", {}), dict):
            raise ToolsError(f'{where} ({name}): "properties" must be an object of parameter schemas.')
        if "description" in f and not isinstance(f["description"], str):
            raise ToolsError(f'{where} ({name}): "description" must be text.')
        if problem := _schema_problem(params):
            raise ToolsError(f"{where} ({name}): {problem}.")
        out.append({"type": "function", "function": f})
    return out


# What the chat formats read from a parameter schema, and the JSON type each must have.
_SCHEMA_KEYS = {"description": str, "title": str, "enum": list, "required": list, "examples": list,
                "properties": dict, "items": dict, "oneOf": list, "anyOf": list, "allOf": list}  # fmt: skip
_JSON_TYPES = {str: "text", list: "a list", dict: "an object"}


def _schema_problem(schema: dict) -> str | None:
    """What in a tool's parameter schema the chat formats cannot read, or None.

    ``_schema_problem({"type": "object", "properties": {"a": 5}}) -> '"properties.a" must be a schema object'``
    """
    todo: list[tuple[object, str]] = [(schema, "parameters")]
    while todo:
        node, path = todo.pop()
        if not isinstance(node, dict):
            return f'"{path}" must be a schema object'
        for key, kind in _SCHEMA_KEYS.items():
            if key in node and not isinstance(node[key], kind):
                return f'"{path}.{key}" must be {_JSON_TYPES[kind]}'
        kinds = node.get("type", "")
        if not isinstance(kinds, (str, list)) or not all(isinstance(k, str) for k in (
                kinds if isinstance(kinds, list) else [kinds])):  # fmt: skip
            return f'"{path}.type" must be a type name or a list of them'
        if not all(isinstance(r, str) for r in node.get("required", [])):
            return f'"{path}.required" must be a list of parameter names'
        todo.extend((sub, f"{path}.properties.{key}") for key, sub in node.get("properties", {}).items())
        if "items" in node:
            todo.append((node["items"], f"{path}.items"))
        for key in ("oneOf", "anyOf", "allOf"):
            todo.extend((sub, f"{path}.{key}[{i}]") for i, sub in enumerate(node.get(key, [])))
    return None


__all__ = ["ToolsError", "parse_tools"]

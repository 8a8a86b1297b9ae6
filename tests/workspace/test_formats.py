"""The chat formats' shared record and registry: no module of the workspace imports one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tokenizer_core.workspace as workspace
from tokenizer_core.workspace import chat, formats

FAMILIES = ("openai_rule", "llama3_chat", "qwen_chat", "mistral_chat", "harmony", "deepseek_chat", "gemini_rule",
            "gemma_chat", "llama4_chat")  # fmt: skip

PACKAGE = Path(workspace.__file__).parent


def _imports(path: Path) -> set[str]:
    """The sibling modules a workspace module imports, at any depth of its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return found


def test_no_import_cycle_among_the_workspace_modules():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == target or (nxt not in seen and reaches(nxt, target, seen | {nxt})):
                return True
        return False

    cycles = sorted(m for m in graph if reaches(m, m, {m}))
    assert cycles == []


def test_the_family_modules_import_the_shared_types_not_chat():
    for name in (*FAMILIES, "formats"):
        assert "chat" not in _imports(PACKAGE / f"{name}.py"), name


def test_every_format_is_one_record_with_a_renderer_or_a_rule_and_the_order_is_kept():
    fmts = workspace.CHAT_FORMATS
    assert fmts is chat.CHAT_FORMATS
    assert list(fmts) == [
        "openai", "llama31", "llama3", "qwen3", "qwen25", "mistral_v3", "harmony", "deepseek_v4",
        "deepseek_v4_thinking", "gemini", "gemma3", "gemma2", "llama4", "mistral_sp_v1", "mistral_sp_v3",
        "mistral_sp_v7",
    ]  # fmt: skip
    for fid, fmt in fmts.items():
        assert fmt.id == fid
        assert (fmt.renderer is None) != (fmt.rule is None), fid
        assert fmt.rendered == (fmt.renderer is not None), fid
    assert fmts["mistral_sp_v3"].renderer is fmts["mistral_v3"].renderer  # the same request as with Tekken
    assert not any(isinstance(v, dict) and k.isupper() for k, v in vars(formats).items())  # no side registry


def test_a_format_needs_exactly_one_way_to_count():
    with pytest.raises(ValueError, match="renderer"):
        formats.ChatFormat("x", "X", ("o200k_base",), "", "")
    with pytest.raises(ValueError, match="renderer"):
        formats.ChatFormat(
            "x", "X", ("o200k_base",), "", "", renderer=lambda m, t: [], rule=lambda k, m, t: (0, (), 0)
        )


def test_the_examples_run():
    import doctest

    for module in (formats, chat):
        assert doctest.testmod(module).failed == 0, module.__name__

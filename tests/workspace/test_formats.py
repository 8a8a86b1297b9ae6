"""The chat formats' shared types and registry: no module of the workspace imports one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import tokenizer_core.workspace as workspace
from tokenizer_core.workspace import formats

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
    for name in ("harmony", "gemma_chat", "llama4_chat", "mistral_spm_chat", "gemini_rule", "formats"):
        assert "chat" not in _imports(PACKAGE / f"{name}.py"), name


def test_every_format_has_one_renderer_or_rule_and_the_order_is_kept():
    fmts = workspace.CHAT_FORMATS
    assert fmts is formats.CHAT_FORMATS
    assert list(fmts)[-7:] == [
        "gemini",
        "gemma3",
        "gemma2",
        "llama4",
        "mistral_sp_v1",
        "mistral_sp_v3",
        "mistral_sp_v7",
    ]
    for fid, fmt in fmts.items():
        assert (fid in formats.RENDERERS) == fmt.rendered, fid
        assert not (fid in formats.RENDERERS and fid in formats.RULES), fid
    assert formats.RENDERERS["mistral_sp_v3"] is formats.RENDERERS["mistral_v3"]


def test_the_examples_run():
    import doctest

    assert doctest.testmod(formats).failed == 0

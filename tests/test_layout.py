"""The package layout: a small public API at the top, and packages that only depend downwards."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tokenizer_core

PACKAGES = ("tokenizers", "workspace", "pricing", "bpe", "identifiers", "languages", "chunking")

# What each package may import from the others at run time (imports under TYPE_CHECKING are types
# only). The base imports no feature; features import the base (and the shared price table), never
# each other.
ALLOWED = {
    "tokenizers": set(),
    "pricing": {"tokenizers"},
    "workspace": {"tokenizers", "pricing"},
    "bpe": {"tokenizers"},
    "identifiers": {"tokenizers"},
    "languages": {"tokenizers", "pricing"},
    "chunking": {"tokenizers"},
}

CORE = Path(tokenizer_core.__file__).parent


def test_the_top_level_is_a_small_api_each_name_from_the_package_that_owns_it():
    names = tokenizer_core.__all__
    assert 25 <= len(names) <= 40 and len(set(names)) == len(names)
    owners: dict[str, list[str]] = {}
    for pkg in PACKAGES:
        module = importlib.import_module(f"tokenizer_core.{pkg}")
        for name in module.__all__:
            owners.setdefault(name, []).append(pkg)
    assert {n: p for n, p in owners.items() if len(p) > 1} == {}  # one owner per name
    for name in names:
        (pkg,) = owners[name]
        assert getattr(tokenizer_core, name) is getattr(
            importlib.import_module(f"tokenizer_core.{pkg}"), name
        )
    namespace: dict[str, object] = {}
    exec(f"from tokenizer_core import {', '.join(names)}", namespace)


def test_the_top_level_doc_runs():
    import doctest

    assert doctest.testmod(tokenizer_core).failed == 0


def test_natural_and_code_languages_keep_their_names():
    from tokenizer_core import identifiers
    from tokenizer_core.identifiers import languages as code_languages
    from tokenizer_core.languages import model

    assert tokenizer_core.Language is model.Language
    assert identifiers.CODE_LANGUAGES is code_languages.LANGUAGES
    assert identifiers.detect_code_language is code_languages.detect_language


def _runtime_imports(path: Path) -> set[str]:
    """Absolute `tokenizer_core.*` modules that `path` imports outside `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("tokenizer_core", *path.relative_to(CORE).with_suffix("").parts))
    package = package.removesuffix(".__init__") if path.name == "__init__.py" else package.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("tokenizer_core.")}


@pytest.mark.parametrize("pkg", PACKAGES)
def test_packages_only_import_downwards(pkg):
    files = sorted((CORE / pkg).rglob("*.py"))
    reached: dict[str, set[str]] = {}
    for path in files:
        for module in _runtime_imports(path):
            other = module.split(".")[1]
            if other in PACKAGES and other != pkg:
                reached.setdefault(other, set()).add(path.name)
    assert set(reached) <= ALLOWED[pkg], f"{pkg} reaches {reached}"

"""The package layout: a small public API at the top, and packages that only depend downwards."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tokenizer_core

BASE = ("tokenizers", "catalog")  # in order: each imports only the ones before it
FEATURES = ("workspace", "bpe", "identifiers", "languages", "chunking", "jobs", "inside")
# Built on features: whole sets count each chat row with the workspace's own count_request (the
# same code path as one request) and start Dask's worker processes with the pool's guard.
COMPOSITES = ("datasets",)
PACKAGES = (*BASE, *FEATURES, *COMPOSITES)

# What each package may import from the others at run time (imports under TYPE_CHECKING are types
# only). The base imports no feature (the catalog builds on the tokenizers only); features import
# the base, never each other.
ALLOWED = {
    "tokenizers": set(),
    "catalog": {"tokenizers"},
    "workspace": {"tokenizers", "catalog"},
    "bpe": {"tokenizers"},
    "identifiers": {"tokenizers", "catalog"},
    "languages": {"tokenizers", "catalog"},
    "chunking": {"tokenizers", "catalog"},
    "jobs": set(),
    "datasets": {"tokenizers", "catalog", "workspace", "jobs"},
    "inside": {"tokenizers"},
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


@pytest.mark.parametrize("pkg", PACKAGES)
def test_a_packages_exports_are_names_it_has(pkg):
    module = importlib.import_module(f"tokenizer_core.{pkg}")
    assert [name for name in module.__all__ if not hasattr(module, name)] == []
    assert len(set(module.__all__)) == len(module.__all__)


def test_the_top_level_doc_runs():
    import doctest

    assert doctest.testmod(tokenizer_core).failed == 0


def test_no_two_public_classes_share_a_name():
    """One name, one meaning: a class is never named like another package's (a code language is a
    `CodeLanguage`, a natural one a `Language`; a context window is no chunking `Window`)."""
    where: dict[str, list[str]] = {}
    for path in sorted(CORE.rglob("*.py")):
        if "data" in path.relative_to(CORE).parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(path.relative_to(CORE).as_posix())
    assert {name: files for name, files in where.items() if len(files) > 1} == {}


def _runtime_imports(path: Path, *, types_too: bool = False) -> set[str]:
    """Absolute `tokenizer_core.*` modules that `path` imports outside `if TYPE_CHECKING:` (and
    inside it too with `types_too`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("tokenizer_core", *path.relative_to(CORE).with_suffix("").parts))
    package = package.removesuffix(".__init__") if path.name == "__init__.py" else package.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if not types_too and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
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


def test_every_package_has_its_place_and_the_base_comes_first():
    assert {p.parent.name for p in CORE.glob("*/__init__.py")} == set(PACKAGES)
    for i, pkg in enumerate(BASE):
        assert ALLOWED[pkg] <= set(BASE[:i]), pkg
    for pkg in FEATURES:
        assert ALLOWED[pkg] <= set(BASE), pkg
    for pkg in COMPOSITES:  # no feature imports a composite (ALLOWED above), a composite no other composite
        assert ALLOWED[pkg] <= set(BASE) | set(FEATURES), pkg


@pytest.mark.parametrize("pkg", BASE)
def test_the_base_names_no_feature_not_even_for_a_type(pkg):
    """No arrow climbs from the base to a feature: the catalog and the tokenizers know no feature."""
    reached = {
        (module.split(".")[1], path.name)
        for path in sorted((CORE / pkg).rglob("*.py"))
        for module in _runtime_imports(path, types_too=True)
        if module.split(".")[1] in FEATURES
    }
    assert reached == set()


# ------------------------------------------------------------------ the module graph of the app

REPO = CORE.parent
LAYERS = ("app_pages", "ui", "tokenizer_core")  # each imports only the layers after it


def _module_files() -> dict[str, Path]:
    """Every module of the three layers by dotted name (`ui.bpe.steps`; a package by its own name).

    Pages are scripts (`app_pages/` is no package) and named `app_pages.<page>`; data files that
    happen to end in .py (code samples) sit outside any package and are left out.
    """
    modules: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((REPO / layer).rglob("*.py")):
            rel = path.relative_to(REPO)
            in_package = all(
                (REPO / Path(*rel.parts[:i]) / "__init__.py").exists() for i in range(1, len(rel.parts))
            )
            if not (in_package or (layer == "app_pages" and len(rel.parts) == 2)):
                continue
            parts = rel.with_suffix("").parts
            modules[".".join(parts[:-1] if path.name == "__init__.py" else parts)] = path
    return modules


def _imports(path: Path, module: str, *, types_too: bool = False) -> list[tuple[str, str]]:
    """What `path` imports outside `if TYPE_CHECKING:` (and inside it with `types_too`; at module
    level or inside a function), as
    (module, package) pairs of absolute names: `from a.b import c` gives ("a.b.c", "a.b"), meaning
    the module a.b.c if there is one, else a name from a.b; `import a.b` gives ("a.b", "a.b")."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if not types_too and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    found: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.extend((f"{target}.{a.name}", target) for a in node.names)
        elif isinstance(node, ast.Import):
            found.extend((a.name, a.name) for a in node.names)
    return found


def _graph(*, types_too: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of the app it imports.

    `from pkg import sub` is an edge to `pkg.sub` when that is a module, else to `pkg` (a name
    from its `__init__`). Importing a submodule also runs its parents' `__init__`, which Python
    allows to be under way: that is no edge.
    """
    modules = _module_files()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        edges = {sub if sub in modules else pkg for sub, pkg in _imports(path, module, types_too=types_too)}
        graph[module] = (edges & modules.keys()) - {module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted.

    >>> _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def test_the_cycle_finder_finds_cycles_and_only_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}) == [["a", "b"], ["c", "d"]]


def test_the_import_reader_reads_every_kind_of_import(tmp_path):
    source = (
        "from typing import TYPE_CHECKING\n"
        "import tokenizer_core.bpe\n"
        "from tokenizer_core import BPEModel\n"
        "from ..messages import leave_message\n"
        "from . import steps\n"
        "if TYPE_CHECKING:\n"
        "    from ui.state import types_only\n"
        "def later():\n"
        "    from .probe import probe_section\n"
    )
    (tmp_path / "use.py").write_text(source, encoding="utf-8")
    assert sorted(_imports(tmp_path / "use.py", "ui.bpe.use")) == [
        ("tokenizer_core.BPEModel", "tokenizer_core"),
        ("tokenizer_core.bpe", "tokenizer_core.bpe"),
        ("typing.TYPE_CHECKING", "typing"),
        ("ui.bpe.probe.probe_section", "ui.bpe.probe"),
        ("ui.bpe.steps", "ui.bpe"),
        ("ui.messages.leave_message", "ui.messages"),
    ]


def test_the_graph_holds_the_pages_and_the_modules_of_every_package():
    graph = _graph()
    assert {"app_pages.bpe", "ui", "ui.bpe", "ui.messages", "tokenizer_core.workspace.chat"} <= graph.keys()
    assert not any(m.startswith("tokenizer_core.data.") for m in graph)  # code samples are no modules
    assert {"tokenizer_core", "ui.widgets"} <= graph["app_pages.bpe"]
    assert "tokenizer_core.tokenizers.encoders" in graph["tokenizer_core.workspace.chat"]


def test_no_import_cycles_in_tokenizer_core_ui_or_the_pages():
    assert _cycles(_graph()) == []


def test_no_module_of_tokenizer_core_names_a_module_that_imports_it_even_for_a_type():
    """A job does not know its pool's class: the pool hands each job the one call it needs."""
    core = {m: {e for e in edges if e.startswith("tokenizer_core.")}
            for m, edges in _graph(types_too=True).items() if m.startswith("tokenizer_core.")}  # fmt: skip
    assert _cycles(core) == []


def test_layers_import_only_downwards():
    """Pages -> ui -> tokenizer_core; tokenizer_core imports neither the app nor Streamlit."""
    modules = _module_files()
    upward = []
    for module, path in modules.items():
        layer = LAYERS.index(module.split(".")[0])
        for _, name in _imports(path, module):
            top = name.split(".")[0]
            if top in LAYERS and LAYERS.index(top) < layer:
                upward.append((module, name))
            if module.startswith("tokenizer_core") and top == "streamlit":
                upward.append((module, name))
    assert sorted(set(upward)) == []


def test_a_pages_ui_package_is_imported_only_by_its_page_and_itself():
    graph = _graph()
    pages = {p.stem for p in (REPO / "app_pages").glob("*.py")}
    owned = {p.name for p in (REPO / "ui").iterdir() if (p / "__init__.py").exists() and p.name in pages}
    assert {"workspace", "datasets", "bpe", "inside", "identifiers", "languages", "chunks"} <= owned
    strays = []
    for module, edges in graph.items():
        for name in edges:
            parts = name.split(".")
            if parts[0] == "ui" and len(parts) > 1 and parts[1] in owned:
                page = parts[1]
                if module != f"app_pages.{page}" and not module.startswith(f"ui.{page}."):
                    strays.append((module, name))
    assert sorted(strays) == []


MAX_MODULE_LINES = 600  # a module a newcomer reads in one sitting; split a longer one by meaning


def test_no_module_is_longer_than_600_lines():
    lines = {
        path.relative_to(REPO).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in _module_files().values()
    }
    assert len(lines) > 100  # every module of the three layers is read
    assert {path: n for path, n in lines.items() if n > MAX_MODULE_LINES} == {}


# Files that still name `st.session_state` by an alias (every other module writes it out).
KNOWN_STATE_ALIASES = {
    "ui/jobs.py",
    "ui/live_text.py",
}


def test_the_session_state_goes_by_its_own_name():
    aliased = set()
    for path in _module_files().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and ast.unparse(node.value) == "st.session_state":
                aliased.add(path.relative_to(REPO).as_posix())
    assert aliased - KNOWN_STATE_ALIASES == set()
    assert KNOWN_STATE_ALIASES - aliased == set(), "no alias left there: remove it from KNOWN_STATE_ALIASES"

"""The browser side of the app's components lives in files (ui/components/), not in Python
strings, and is linted: ESLint (pinned in package.json, installed by ``python -m tests.refs``) and
Node's own parser for the JavaScript, a strict reading of the CSS and the HTML; and the files
ship with the app (the Docker image copies them)."""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.refs import eslint

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = ROOT / "ui" / "components"
JS = sorted(COMPONENTS.glob("*.js"))
CSS = sorted(COMPONENTS.glob("*.css"))
HTML = sorted(COMPONENTS.glob("*.html"))
APP = [
    ROOT / "streamlit_app.py",
    *sorted((ROOT / "app_pages").rglob("*.py")),
    *sorted((ROOT / "ui").rglob("*.py")),
]

# Modules whose component code is still in Python strings (remove a module once it is moved).
KNOWN_INLINE: set[str] = set()


def _missing(what: str, fix: str) -> None:
    """A tool the test needs is missing: fail under CI, skip on a laptop."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and {what} is missing: {fix}", pytrace=False)
    pytest.skip(f"{what} is missing: {fix}")


def inline_front_end(source: str) -> list[str]:
    """``"line: what"`` for each string of more than one line that is HTML, CSS or JS: an
    ``html=``/``css=``/``js=`` argument of a ``component(...)`` call, or a constant named
    ``*_JS``/``*_CSS``/``*_HTML``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        values = []
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "component"
        ):
            values = [(k.arg, k.value) for k in node.keywords if k.arg in ("html", "css", "js")]
        elif isinstance(node, ast.Assign):
            values = [
                (t.id, node.value)
                for t in node.targets
                if isinstance(t, ast.Name) and re.search(r"(^|_)(JS|CSS|HTML)$", t.id)
            ]
        for name, value in values:
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                value = value.func.value  # """...""".replace(...)
            if isinstance(value, ast.JoinedStr):
                text = "".join(str(v.value) for v in value.values if isinstance(v, ast.Constant))
            else:
                text = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else ""
            if "\n" in text.strip():
                out.append(f"{value.lineno}: {name}")
    return sorted(out, key=lambda hit: int(hit.split(":")[0]))


def test_component_code_is_in_files_not_in_python_strings():
    found = {
        rel: hits
        for p in APP
        if (rel := p.relative_to(ROOT).as_posix()) not in KNOWN_INLINE
        and (hits := inline_front_end(p.read_text()))
    }
    assert found == {}, "move it to ui/components/ and read it with ui.components.read"
    known = {rel for rel in KNOWN_INLINE if (ROOT / rel).exists()}  # a module may go away
    still = {rel for rel in known if inline_front_end((ROOT / rel).read_text())}
    assert still == known, "moved: take it off KNOWN_INLINE"


def test_the_inline_scan_sees_strings_and_calls():
    src = '''
_JS = """
export default function () {
}
"""
x = st.components.v2.component("a", html="<span hidden></span>", css=""".a {
}""")
MY_CSS = f"""
.{k} {{
}}
"""
NOTE = """two
lines"""
'''
    assert inline_front_end(src) == ["2: _JS", "6: css", "8: MY_CSS"]


def test_every_file_is_read_by_its_module_and_every_read_file_exists():
    read = {}
    for p in APP:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "read":
                (arg,) = node.args
                read[ast.literal_eval(arg)] = p.relative_to(ROOT).as_posix()
    files = {p.name for p in COMPONENTS.iterdir() if p.suffix in {".js", ".css", ".html"}}
    assert files == set(read), "a file no module reads, or a read of a file that is not there"
    for name, module in read.items():  # beside their component: named after the module
        stem = name.rsplit(".", 1)[0]  # fast_first_view.js: a second component of fast_first.py
        assert any(module.endswith(f"/{stem.rsplit('_', k)[0]}.py") for k in range(stem.count("_") + 1)), (
            name,
            module,
        )


def test_eslint_finds_nothing():
    binary = eslint()
    if binary is None:
        _missing("the pinned ESLint (package.json)", "run python -m tests.refs (npm ci)")
    done = subprocess.run(
        [str(binary), "--max-warnings=0", "ui/components"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_eslint_would_say_so(tmp_path):
    """The linter is on: a file with an undefined name and an unused one fails it."""
    binary = eslint()
    if binary is None:
        _missing("the pinned ESLint (package.json)", "run python -m tests.refs (npm ci)")
    bad = COMPONENTS / "_lint_probe.js"
    bad.write_text(
        "export default function ({ data }) {\n  const unused = 1;\n  return undefinedName + data;\n}\n"
    )
    try:
        done = subprocess.run([str(binary), str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        bad.unlink()
    assert done.returncode == 1
    assert "no-unused-vars" in done.stdout and "no-undef" in done.stdout


@pytest.mark.parametrize("path", JS, ids=lambda p: p.name)
def test_node_parses_each_module(path, tmp_path):
    """Node's own parser, as an ES module (what components v2 load); no install needed."""
    node = shutil.which("node")
    if node is None:
        _missing("node", "apt-get install nodejs")
    module = tmp_path / (path.stem + ".mjs")
    module.write_text(path.read_text())
    done = subprocess.run([node, "--check", str(module)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^export default function", path.read_text(), re.M)  # what Streamlit calls


def css_problems(css: str) -> list[str]:
    """What a strict reading of a style sheet finds: unclosed comments, strings or brackets, and
    declarations that are not ``property: value``."""
    problems = []
    text = re.sub(r"/\*.*?\*/", " ", css, flags=re.S)
    if "/*" in text or "*/" in text:
        problems.append("an unclosed comment")
    text = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', text)
    if re.search(r"[\"']", text.replace('""', "")):
        problems.append("an unclosed string")
    depth, paren = 0, 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        paren += (ch == "(") - (ch == ")")
        if depth < 0 or paren < 0:
            problems.append("a closing bracket without an opening one")
            break
    if depth or paren:
        problems.append("an unclosed bracket")
    for body in re.findall(r"\{([^{}]*)\}", text):  # innermost blocks: declarations
        for decl in filter(None, (d.strip() for d in body.split(";"))):
            if not re.fullmatch(r"-{0,2}[a-zA-Z][\w-]*\s*:\s*\S.*", decl, flags=re.S):
                problems.append(f"not a declaration: {decl!r}")
    if re.search(r"\{\s*\}", text):
        problems.append("an empty rule")
    return problems


@pytest.mark.parametrize("path", CSS, ids=lambda p: p.name)
def test_each_style_sheet_reads_cleanly(path):
    assert css_problems(path.read_text()) == []


def test_the_css_check_would_say_so():
    assert css_problems(".a { color: red; }\n@media (x) { .b { margin: 0 } }") == []
    assert css_problems(".a { color red; }") == ["not a declaration: 'color red'"]
    assert css_problems(".a { color: red; ") == ["an unclosed bracket"]
    assert css_problems("/* x .a { }") == ["an unclosed comment", "an empty rule"]


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self.problems.append(f"<{tag}> in the HTML: put it in the .js or .css file")
        self.problems += [f"inline handler {a}" for a, _ in attrs if a.startswith("on")]
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.problems.append(f"</{tag}> closes nothing open")


def html_problems(html: str) -> list[str]:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser.problems + [f"<{t}> not closed" for t in parser.open]


@pytest.mark.parametrize("path", HTML, ids=lambda p: p.name)
def test_each_html_file_is_well_formed(path):
    assert html_problems(path.read_text()) == []


def test_the_html_check_would_say_so():
    assert html_problems('<div class="a"><input type="text"><ul></ul></div>') == []
    assert html_problems("<div><span></div>") == ["</div> closes nothing open", "<div> not closed"]
    assert html_problems('<button onclick="x()">') == ["inline handler onclick", "<button> not closed"]


def test_the_files_ship_in_the_image():
    """The Dockerfile copies the repository; .dockerignore leaves none of the files out."""
    assert "COPY --chown=app:app . ." in (ROOT / "Dockerfile").read_text()
    patterns = [
        p.strip()
        for p in (ROOT / ".dockerignore").read_text().splitlines()
        if p.strip() and not p.startswith(("#", "!"))
    ]
    for path in [*JS, *CSS, *HTML, COMPONENTS / "__init__.py"]:
        rel = path.relative_to(ROOT)
        for part in [rel, *rel.parents]:
            left_out = [p for p in patterns if fnmatch.fnmatch(part.as_posix(), p)]
            assert left_out == [], (rel.as_posix(), left_out)

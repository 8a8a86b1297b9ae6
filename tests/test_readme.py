"""The README and docs/: the notebook session runs, the commands are the ones CI runs, every link
lands, and the tokenizer table names every built-in with a hash the code checks."""

from __future__ import annotations

import doctest
import re
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tokenizer_core import BUILTINS

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
RUN = "pip install -r requirements.txt && streamlit run streamlit_app.py"


def _sessions(text: str) -> list[str]:
    """The ```pycon blocks of a Markdown text: `_sessions("```pycon\\n>>> 1\\n1\\n```")` -> [">>> 1\\n1\\n"]."""
    return re.findall(r"^```pycon\n(.*?)^```", text, flags=re.S | re.M)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: `_slug("Serving a team (many)")` -> "serving-a-team-many"."""
    kept = "".join(c for c in heading.strip().lower() if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (outside code blocks)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_the_notebook_session_runs_as_written():
    (session,) = _sessions(README.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(session, {}, "README.md", str(README), 0)
    assert len(test.examples) >= 15
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_the_sessions_in_the_docs_run_as_written(path):
    for number, session in enumerate(_sessions(path.read_text(encoding="utf-8"))):
        test = doctest.DocTestParser().get_doctest(session, {}, f"{path.name} #{number}", str(path), 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0


def test_a_wrong_output_in_the_session_would_fail():
    (session,) = _sessions(README.read_text(encoding="utf-8"))
    broken = session.replace("[15339, 1917]", "[15339, 1918]", 1)
    assert broken != session
    test = doctest.DocTestParser().get_doctest(broken, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(verbose=False)
    runner.run(test, out=lambda _: None)
    assert runner.failures == 1


def test_the_two_commands_are_the_ones_ci_runs():
    readme = README.read_text(encoding="utf-8")
    commands = re.findall(r"^    (pip install .+)$", readme, flags=re.M)
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("pip install")]
    assert len(ci) == 1
    assert commands == [RUN, ci[0]]


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_every_relative_link_lands(path):
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links or path.name != "README.md"
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        assert file.exists(), f"{path.name}: {link} points nowhere"
        if anchor:
            assert anchor in _anchors(file), f"{path.name}: {link} has no such heading"


def test_the_readme_fits_on_a_screen_and_links_every_doc():
    readme = README.read_text(encoding="utf-8")
    assert len(readme.encode()) < 12 * 1024
    for doc in DOCS:
        assert f"](docs/{doc.name})" in readme, f"the README does not link {doc.name}"


def test_the_tokenizer_table_names_every_builtin_with_a_hash_the_code_checks():
    table = (ROOT / "docs" / "tokenizers.md").read_text(encoding="utf-8")
    rows = [
        line
        for line in table.splitlines()
        if line.startswith("| ") and ("sha256" in line or "digest" in line)
    ]
    named = {line.split("|")[1].strip() for line in rows}
    assert named == {spec.info.name for spec in BUILTINS.values()}
    code = "".join(p.read_text() for p in (ROOT / "tokenizer_core" / "tokenizers").glob("*.py"))
    prefixes = set(re.findall(r"`([0-9a-f]{8})…`", table))
    assert len(prefixes) >= 10
    for prefix in prefixes:
        assert re.search(rf'"{prefix}[0-9a-f]{{56}}"', code), f"{prefix}… is not a hash the code checks"

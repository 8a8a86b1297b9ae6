"""mypy over tokenizer_core (the settings in pyproject.toml), as a test: it runs beside the others
in the test command's processes instead of before them, and a type error fails the run with
mypy's own report. In a process of its own: mypy raises the interpreter's recursion limit, and
the tests that follow in a test process must meet the interpreter the app runs in."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_tokenizer_core_type_checks():
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )  # pyproject.toml's [tool.mypy] names the files
    assert done.returncode == 0, done.stdout + done.stderr

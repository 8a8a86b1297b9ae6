"""mypy over tokenizer_core (the settings in pyproject.toml), as a test: it runs beside the others
in the test command's processes instead of before them, and a type error fails the run with
mypy's own report."""

from __future__ import annotations

from tests.conftest import ROOT


def test_tokenizer_core_type_checks(monkeypatch):
    from mypy import api

    monkeypatch.chdir(ROOT)  # pyproject.toml's [tool.mypy] and its `files`
    out, err, status = api.run([])
    assert status == 0, out + err

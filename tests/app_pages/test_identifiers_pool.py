"""The identifiers page with the analysis sent to the worker pool (as for a large file): same table."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY

PAGE = "app_pages/identifiers.py"


def _table(at):
    return next(df.value for df in at.dataframe if "identifier" in df.value.columns)


def _page(monkeypatch, limit: str) -> AppTest:
    monkeypatch.setenv("TW_IDENT_IN_PROCESS_MAX_CHARS", limit)
    monkeypatch.setenv("TW_WORKERS", "1")
    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=90)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("sample", ["Python: inventory service", "TypeScript: orders API client"])
def test_the_analysis_in_a_worker_equals_the_one_in_process(monkeypatch, sample):
    tables = []
    for limit in ("0", "100000000"):  # every file to the pool, then none
        at = _page(monkeypatch, limit)
        at.selectbox(key="identifiers_sample").set_value(sample)
        at.button(key="identifiers_load_sample").click().run()
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        tables.append((_table(at), [(m.label, m.value) for m in at.metric]))
    (pooled, m1), (local, m2) = tables
    assert m1 == m2
    assert pooled.equals(local)

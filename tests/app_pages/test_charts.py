"""Every chart the pages draw is the one `st.altair_chart` would draw, and its spec is valid.

The pages send `vega_lite_spec(chart)` (tokenizer_core/tokenizers/vega.py) to `st.vega_lite_chart`:
no schema check on each run, and no lock shared by the sessions. Here each chart a page builds is
caught on its way there and converted again by Streamlit's own Altair path, which checks the
spec against the Vega-Lite schema: the two specs must be the same but for the datasets' names,
and each name must hold the same table (the same Arrow bytes as Streamlit would send). And each
chart gives Altair its channels as objects, which it does not have to look up in its schema.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.app_pages.test_datasets import MODELS, count, upload
from tests.conftest import ok, open_app
from tests.datasets.samples import repo_zip
from tokenizer_core.tokenizers.vega import vega_lite_spec as converted  # not caught below


@pytest.fixture
def drawn(monkeypatch):
    """The Altair charts given to `vega_lite_spec` while the fixture lives, in order."""
    charts = []

    def catch(chart):
        charts.append(chart)
        return real(chart)

    real = converted
    for module in list(sys.modules.values()):  # the pages import the name itself
        if getattr(module, "vega_lite_spec", None) is real:
            monkeypatch.setattr(module, "vega_lite_spec", catch)
    return charts


@pytest.fixture
def matched(monkeypatch):
    """What the charts built while the fixture lives gave Altair to match against its schema: a
    string ("n:Q") or dict given to `encode` instead of a channel object. Altair then looks through
    all its schema's classes for each, a few milliseconds per string on every run of the page."""
    from altair.utils import core
    from altair.utils.schemapi import SchemaBase

    found = []
    wrap = core._ChannelCache._wrap_in_channel

    def spy(self, obj, encoding):
        if not isinstance(obj, (SchemaBase, list, tuple)):  # a list's items come back here one by one
            found.append(f"{encoding}={obj!r}")
        return wrap(self, obj, encoding)

    monkeypatch.setattr(core._ChannelCache, "_wrap_in_channel", spy)
    return found


def canonical(spec: dict, tables: dict[str, bytes]) -> tuple[str, list[bytes]]:
    """The spec as JSON with its datasets' names replaced by their order of use, and the tables in
    that order."""
    names: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "data" and isinstance(value, dict) and "name" in value and value["name"] in tables:
                    if value["name"] not in names:
                        names.append(value["name"])
                    value = {**value, "name": f"#{names.index(value['name'])}"}
                node = {**node, key: walk(value)}
            return node
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    body = walk({k: v for k, v in spec.items() if k != "datasets"})
    return json.dumps(body, sort_keys=True), [tables[n] for n in names]


def same_as_streamlit(chart) -> None:
    from streamlit import dataframe_util
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

    theirs = _convert_altair_to_vega_lite_spec(chart)  # validates against the schema
    ours = converted(chart)
    ours_tables = {n: dataframe_util.convert_anything_to_arrow_bytes(d) for n, d in ours["datasets"].items()}
    assert canonical(ours, ours_tables) == canonical(theirs, theirs["datasets"])


def identifiers_tabs(at):
    for label in ("Naming styles", "Layout"):
        at.session_state["identifiers_tab"] = label
        ok(at.run())


def bpe_steps(at):
    ok(at.button(key="bpe_train").click().run())


def datasets_repository(at):
    upload(at, "proj.zip", repo_zip())
    count(at)


PAGES = [  # the page, the state it opens with, what shows the rest of its charts, and how many
    pytest.param(None, None, None, 1, id="workspace"),
    pytest.param("app_pages/languages.py", None, None, 3, id="languages"),
    pytest.param("app_pages/chunks.py", None, None, 2, id="chunks"),
    pytest.param("app_pages/identifiers.py", None, identifiers_tabs, 6, id="identifiers"),
    pytest.param("app_pages/bpe.py", None, bpe_steps, 3, id="bpe"),
    pytest.param("app_pages/datasets.py", {"datasets_models": MODELS}, datasets_repository, 3, id="datasets"),
]


@pytest.mark.parametrize(("page", "state", "more", "at_least"), PAGES)
def test_every_chart_is_what_streamlit_draws_from_the_altair_chart(
    drawn, matched, page, state, more, at_least
):
    at = open_app(page, state=state)
    if more:
        more(at)
    assert len(drawn) >= at_least
    for chart in drawn:
        same_as_streamlit(chart)
    assert matched == []  # each channel given as an object (see `matched`)

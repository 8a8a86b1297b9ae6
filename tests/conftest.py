"""Shared fixtures: built-in tokenizers loaded once per test session, AppTest helpers."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers.count_cards import read_count_cards
from tokenizer_core import BUILTINS, Tokenizer, load_builtin

ROOT = Path(__file__).resolve().parent.parent
ENTRY = str(ROOT / "streamlit_app.py")


# The hosted configuration (.streamlit/config.toml) hides an uncaught error's details; a test
# that meets one shows them (AppTest reads that file; an option set here outranks it).
def _show_error_details() -> None:
    from streamlit import config

    config.get_option("client.showErrorDetails")  # the config files are read first
    config.set_option("client.showErrorDetails", "full")


_show_error_details()

settings.register_profile(
    "default", deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")

ALL_IDS = list(BUILTINS)


@functools.cache
def builtin(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once for the whole test session."""
    return load_builtin(tokenizer_id)


@pytest.fixture(params=[pytest.param(i, id=i) for i in ALL_IDS])
def any_builtin(request) -> Tokenizer:
    """Parametrised over every built-in tokenizer, with readable test ids."""
    return builtin(request.param)


@pytest.fixture
def app():
    """A fresh AppTest of the whole app (entry file), run once; cached results cleared.

    Tokenizers stay cached between tests (st.cache_resource): they are immutable and slow to load.
    """
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def token_views(at) -> list[dict]:
    """The data of every light token view an AppTest run placed (AppTest runs no JavaScript)."""
    import json

    return [
        json.loads(el.proto.bytes.decode("utf-8"))
        for el in at.get("bidi_component")
        if el.proto.component_name == "tw_token_view"
    ]


def shown_counts(at) -> dict[str, str]:
    """Every count on the page, label -> value as shown: the workspace's count cards and the
    metrics of the other pages (their labels unescaped)."""
    shown = {m.label.replace("\\", ""): m.value for m in at.metric}
    return shown | read_count_cards(md.value for md in at.markdown)

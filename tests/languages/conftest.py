"""The bundled parallel sample, loaded once per test module, and a lookup by code."""

from __future__ import annotations

import pytest

from tokenizer_core import Language
from tokenizer_core.languages import load_parallel_sample


@pytest.fixture(scope="module")
def sample() -> list[Language]:
    return load_parallel_sample()


def by_code(langs, *codes):
    d = {l.code: l for l in langs}
    return [d[c] for c in codes]

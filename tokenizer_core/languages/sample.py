"""The bundled parallel sample: one short support reply in 26 languages, and its provenance.

Written for this project (``data/languages/parallel.json``); :func:`parallel_sample_info` says
how, and under which license.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .language import Language


@dataclass(frozen=True, slots=True)
class SampleInfo:
    title: str
    written: str
    provenance: str
    license: str
    format: str
    n_languages: int


def _sample_path():
    return resources.files("tokenizer_core") / "data" / "languages" / "parallel.json"


@cache
def _sample_json() -> dict:
    return json.loads(_sample_path().read_text(encoding="utf-8"))


def load_parallel_sample() -> list[Language]:
    """The bundled parallel sample: the same support reply in 26 languages, English first.

    ``[l.code for l in load_parallel_sample()][:3] -> ["en", "es", "fr"]``
    """
    out = []
    for entry in _sample_json()["languages"]:
        out.append(
            Language(
                code=entry["code"], name=entry["name"], script=entry["script"], text=entry["text"],
                whitespace_words=bool(entry["whitespace_words"]), direction=entry["direction"],
                native_name=entry.get("native_name", ""), words_note=entry.get("words_note", ""),
                script_code=entry.get("script_code", ""),
            )
        )  # fmt: skip
    return out


def parallel_sample_info() -> SampleInfo:
    """Title, date, provenance and license of the bundled sample (shown on the page)."""
    d = _sample_json()
    return SampleInfo(
        title=d["title"], written=d["written"], provenance=d["provenance"], license=d["license"],
        format=d["format"], n_languages=len(d["languages"]),
    )  # fmt: skip

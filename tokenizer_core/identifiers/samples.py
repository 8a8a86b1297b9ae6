"""Bundled code samples (tokenizer_core/data/code_samples), written for this app."""

from __future__ import annotations

from importlib import resources

from ..tokenizers.textio import InputError
from .languages import language_from_filename

# Samples offered on the page: label -> file name. Other files in the folder are test fixtures
# (one small real-looking file per language, and broken code).
CODE_SAMPLES: dict[str, str] = {
    "Python: inventory service": "inventory.py",
    "TypeScript: orders API client": "api_client.ts",
    "Go: rate limiter": "ratelimit.go",
    "SQL: monthly revenue report": "reports.sql",
}


def _folder():
    return resources.files("tokenizer_core") / "data" / "code_samples"


def code_sample_files() -> list[str]:
    """Every file in the samples folder: ``['InvoiceController.cs', 'api_client.ts', ...]``."""
    return sorted(p.name for p in _folder().iterdir() if p.is_file())


def load_code_file(filename: str) -> tuple[str, str]:
    """(text, language id) of a file in the samples folder: ``load_code_file("ratelimit.go")``."""
    path = _folder() / filename
    if "/" in filename or "\\" in filename or not path.is_file():
        raise InputError(f"no code sample named {filename!r}; choose one of {code_sample_files()}")
    language = language_from_filename(filename)
    if language is None:
        raise InputError(f"{filename} has no known code extension")
    return path.read_text(encoding="utf-8"), language


def load_code_sample(label: str) -> tuple[str, str]:
    """(text, language id) of a page sample by its label (a key of CODE_SAMPLES)."""
    if label not in CODE_SAMPLES:
        raise InputError(f"no sample called {label!r}; choose one of {list(CODE_SAMPLES)}")
    return load_code_file(CODE_SAMPLES[label])

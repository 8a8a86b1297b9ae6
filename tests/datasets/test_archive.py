"""Repository archives: hostile ones refused before any work, .gitignore read as git reads it,
binaries, vendored folders and lock files skipped with their reason, nothing extracted."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.datasets.samples import REPO_BINARY, REPO_FILES, repo_zip, tar_gz
from tokenizer_core.datasets import DatasetError, count_dataset, detect
from tokenizer_core.datasets.archive import plan_archive, read_files
from tokenizer_core.datasets.limits import MAX_ARCHIVE_ENTRIES


def _zip(entries: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("name", ["../evil.py", "repo/../../evil.py", "/etc/cron.d/evil", "C:/evil.py"])
def test_a_zip_with_a_path_out_of_the_archive_is_refused(name):
    data = _zip({"repo/ok.py": b"x = 1\n", name: b"import os\n"})
    with pytest.raises(DatasetError, match="points outside the archive"):
        plan_archive("repo.zip", data)
    with pytest.raises(DatasetError, match="points outside the archive"):
        detect("repo.zip", data)


def test_a_tar_with_a_path_out_of_the_archive_is_refused():
    data = tar_gz({"repo/ok.py": b"x = 1\n", "repo/../../../tmp/evil.py": b"import os\n"})
    with pytest.raises(DatasetError, match="points outside the archive"):
        plan_archive("repo.tar.gz", data)


def test_links_are_listed_as_skipped_and_never_followed():
    data = tar_gz({"repo/a.py": b"a = 1\n"}, links={"repo/passwd": "/etc/passwd", "repo/up": "../../secret"})
    plan = plan_archive("repo.tar.gz", data)
    assert plan.files == ("a.py",)
    assert {(s.path, s.reason) for s in plan.skipped} == {
        ("passwd", "a link (links are not followed)"),
        ("up", "a link (links are not followed)"),
    }
    # a zip symlink (mode 0o120777 in the external attributes), as `zip --symlinks` writes it
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("repo/a.py", "a = 1\n")
        link = zipfile.ZipInfo("repo/etc")
        link.external_attr = (0o120777 << 16) | 0x20
        z.writestr(link, "/etc")
    plan = plan_archive("repo.zip", buf.getvalue())
    assert plan.files == ("a.py",) and plan.skipped[0].reason.startswith("a link")


def test_a_zip_bomb_is_refused_before_anything_is_read():
    # 40 MB of zeros deflate to about 40 KB: a ratio of ~1000
    data = _zip({"repo/zeros.txt": b"\x00" * 40_000_000, "repo/a.py": b"a = 1\n"})
    assert len(data) < 200_000
    with pytest.raises(DatasetError, match="zip bomb"):
        plan_archive("repo.zip", data)


def test_a_gzip_bomb_stops_at_the_limit_while_it_is_read():
    # a tar declares nothing up front: the decompressed stream is cut at 100x the archive (+10 MB)
    data = tar_gz({"repo/zeros.txt": b"0" * 30_000_000})
    assert len(data) < 100_000
    with pytest.raises(DatasetError, match="zip bomb"):
        plan_archive("repo.tar.gz", data)


def test_an_archive_of_100000_files_is_refused():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for i in range(100_000):
            z.writestr(f"repo/f{i}.py", b"")
    with pytest.raises(DatasetError, match=f"more than {MAX_ARCHIVE_ENTRIES:,} files"):
        detect("repo.zip", buf.getvalue())


def test_a_2_gb_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate(2_000_000_000)  # sparse: no 2 GB are written
    with pytest.raises(DatasetError, match="2,000 MB; at most 1,500 MB"):
        detect("big.jsonl", big)
    with pytest.raises(DatasetError, match="2,000 MB"):
        count_dataset(big, ["gpt-4o"], engine="local")


def test_a_damaged_archive_is_a_sentence():
    with pytest.raises(DatasetError, match="could not be read as a zip archive"):
        plan_archive("repo.zip", b"PK\x03\x04 not really a zip")


def _git_tracked(files: dict[str, str | bytes], tmp: Path) -> set[str]:
    """What git itself would add from these files (`git add -A` honours every .gitignore)."""
    for name, data in files.items():
        p = tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data.encode() if isinstance(data, str) else data)
    repo = tmp / "proj"
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    out = subprocess.run(["git", "ls-files"], cwd=repo, check=True, env=env, capture_output=True, text=True)
    return set(out.stdout.split())


@pytest.mark.skipif(shutil.which("git") is None, reason="git is the reference")
def test_gitignore_is_read_as_git_reads_it(tmp_path):
    plan = plan_archive("proj.zip", repo_zip(), skip_vendored=False, skip_locks=False)
    ignored = {s.path for s in plan.skipped if s.reason == "ignored by .gitignore"}
    tracked = _git_tracked({**REPO_FILES, **REPO_BINARY}, tmp_path) - {".gitignore", "src/sub/.gitignore"}
    binaries = {"logo.png"}  # skipped by its extension; data.txt is skipped when read (a NUL byte)
    assert set(plan.files) | binaries == tracked
    assert ignored == {"debug.log", "build/out.js", "src/sub/secret.txt"}
    assert "keep.log" in plan.files  # "!keep.log" brings it back, as in git


def test_skipped_files_say_why_and_binaries_are_found_by_content():
    plan = plan_archive("proj.zip", repo_zip())
    reasons = {s.path: s.reason for s in plan.skipped}
    assert reasons["node_modules/left-pad/index.js"] == "a vendored folder (node_modules)"
    assert reasons["poetry.lock"] == "a lock file"
    assert reasons["logo.png"] == "a binary file (.png)"
    assert reasons["debug.log"] == "ignored by .gitignore"
    read = list(read_files(repo_zip(), plan))
    found = [x for x in read if not isinstance(x, tuple)]
    assert [(s.path, s.reason) for s in found] == [("data.txt", "a binary file (not UTF-8 text)")]
    texts = dict(x for x in read if isinstance(x, tuple))
    assert texts["src/app.py"] == REPO_FILES["proj/src/app.py"]


def test_the_same_repository_as_tar_gz_gives_the_same_plan():
    members = {k: v.encode() for k, v in REPO_FILES.items()} | REPO_BINARY
    z, t = plan_archive("p.zip", repo_zip()), plan_archive("p.tar.gz", tar_gz(members))
    assert sorted(z.files) == sorted(t.files)
    assert sorted((s.path, s.reason) for s in z.skipped) == sorted((s.path, s.reason) for s in t.skipped)


def test_nothing_is_extracted_to_disk(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("an archive member was extracted to disk")

    for cls, names in (
        (zipfile.ZipFile, ("extract", "extractall")),
        (tarfile.TarFile, ("extract", "extractall")),
    ):
        for n in names:
            monkeypatch.setattr(cls, n, refuse)
    members = {k: v.encode() for k, v in REPO_FILES.items()}
    for name, data in (("p.zip", repo_zip()), ("p.tar.gz", tar_gz(members))):
        r = count_dataset(data, ["o200k_base"], name=name, engine="local")
        assert r.rows == 6 and {s.path for s in r.skipped} >= {"poetry.lock", "debug.log"}

"""Archives as people have them: encrypted members, a million entries, duplicate names, names
that hide what they are, secrets in a repository, a 1 GB plain tar."""

from __future__ import annotations

import io
import struct
import tarfile
import tracemalloc
import warnings
import zipfile

import pytest

from tests.datasets.samples import tar_gz, zipcrypto_zip
from tokenizer_core.datasets import DatasetError, count_dataset, detect
from tokenizer_core.datasets import archive as archive_module
from tokenizer_core.datasets.archive import plan_archive, read_files, visible_name


def _zip(entries: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about a duplicate name, and writes it
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in entries:
                z.writestr(name, data)
    return buf.getvalue()


def test_an_encrypted_member_is_skipped_with_a_sentence_never_a_runtime_error():
    data = zipcrypto_zip(
        {"repo/a.py": b"a = 1\n", "repo/private.py": b"key = 2\n"}, {"repo/private.py"}, b"pw"
    )
    with pytest.raises(RuntimeError):  # what zipfile itself says, opened without the password
        zipfile.ZipFile(io.BytesIO(data)).read("repo/private.py")
    plan = plan_archive("repo.zip", data)
    assert plan.files == ("a.py",)
    assert [(s.path, s.reason) for s in plan.skipped] == [("private.py", "encrypted (it needs a password)")]
    result = count_dataset(data, ["o200k_base"], name="repo.zip", engine="local")
    assert list(result.ids) == ["a.py"]
    assert [(s.path, s.reason) for s in result.skipped] == [("private.py", "encrypted (it needs a password)")]


def test_an_encrypted_gitignore_is_not_opened():
    data = zipcrypto_zip({"repo/.gitignore": b"*.log\n", "repo/a.py": b"a = 1\n"}, {"repo/.gitignore"}, b"pw")
    plan = plan_archive("repo.zip", data)
    assert plan.files == ("a.py",) and plan.skipped[0].reason == "encrypted (it needs a password)"


def _zip64_with_entries(path, n: int) -> None:
    """A zip of `n` empty files as zip writers lay it out past 65,535 entries: its central
    directory, then a Zip64 end record, its locator, and a classic end record saying 0xFFFF."""
    record = struct.Struct("<IHHHHHHIIIHHHHHII")
    with open(path, "wb") as f:
        f.write(b"")  # no file data: the central directory is what a reader parses first
        parts = []
        for i in range(n):
            name = b"%x" % i
            parts.append(
                record.pack(0x02014B50, 45, 20, 0, 0, 0, 0x21, 0, 0, 0, len(name), 0, 0, 0, 0, 0, 0) + name
            )
            if len(parts) == 50_000:
                f.write(b"".join(parts))
                parts = []
        f.write(b"".join(parts))
        cd_size = f.tell()
        zip64_at = f.tell()
        f.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, cd_size, 0))
        f.write(struct.pack("<IIQI", 0x07064B50, 0, zip64_at, 1))
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0))


def test_a_million_entry_zip_is_refused_from_its_end_record_with_bounded_memory(tmp_path):
    path = tmp_path / "huge.zip"
    _zip64_with_entries(path, 1_000_000)
    assert path.stat().st_size > 45_000_000  # parsing its directory would build a million ZipInfo objects
    tracemalloc.start()
    try:
        with pytest.raises(DatasetError, match="holds more than 20,000 files and folders"):
            plan_archive("huge.zip", path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # the last 64 KB and two records are read; the directory is not
    with pytest.raises(DatasetError, match="holds more than 20,000"):
        detect("huge.zip", path)


def test_the_end_record_is_read_as_zipfile_reads_it():
    data = _zip([(f"repo/f{i}.py", b"x") for i in range(300)])
    with archive_module._binary(data) as f:
        assert archive_module.zip_declared_entries(f, len(data))[0] == 300
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert len(z.infolist()) == 300


def test_duplicate_names_count_the_last_copy_and_note_the_others():
    data = _zip([("repo/a.py", b"old = 1\n"), ("repo/b.py", b"b = 2\n"), ("repo/a.py", b"new = 22222\n")])
    plan = plan_archive("repo.zip", data)
    assert plan.files == ("b.py", "a.py")
    assert [(s.path, s.reason) for s in plan.skipped] == [
        ("a.py", "the same name as a later file in the archive (the last one is counted)")
    ]
    texts = dict(x for x in read_files(data, plan) if isinstance(x, tuple))
    assert texts == {"b.py": "b = 2\n", "a.py": "new = 22222\n"}  # unzip -o leaves the last one
    result = count_dataset(data, ["o200k_base"], name="repo.zip", engine="local")
    assert sorted(result.ids) == ["a.py", "b.py"]


def test_a_tar_with_a_duplicate_name_counts_the_last():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in (("repo/a.py", b"old\n"), ("repo/a.py", b"new\n"), ("repo/c.py", b"c\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    plan = plan_archive("repo.tar.gz", buf.getvalue())
    assert plan.files == ("a.py", "c.py") and len(plan.skipped) == 1
    assert dict(x for x in read_files(buf.getvalue(), plan) if isinstance(x, tuple))["a.py"] == "new\n"


def test_bidi_and_control_characters_in_names_are_shown_written_out():
    # "invoice\u202etxt.exe" shows as "invoiceexe.txt" in a browser: the override reverses the rest
    names = {
        "repo/invoice\u202etxt.py": b"x = 1\n",
        "repo/tab\there.py": b"y = 2\n",
        "repo/naïve 日本.py": b"z\n",
    }
    data = _zip(list(names.items()))
    plan = plan_archive("repo.zip", data)
    assert set(plan.files) == {"invoice\\u202etxt.py", "tab\\x09here.py", "naïve 日本.py"}
    result = count_dataset(data, ["o200k_base"], name="repo.zip", engine="local")
    csv = result.to_csv().decode()
    assert "invoice\\u202etxt.py" in csv and "\u202e" not in csv and "\t" not in csv
    assert visible_name("a\u2066b\u2069c\u200fd\u0000") == "a\\u2066b\\u2069c\\u200fd\\x00"
    assert visible_name("plain/path.py") == "plain/path.py"


def _secrets_repo() -> bytes:
    pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"  # noqa: E501
    return _zip([
        ("repo/src/app.py", b"print('hello')\n"),
        ("repo/.env", b"DATABASE_URL=postgres://user:pw@db/app\n"),
        ("repo/deploy/.env.production", b"API_KEY=abc\n"),
        ("repo/.env.example", b"API_KEY=\n"),
        ("repo/certs/server.pem", b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"),
        ("repo/certs/server.key", pem.encode()),
        ("repo/home/.ssh/id_ed25519", pem.encode()),
        ("repo/home/.ssh/id_ed25519.pub", b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI user@host\n"),
        ("repo/docs/setup.md", ("Put this key in place:\n\n" + pem).encode()),
        # the example key of AWS's own documentation
        ("repo/src/settings.py", b"AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'\n"),
    ])  # fmt: skip


def test_files_that_may_hold_secrets_are_skipped_by_default_with_the_reason():
    data = _secrets_repo()
    plan = plan_archive("repo.zip", data)
    reasons = {s.path: s.reason for s in plan.skipped}
    assert reasons == {
        ".env": "may hold secrets (an environment file)",
        "deploy/.env.production": "may hold secrets (an environment file)",
        "certs/server.pem": "may hold secrets (a .pem file)",
        "certs/server.key": "may hold secrets (a .key file)",
        "home/.ssh/id_ed25519": "may hold secrets (an SSH private key)",
    }
    result = count_dataset(data, ["o200k_base"], name="repo.zip", engine="local")
    assert sorted(result.ids) == [".env.example", "home/.ssh/id_ed25519.pub", "src/app.py"]
    found = {s.path: s.reason for s in result.skipped}
    assert found["docs/setup.md"] == "seems to hold a secret (a private key)"
    assert found["src/settings.py"] == "seems to hold a secret (an AWS access key)"


def test_secrets_are_counted_when_asked():
    data = _secrets_repo()
    result = count_dataset(data, ["o200k_base"], name="repo.zip", engine="local", skip_secrets=False)
    assert len(result.ids) == 10 and not result.skipped
    assert plan_archive("repo.zip", data, skip_secrets=False).skipped == ()


def test_a_1_gb_plain_tar_is_not_called_a_zip_bomb(tmp_path):
    """A plain .tar is not compressed: 1.1 GB of it is 1.1 GB of files. Written sparse: its headers
    declare a 1.1 GB file whose bytes are a hole in the file (no 1 GB is written to disk)."""
    path = tmp_path / "repo.tar"
    big = 1_100_000_000
    with open(path, "wb") as f:
        info = tarfile.TarInfo("repo/data/dump.sql")
        info.size = big
        f.write(info.tobuf(format=tarfile.GNU_FORMAT))
        f.seek(big + (-big % 512), io.SEEK_CUR)  # the file's bytes: a hole, read back as zeros
        small = tarfile.TarInfo("repo/src/app.py")
        body = b"print('hello')\n"
        small.size = len(body)
        f.write(small.tobuf(format=tarfile.GNU_FORMAT) + body + b"\0" * (-len(body) % 512))
        f.write(b"\0" * 1024)  # the end of the archive
    assert path.stat().st_size > 1_000_000_000 and path.stat().st_blocks * 512 < 10_000_000
    plan = plan_archive("repo.tar", path)
    assert plan.files == ("src/app.py",)
    assert [(s.path, s.reason) for s in plan.skipped] == [("data/dump.sql", "over 10 MB")]


def test_a_tar_gz_too_large_but_not_a_bomb_says_so(monkeypatch):
    import os

    monkeypatch.setattr(archive_module, "MAX_ARCHIVE_BYTES", 2_000_000)
    data = tar_gz({"repo/random.txt": os.urandom(3_000_000), "repo/a.py": b"a = 1\n"})  # ratio ~1
    with pytest.raises(DatasetError, match="unpacks to more than 2 MB, the most read from one archive") as e:
        plan_archive("repo.tar.gz", data)
    assert "zip bomb" not in str(e.value)

"""A user's own tokenizer lives in a process of its own (issue #31, items 1 and 2): the proxy
answers as the tokenizer built in this process does, a child that dies or runs out of memory
is a sentence and not the server's end, and the child goes when the tokenizer does."""

from __future__ import annotations

import functools
import os
import resource
import signal
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.processes import alive
from tests.inside.test_own import _trained_json
from tests.tokenizers.test_cost import AMPLIFIER, _with
from tokenizer_core import (
    TokenizerFailed,
    VocabularyError,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
)
from tokenizer_core.hosted import HostedTokenizer
from tokenizer_core.inside import inspect_text, machine_for
from tokenizer_core.portable import portable, rebuild
from tokenizer_core.tokenizers import registry

TEXTS = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "Zs", "S", "Cc")), max_size=80
) | st.sampled_from(
    ["", "hello world", "naïve café 😀 नमस्ते 你好", "def f(x):\n    return x\n", "<|endoftext|>"]
)


@functools.cache
def _data(kind: str) -> tuple[str, bytes, str]:
    from tokenizers import decoders, models, normalizers, pre_tokenizers

    if kind == "tiktoken":
        return "tiktoken", (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes(), "cl100k"
    if kind == "json-bytelevel":
        pre = pre_tokenizers.ByteLevel(add_prefix_space=False)
        return "hf", _trained_json(models.BPE(), pre=pre, decoder=decoders.ByteLevel()), ""
    if kind == "json-nfkc-split":
        pre = pre_tokenizers.Sequence(
            [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)]
        )
        data = _trained_json(
            models.BPE(), pre=pre, normalizer=normalizers.NFKC(), decoder=decoders.ByteLevel()
        )
        return "hf", data, ""
    assert kind == "json-wordpiece"
    data = _trained_json(
        models.WordPiece(unk_token="[UNK]"), pre=pre_tokenizers.Whitespace(), trainer_kind="wordpiece"
    )
    return "hf", data, ""


KINDS = ["tiktoken", "json-bytelevel", "json-nfkc-split", "json-wordpiece"]


@functools.cache
def local(kind: str):
    engine, data, pattern = _data(kind)
    if engine == "tiktoken":
        return tokenizer_from_tiktoken_bytes(data, name=kind, pattern_id=pattern)
    return tokenizer_from_hf_json(data, name=kind)


_hosted: dict[str, HostedTokenizer] = {}


def hosted(kind: str) -> HostedTokenizer:
    tok = _hosted.get(kind)
    if tok is None or tok.pid is None:
        engine, data, pattern = _data(kind)
        tok = _hosted[kind] = HostedTokenizer(engine, data, name=kind, pattern_id=pattern or "o200k")
    return tok


@pytest.fixture(scope="module", autouse=True)
def _close_hosted():
    yield
    for tok in _hosted.values():
        tok.close()


@pytest.mark.parametrize("kind", KINDS)
def test_the_hosted_tokenizer_has_the_facts_of_the_one_built_here(kind):
    here, there = local(kind), hosted(kind)
    assert there.info == here.info and there.n_vocab == here.n_vocab
    assert dict(there.special_tokens) == dict(here.special_tokens)
    assert there.pid is not None and there.pid != os.getpid()


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=40, deadline=None)
@given(text=TEXTS)
def test_hosted_counts_segments_and_decodes_as_the_tokenizer_built_here(kind, text):
    here, there = local(kind), hosted(kind)
    ids = here.encode(text)
    assert there.encode(text) == ids
    assert there.count(text) == here.count(text)
    assert there.count_many([text, text + "x"]) == here.count_many([text, text + "x"])
    assert there.segments(text) == here.segments(text)
    assert there.decode(ids) == here.decode(ids)
    assert there.token_bytes_many(ids) == [here.token_bytes(i) for i in ids]
    assert [there.token_bytes(i) for i in ids[:3]] == [here.token_bytes(i) for i in ids[:3]]


@pytest.mark.parametrize("kind", ["tiktoken", "json-bytelevel", "json-nfkc-split", "json-wordpiece"])
def test_inside_a_hosted_tokenizer_is_the_walk_of_the_real_one(kind):
    text = "Hello world! It's 3.14159, naïve café 😀 ﬁne ２０２４ strawberry"
    here, there = local(kind), hosted(kind)
    assert inspect_text(there, text) == inspect_text(here, text)
    m_here, m_there = machine_for(here), machine_for(there)
    assert (m_there.kind, m_there.replays, m_there.byte_level) == (
        m_here.kind,
        m_here.replays,
        m_here.byte_level,
    )
    for piece in (" world", "strawberry", "3"):
        assert m_there.replay(piece) == m_here.replay(piece)
    assert m_there.pieces(text) == m_here.pieces(text)


def test_a_worker_rebuilds_the_upload_from_its_bytes():
    there = hosted("json-bytelevel")
    ref = portable(there)
    assert ref is not None and not isinstance(ref, str)
    assert rebuild(ref).count("the cat sat on the mat") == local("json-bytelevel").count(
        "the cat sat on the mat"
    )
    assert rebuild(portable(hosted("tiktoken"))).encode("hello world") == local("tiktoken").encode(
        "hello world"
    )


def test_calls_from_many_threads_get_their_own_answers():
    there, here = hosted("json-bytelevel"), local("json-bytelevel")
    texts = [f"the cat {'sat ' * i}on the mat" for i in range(40)]
    got: dict[int, int] = {}

    def count(i: int) -> None:
        got[i] = there.count(texts[i])

    threads = [threading.Thread(target=count, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {i: here.count(t) for i, t in enumerate(texts)}


def _killing(monkeypatch, times: int) -> list[int]:
    """Kill the child under each of the next `times` calls (as the kernel's OOM killer would)."""
    killed: list[int] = []
    waiting = HostedTokenizer._wait

    def killed_while_it_works(self, child, timeout, *, building=False):
        if not building and len(killed) < times:
            killed.append(child.pid)
            os.kill(child.pid, signal.SIGKILL)
            child.proc.join()
            while child.conn.poll(0):  # an answer it wrote before it died: dropped (it died first)
                try:
                    child.conn.recv_bytes()
                except (EOFError, OSError):
                    break
        return waiting(self, child, timeout, building=building)

    monkeypatch.setattr(HostedTokenizer, "_wait", killed_while_it_works)
    return killed


def test_a_child_killed_under_a_call_is_started_again_and_answers(monkeypatch):
    engine, data, _ = _data("json-bytelevel")
    tok = HostedTokenizer(engine, data, name="victim")
    try:
        first = tok.pid
        killed = _killing(monkeypatch, 1)
        assert tok.count("the dog") == local("json-bytelevel").count("the dog")
        assert killed == [first] and tok.pid not in (None, first)
    finally:
        tok.close()


def test_a_child_killed_again_and_again_is_a_sentence_and_the_others_still_count(monkeypatch):
    engine, data, _ = _data("json-bytelevel")
    victim = HostedTokenizer(engine, data, name="victim")
    other = hosted("tiktoken")
    try:
        killed = _killing(monkeypatch, 2)
        with pytest.raises(TokenizerFailed) as info:
            victim.count("the dog")
        assert len(killed) == 2  # asked once more in a new process, then given up
        assert info.value.problem == "its process stopped while working on this text"
        assert "Traceback" not in str(info.value)
        assert other.count("hello world") == local("tiktoken").count("hello world")
        # the next call starts its process again from the same bytes
        assert victim.count("the dog") == local("json-bytelevel").count("the dog")
        assert victim.pid not in (None, *killed)
    finally:
        victim.close()


def test_the_memory_limit_stops_a_runaway_in_the_child_not_here():
    engine, data, _ = _data("json-bytelevel")
    small = HostedTokenizer(engine, data, name="small", memory_mb=400)
    try:
        text = "hello wörld 😀 " * 400_000  # 6M characters: the engine's segments need gigabytes
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        with pytest.raises(TokenizerFailed) as info:
            small.segments(text)
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        assert info.value.problem == "it needed more than 400 MB of memory for this text"
        assert grown_mb < 300, f"this process grew by {grown_mb:.0f} MB"
        assert small.count("hello world") == local("json-bytelevel").count("hello world")
    finally:
        small.close()


def test_close_and_dropping_the_proxy_end_the_child():
    engine, data, _ = _data("json-bytelevel")
    tok = HostedTokenizer(engine, data, name="closed")
    pid = tok.pid
    assert pid is not None and alive(pid)
    tok.close()
    assert not alive(pid)
    with pytest.raises(TokenizerFailed):
        tok.count("x")
    dropped = HostedTokenizer(engine, data, name="dropped")
    pid = dropped.pid
    assert pid is not None and alive(pid)
    del dropped
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_the_amplifying_file_from_the_issue_is_still_refused_with_its_sentence():
    with pytest.raises(VocabularyError) as info:
        HostedTokenizer("hf", _with(normalizer=AMPLIFIER), name="x")
    assert '"normalizer" step Replace puts 5,000 characters in place of each match' in str(info.value)


def test_a_bad_tiktoken_file_is_refused_with_the_sentence_of_the_check():
    bad = b"aGk= 0\nnot a line\n"
    with pytest.raises(VocabularyError) as here:
        tokenizer_from_tiktoken_bytes(bad, name="x", pattern_id="r50k")
    with pytest.raises(VocabularyError) as there:
        HostedTokenizer("tiktoken", bad, name="x", pattern_id="r50k")
    assert str(there.value) == str(here.value) and str(here.value).startswith("line 2:")


PANIC_SCRIPT = """
import json
from tests.tokenizers.test_encoders import _hf_json
from tokenizer_core import TokenizerFailed
from tokenizer_core.hosted import HostedTokenizer

doc = json.loads(_hf_json())
split = {"type": "Split", "pattern": {"Regex": "(\\u0436+\\\\s?)*$"}, "behavior": "Isolated", "invert": False}
doc["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [split, doc["pre_tokenizer"]]}
tok = HostedTokenizer("hf", json.dumps(doc).encode(), name="p")  # passes the probes: no \u0436 in them
for _ in range(3):
    try:
        tok.count("\u0436" * 60 + "!")
    except TokenizerFailed as exc:
        print(exc.problem)
print(tok.count("hello"))
tok.close()
"""


@pytest.mark.parametrize("setting", ["0", "full"])
def test_each_panic_of_a_users_regex_is_one_line_in_the_log(setting):
    # issue #31, 5: each failing user regex wrote "panicked at ...", the message and a note
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "RUST_BACKTRACE": setting}
    out = subprocess.run(
        [sys.executable, "-c", PANIC_SCRIPT], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout.splitlines()[:3]
        == ["its pre-tokenization regular expression gives up on this text (it backtracks too much)"] * 3
    )
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 3, out.stderr  # one line per panic, and nothing else
    assert all("retry-limit-in-match" in line and "panicked" in line for line in lines)


def _sleep(tok, seconds: float) -> str:
    time.sleep(seconds)
    return tok.info.name


def test_closing_while_a_call_waits_ends_the_call_at_once():
    engine, data, _ = _data("json-bytelevel")
    tok = HostedTokenizer(engine, data, name="busy")
    assert tok.run(_sleep, 0.0) == "busy"  # a function run where the tokenizer lives
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(tok.run(_sleep, 30.0))
        except TokenizerFailed as exc:
            outcome.append(exc.problem)

    thread = threading.Thread(target=call)
    thread.start()
    time.sleep(1.0)
    tok.close()
    thread.join(timeout=5)
    assert not thread.is_alive() and outcome == ["it was removed"]


def test_a_call_that_finds_its_child_closed_by_a_removal_says_it_was_removed():
    """The end state of a race CI met: the call's thread sees its child die while another thread
    removes the tokenizer, which has already closed the child's process object; the call ends
    with the sentence (before: ValueError "process object is closed" from the thread)."""
    engine, data, _ = _data("json-bytelevel")
    tok = HostedTokenizer(engine, data, name="raced")
    child = tok._box.child
    assert child is not None and child.alive()
    tok.close()  # ends the child and closes its process object
    assert not child.alive()
    with pytest.raises(TokenizerFailed) as info:
        tok._died(child, building=False)
    assert info.value.problem == "it was removed"


def test_a_call_over_the_time_limit_is_stopped_with_a_sentence():
    engine, data, _ = _data("json-bytelevel")
    tok = HostedTokenizer(engine, data, name="slow", seconds=1)
    try:
        with pytest.raises(TokenizerFailed) as info:
            tok.run(_sleep, 30.0)
        assert info.value.problem == "it took more than 1 second on this text, so it was stopped"
        assert tok.count("the cat") == local("json-bytelevel").count("the cat")  # started again
    finally:
        tok.close()

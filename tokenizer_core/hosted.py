"""A user's own tokenizer in a process of its own: the server never parses the upload, never
holds the built tokenizer, and a tokenizer that runs away costs only its own process.

:class:`HostedTokenizer` is a :class:`Tokenizer` whose real tokenizer (an uploaded `.tiktoken` or
`tokenizer.json`) is built, checked and run in a dedicated child process; the proxy sends each
call over a pipe and keeps the small facts (info, vocabulary size, special tokens)::

    tok = HostedTokenizer("hf", data, name="mine")   # VocabularyError for a bad file
    tok.count("hello world")                         # answered by the child
    tok.close()                                      # the child ends

The child is started from the job pool's start method (forkserver; never a fork of the threaded
server). It has a memory limit (`TW_OWN_TOKENIZER_MEMORY_MB`, default 3,000 MB: a real 60 MB
tokenizer.json needs about 1 GB) and each call a time limit (`TW_OWN_TOKENIZER_SECONDS`, default
120 s). A child that exceeds either makes the call raise :class:`TokenizerFailed` with a
sentence that says so; the next call starts a new child from the same bytes. A child killed from
outside under a call is started again and asked once more (killed again: TokenizerFailed). While the server
waits for the child it holds no lock other sessions need: it polls the pipe with a timeout (the
interpreter is free meanwhile). ``close()``, and dropping the last reference, end the child.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import re
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .tokenizers.encoders import RemoteTokenizer, Tokenizer, TokenizerFailed, TokenizerInfo, engine_problem
from .tokenizers.segments import Segment
from .tokenizers.vocab import ServerBusy, VocabularyError

KINDS = ("tiktoken", "hf")
_POLL_SECONDS = 0.25


def memory_limit_mb() -> int:
    """The memory a user's tokenizer process may take (MB): `TW_OWN_TOKENIZER_MEMORY_MB`, else 3,000."""
    return _env_number("TW_OWN_TOKENIZER_MEMORY_MB", 3000)


def call_seconds() -> float:
    """The time one call may take in a user's tokenizer process: `TW_OWN_TOKENIZER_SECONDS`, else 120."""
    return float(_env_number("TW_OWN_TOKENIZER_SECONDS", 120))


def build_seconds() -> float:
    """The time building a user's tokenizer may take: `TW_OWN_TOKENIZER_BUILD_SECONDS`, else 300."""
    return float(_env_number("TW_OWN_TOKENIZER_BUILD_SECONDS", 300))


def _env_number(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return max(1, int(float(raw)))
    except ValueError:
        raise ValueError(f"{name} must be a number, not {raw!r}") from None


def _size(mb: int) -> str:
    """``_size(3000) -> "3 GB"``, ``_size(200) -> "200 MB"``."""
    return f"{mb / 1000:g} GB" if mb >= 1000 else f"{mb} MB"


# ------------------------------------------------------------------------------ the child


def _limit_memory(mb: int) -> None:
    """Cap this process's data (heap and private mappings) at `mb` MB: past it, an allocation
    fails (Python: MemoryError; a Rust engine: the process aborts)."""
    import resource

    limit = mb * 1_000_000
    for res in (resource.RLIMIT_DATA, resource.RLIMIT_AS):
        with contextlib.suppress(ValueError, OSError):
            soft, hard = resource.getrlimit(res)
            want = limit if res == resource.RLIMIT_DATA else 4 * limit  # AS also counts reserved space
            if hard != resource.RLIM_INFINITY:
                want = min(want, hard)
            resource.setrlimit(res, (want, hard))


_PANIC = re.compile(r"^thread '.*'.* panicked at (.*):$")


def _one_line_panics() -> Callable[[], None]:
    """Send this process's stderr (fd 2) through a thread that writes each Rust panic as one line.

    A panic of the engine (a regex that gives up) is handled: the page says so. Rust's hook still
    writes "thread '...' panicked at <where>:", the message, and the first time a note about
    RUST_BACKTRACE; here that becomes one line. Other output passes unchanged.
    """
    import select

    read_end, write_end = os.pipe()
    original = os.dup(2)
    os.dup2(write_end, 2)
    os.close(write_end)

    def emit(panic: list[str]) -> None:
        where, message = panic[0], " ".join(line.strip() for line in panic[1:] if line.strip())
        os.write(
            original,
            f"A user's tokenizer panicked (handled, the page says so): {message} [{where}]\n".encode(),
        )

    def pump() -> None:
        buffer, panic = b"", None
        while True:
            ready, _, _ = select.select([read_end], [], [], 0.2)
            if not ready:
                if panic is not None:  # nothing more came: the message is complete
                    emit(panic)
                    panic = None
                continue
            chunk = os.read(read_end, 65536)
            if not chunk:  # fd 2 given back (`flush`): write what is pending, then stop
                if panic is not None:
                    emit(panic)
                return
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                if not line.strip() or line.startswith("note: run with `RUST_BACKTRACE"):
                    continue
                if m := _PANIC.match(line):
                    if panic is not None:
                        emit(panic)
                    panic = [m.group(1)]
                elif panic is not None:
                    panic.append(line)
                else:
                    os.write(original, raw + b"\n")
            if panic is not None and len(panic) > 1 and not buffer:  # Rust writes a panic at once
                emit(panic)
                panic = None

    thread = threading.Thread(target=pump, name="stderr", daemon=True)
    thread.start()

    def flush() -> None:
        """Give fd 2 back and wait until the last panic is written (before the process ends)."""
        os.dup2(original, 2)  # the pipe's last write end closes: the pump reads its end of file
        thread.join(timeout=2)

    return flush


def build_upload(kind: str, data: bytes, name: str, pattern_id: str) -> Tokenizer:
    """The user's tokenizer, checked as every upload is (`uploads`): VocabularyError if refused."""
    from .tokenizers.uploads import tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes

    if kind == "tiktoken":
        return tokenizer_from_tiktoken_bytes(data, name=name, pattern_id=pattern_id)
    return tokenizer_from_hf_json(data, name=name)


def _facts(tok: Tokenizer) -> dict[str, Any]:
    from .chunking.safe_cuts import cut_rule

    return {
        "info": tok.info,
        "n_vocab": tok.n_vocab,
        "special_tokens": dict(tok.special_tokens),
        "cut_rule": cut_rule(tok),
    }


def _send(conn: Any, msg: tuple) -> None:
    try:
        payload = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001  (an answer that cannot travel: say so)
        payload = pickle.dumps(("error", f"its answer could not be read ({type(exc).__name__})"))
    conn.send_bytes(payload)


def _host_main(conn: Any, kind: str, name: str, pattern_id: str, memory_mb: int) -> None:
    """The child: build the tokenizer from the bytes sent first, then answer calls until the pipe
    closes (or an empty message comes)."""
    os.environ["RUST_BACKTRACE"] = "0"  # a panic is handled: the log gets its message alone
    flush = _one_line_panics()
    try:
        _serve(conn, kind, name, pattern_id, memory_mb)
    finally:
        flush()


def _serve(conn: Any, kind: str, name: str, pattern_id: str, memory_mb: int) -> None:
    _limit_memory(memory_mb)
    try:
        data = conn.recv_bytes()
        tok = build_upload(kind, data, name, pattern_id)
        del data
        facts = _facts(tok)
    except VocabularyError as exc:
        _send(conn, ("refused", str(exc)))
        return
    except MemoryError:
        _send(conn, ("memory",))
        return
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001  (a Rust panic: refused, in words)
        _send(conn, ("refused", f"it could not be loaded: {engine_problem(exc)}"))
        return
    _send(conn, ("ready", facts))
    while True:
        try:
            raw = conn.recv_bytes()
        except (EOFError, OSError):
            return
        if not raw:
            return
        try:
            method, args, kwargs = pickle.loads(raw)
            del raw
            if callable(method):  # a module-level function run on the real tokenizer (inside pages)
                value = method(tok, *args, **kwargs)
            else:
                value = getattr(tok, method)(*args, **kwargs)
            answer: tuple = ("ok", value)
        except TokenizerFailed as exc:
            answer = ("error", exc.problem)
        except MemoryError:
            answer = ("memory",)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001
            answer = ("error", engine_problem(exc))
        value = None
        _send(conn, answer)
        del answer


# ------------------------------------------------------------------------------ the proxy


class _Stopped(TokenizerFailed):
    """The child died under a call, killed from outside (not by its own limits)."""


class _Child:
    """One child process and the server's end of its pipe."""

    def __init__(self, proc: Any, conn: Any) -> None:
        self.proc = proc
        self.conn = conn

    @property
    def pid(self) -> int:
        return int(self.proc.pid or 0)

    def alive(self) -> bool:
        try:
            return self.proc.exitcode is None
        except ValueError:  # closed by another thread (the tokenizer removed meanwhile)
            return False

    def stop(self) -> None:
        """End the process (asked first, then killed) and close the pipe; never raises."""
        with contextlib.suppress(Exception):
            self.conn.send_bytes(b"")
        with contextlib.suppress(Exception):
            self.proc.join(timeout=0.5)
        if self.proc.exitcode is None:
            from .jobs.processes import kill

            kill(self.pid)
            with contextlib.suppress(Exception):
                self.proc.join(timeout=2)
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.proc.close()


class _Box:
    """Holds the current child, so a finalizer (which must not hold the proxy) can end it."""

    def __init__(self) -> None:
        self.child: _Child | None = None

    def stop(self) -> None:
        child, self.child = self.child, None
        if child is not None:
            child.stop()


class HostedTokenizer(RemoteTokenizer):
    """A user's uploaded tokenizer (`kind` "tiktoken" or "hf") run in a process of its own.

    Raises VocabularyError (the same sentences as `tokenizer_from_tiktoken_bytes` and
    `tokenizer_from_hf_json`) when the file is refused. Calls are thread-safe (one at a time).
    """

    def __init__(
        self,
        kind: str,
        data: bytes,
        *,
        name: str,
        pattern_id: str = "o200k",
        memory_mb: int | None = None,
        seconds: float | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        self.kind = kind
        self.data = data
        self.pattern_id = pattern_id
        self._name = name
        self.memory_mb = memory_mb or memory_limit_mb()
        self.seconds = seconds or call_seconds()
        self._lock = threading.Lock()
        self._box = _Box()
        self._closed = False
        self._portable: Any = None
        self._finalizer = weakref.finalize(self, self._box.stop)
        with self._lock:
            facts = self._start(build_seconds())
        self.info: TokenizerInfo = facts["info"]
        self._n_vocab: int = facts["n_vocab"]
        self._special: dict[str, int] = facts["special_tokens"]
        self.cut_rule: str | None = facts["cut_rule"]

    # ------------------------------------------------------------------ the child's life

    @property
    def pid(self) -> int | None:
        """The child's process id (None when no child runs now)."""
        child = self._box.child
        return child.pid if child is not None and child.alive() else None

    def _start(self, timeout: float) -> dict[str, Any]:
        """Start a child, send it the file, wait for its build (under the lock)."""
        from .jobs.processes import OWN_TOKENIZER_PROCESS, default_context, workers_skip_main

        workers_skip_main()
        ctx: Any = mp.get_context(default_context())
        here, there = ctx.Pipe(duplex=True)
        try:
            proc = ctx.Process(
                target=_host_main,
                args=(there, self.kind, self._name, self.pattern_id, self.memory_mb),
                name=OWN_TOKENIZER_PROCESS,  # counted against the server's process budget
                daemon=True,
            )
            proc.start()
        except OSError:  # no process could be started (no memory, no process slots)
            here.close()
            raise ServerBusy("the server could not start a process for it; try again in a minute") from None
        except BaseException:
            here.close()
            raise
        finally:
            there.close()  # the child holds the only other end: its death is our end of file
        child = _Child(proc, here)
        self._box.child = child
        try:
            try:
                here.send_bytes(self.data)  # a write to a pipe: the interpreter is free meanwhile
            except OSError:  # it died before reading the file
                self._died(child, building=True)
            msg = self._wait(child, timeout, building=True)
        except BaseException:
            self._box.stop()
            raise
        if msg[0] == "ready":
            return msg[1]
        self._box.stop()
        if msg[0] == "memory":
            raise VocabularyError(f"it needs more than {_size(self.memory_mb)} of memory to load")
        raise VocabularyError(msg[1])

    def _wait(self, child: _Child, timeout: float, *, building: bool = False) -> tuple:
        """The child's next message; a death or a timeout as VocabularyError (building) or
        TokenizerFailed (a call), the child then ended."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if child.conn.poll(_POLL_SECONDS):
                    return pickle.loads(child.conn.recv_bytes())
            except (EOFError, OSError, pickle.UnpicklingError):
                return self._died(child, building)
            if not child.alive():
                with contextlib.suppress(EOFError, OSError):
                    if child.conn.poll(0):
                        return pickle.loads(child.conn.recv_bytes())
                return self._died(child, building)
            if time.monotonic() > deadline:
                self._box.stop()
                took = f"{timeout:.0f} second{'' if round(timeout) == 1 else 's'}"
                if building:
                    raise VocabularyError(f"loading it took more than {took}")
                raise TokenizerFailed(self._id(), f"it took more than {took} on this text, so it was stopped")

    def _died(self, child: _Child, building: bool) -> tuple:
        if self._closed:  # removed by another thread, which ended (and closed) the child
            self._box.stop()
            raise TokenizerFailed(self._id(), "it was removed")
        with contextlib.suppress(Exception):
            child.proc.join(timeout=1)
        try:
            code = child.proc.exitcode
        except ValueError:  # closed meanwhile: removed after the check above
            code = None
        self._box.stop()
        if self._closed:
            raise TokenizerFailed(self._id(), "it was removed")
        # A Rust engine that cannot allocate aborts (SIGABRT); the kernel's OOM killer sends SIGKILL.
        memory = code in (-6, 134)
        if building:
            if memory:
                raise VocabularyError(f"it needs more than {_size(self.memory_mb)} of memory to load")
            raise ServerBusy("its checks stopped unexpectedly; try again, or use another file")
        if memory:
            raise TokenizerFailed(
                self._id(), f"it needed more than {_size(self.memory_mb)} of memory for this text"
            )
        raise _Stopped(self._id(), "its process stopped while working on this text")

    def _id(self) -> str:
        info = getattr(self, "info", None)
        return info.id if info is not None else self._name

    def _call(self, method: str | Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Send one call to the child and return its answer. A child that died under the call for
        no reason of its own (killed from outside) is started again and asked once more."""
        payload = pickle.dumps((method, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            try:
                msg = self._ask(payload)
                break
            except _Stopped as exc:
                if attempt == 2:
                    raise TokenizerFailed(exc.tokenizer_id, exc.problem) from None
        del payload
        if msg[0] == "ok":
            return msg[1]
        if msg[0] == "memory":
            self._box.stop()  # a process that ran out of memory may be left in any state
            raise TokenizerFailed(
                self._id(), f"it needed more than {_size(self.memory_mb)} of memory for this text"
            )
        raise TokenizerFailed(self._id(), msg[1])

    def _ask(self, payload: bytes) -> tuple:
        if self._closed:
            raise TokenizerFailed(self._id(), "it was removed")
        with self._lock:
            if self._closed:  # closed while this call waited for the lock: never start a child again
                raise TokenizerFailed(self._id(), "it was removed")
            child = self._box.child
            if child is None or not child.alive():
                self._box.stop()
                try:
                    self._start(build_seconds())
                except VocabularyError as exc:
                    raise TokenizerFailed(self._id(), f"it could not be loaded again: {exc}") from None
                child = self._box.child
                assert child is not None
            try:
                child.conn.send_bytes(payload)
            except OSError:
                return self._died(child, False)
            return self._wait(child, self.seconds)

    def run(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(real_tokenizer, *args, **kwargs)`` in the child (`fn` a module-level function,
        arguments and answer picklable): how the inside pages read the real tokenizer."""
        return self._call(fn, *args, **kwargs)

    def close(self) -> None:
        """End the child process (the proxy answers no more calls)."""
        self._closed = True
        self._box.stop()  # not under the lock: a call waiting on the child ends at once

    # ------------------------------------------------------------------ the Tokenizer interface

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._special)

    @property
    def n_vocab(self) -> int:
        return self._n_vocab

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        return self._call("encode", text, allow_special=allow_special)

    def count(self, text: str, *, allow_special: bool = False) -> int:
        return self._call("count", text, allow_special=allow_special)

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        return self._call("count_many", list(texts), allow_special=allow_special)

    def decode(self, ids: Sequence[int]) -> str:
        return self._call("decode", list(ids))

    def token_bytes(self, token_id: int) -> bytes:
        return self._call("token_bytes", token_id)

    def token_bytes_many(self, token_ids: Sequence[int]) -> list[bytes]:
        return self._call("token_bytes_many", list(token_ids))

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        return self._call("segments", text, allow_special=allow_special)

    def portable_data(self) -> tuple:
        """What a worker needs to build this tokenizer again: (kind, bytes, pattern)."""
        return (self.kind, self.data, self.pattern_id)


__all__ = ["HostedTokenizer", "build_upload", "call_seconds", "memory_limit_mb"]

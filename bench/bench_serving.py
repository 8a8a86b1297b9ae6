"""Many people on one server: rerun times, bytes per rerun and server memory, with and without BPE training.

    python bench/bench_serving.py --quick    # 4 counters, 2 trainers on 200K characters (a smoke run)
    python bench/bench_serving.py            # 10 counters (10 KB each), 5 trainers (2M characters,
                                             # 10,000 merges: the largest the page allows), 20 come-and-go
    python bench/bench_serving.py --counters-only --typing   # each rerun a keystroke's edit of the text before
    python bench/bench_serving.py --help

It starts a real `streamlit run` server on 127.0.0.1 and drives it with lightweight websocket
clients that speak Streamlit's own protocol (protobuf BackMsg / ForwardMsg on /_stcore/stream,
the messages a browser sends, recorded from Chromium): no browser, so the clients load the 2
cores far less than the server they measure. Each counter session sends its own text (a
different length each time, so nothing is served from a cache) and checks that the page shows
the o200k_base count of *that* text, computed here independently with tiktoken. The counter's
text box is the live box of ui/live_text.py (st.components.v2): a client types into it as its
JavaScript does, sending the component state {"typed": {text, rev}} as a json_value, with the
revision read from the box's data in the last delta the server sent.

A rerun's time is from sending the widget change to the server's "script finished"; its
bytes are the ForwardMsg frames received in between. Memory is the resident set (VmRSS from
/proc) of the server process and of the server plus its worker processes, sampled every 0.2 s.

Runs, in one server:
1. warm-up: one session opens the counter and the BPE page (tokenizers load), then leaves;
2. come and go: 20 sessions open the counter, count once and leave (RSS once their TTL passed);
3. counters alone: N sessions each doing R reruns with 10 KB of text;
4. mixed: T sessions train BPE on the largest corpus the page allows while N sessions count;
5. after all sessions closed, Streamlit's disconnected-session TTL passed and idle workers exited.
Goals: RSS after (2) within 100 MB of (1); peak RSS under 1.5 GB; the counters' p95 in (4)
within 2x of (3).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from bench.corpus import english_prose  # noqa: E402
from tests.helpers.count_cards import read_count_cards  # noqa: E402

SESSION_TTL = 5  # seconds: the server's disconnectedSessionTTL in this run (default 120)
WORKER_IDLE = 5  # seconds: idle workers exit after this in this run (TW_WORKER_IDLE_SECONDS, default 120)


# ------------------------------------------------------------------------------ memory


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    """The child processes of `pid`, whichever of its threads started them."""
    kids: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids.extend(int(x) for x in f.read().split())
        except OSError:
            pass
    return kids


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = _children(p)
        out.extend(kids)
        todo.extend(kids)
    return out


class MemoryWatch:
    """Samples the server's RSS (alone, and with its worker processes) every 0.2 s."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_server = self.peak_tree = 0.0
        self._stop = threading.Event()
        threading.Thread(target=self._loop, daemon=True).start()

    def now(self) -> tuple[float, float]:
        server = _rss_mb(self.pid)
        return server, server + sum(_rss_mb(p) for p in _descendants(self.pid))

    def reset_peak(self) -> None:
        self.peak_server, self.peak_tree = self.now()

    def _loop(self) -> None:
        while not self._stop.wait(0.2):
            s, t = self.now()
            self.peak_server, self.peak_tree = max(self.peak_server, s), max(self.peak_tree, t)

    def stop(self) -> None:
        self._stop.set()


# ------------------------------------------------------------------------------ a client


@dataclass
class Rerun:
    seconds: float
    nbytes: int
    elements: list = field(default_factory=list)  # (kind, proto) of every new element
    # A keystroke in the workspace reruns the text box and its counts, then (asked by the page,
    # ui/fast_first.py) the rest: `seconds` runs to the end of both, `first_seconds` to the end
    # of the first (the counts on screen); the same when one run drew everything.
    first_seconds: float = 0.0


class Session:
    """One browser tab, as the Streamlit frontend speaks to the server (no browser)."""

    def __init__(
        self,
        port: int,
        path: str = "",
        *,
        headers: dict[str, str] | None = None,
        query: str = "",
        fragments: bool = True,
    ) -> None:
        self.port, self.path, self.headers = port, path, headers or {}
        self.query = query  # the page address's query string (a share link's), sent as a browser does
        self.ws = None
        self.widgets: dict[str, tuple[str, str]] = {}  # user key -> (widget id, element kind)
        self.values: dict[str, tuple[str, object]] = {}  # widget id -> (field, value): resent each rerun
        self.data: dict[str, object] = {}  # component (st.components.v2) id -> its data in the last delta
        self.fragment_of: dict[str, str] = {}  # widget id -> the fragment (st.fragment) that drew it
        # As the browser does: a change to widgets that are all in one fragment reruns that fragment
        # only (False: every change reruns the whole page, as this client did before).
        self.fragments = fragments
        self._changed: set[str] = set()
        self._answered_first_view = False
        self.page_hash = ""
        self.session_id = ""  # the server's id of this session (from its new_session message)

    async def open(self, timeout: float = 120) -> Rerun:
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream", subprotocols=["streamlit"], max_size=2**28,
            open_timeout=60, ping_interval=None, additional_headers=self.headers,
        )  # fmt: skip
        return await self._run(None, timeout=timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    def widget_id(self, key: str) -> str:
        if key not in self.widgets:
            raise KeyError(f"no widget with key {key!r} on the page (have: {sorted(self.widgets)})")
        return self.widgets[key][0]

    def _put(self, key: str, value: object) -> None:
        """Give widget `key` a value, as the browser would: str -> string_value, int -> int_value;
        a live text box (ui/live_text.py, st.components.v2 under the key `<key>_live_box`) gets
        its component state as json_value, the text with the revision the server last sent it."""
        box = f"{key}_live_box"
        if key not in self.widgets and box in self.widgets and isinstance(value, str):
            wid = self.widget_id(box)
            data = self.data.get(wid)
            if not isinstance(data, dict) or "rev" not in data:
                raise KeyError(f"the live box {box!r} came without a revision in its data: {data!r}")
            # setStateValue("typed", ...) sends the whole component state, the other keys kept.
            _, old = self.values.get(wid, ("json_value", "{}"))
            state = {**json.loads(str(old)), "typed": {"text": value, "rev": data["rev"]}}
            self.values[wid] = ("json_value", json.dumps(state))
            self._changed.add(wid)
            return
        fld = "string_value" if isinstance(value, str) else "int_value"
        self.values[self.widget_id(key)] = (fld, value)
        self._changed.add(self.widget_id(key))

    async def ask_counts(self, key: str, text: str) -> tuple[float, dict[str, int]]:
        """What the live box `key` asks the server's count route for `text` before it sends the
        text (ui/count_api.py): the seconds to the answer, and the counts by tokenizer id."""
        data = self.data.get(self.widget_id(f"{key}_live_box"))
        spec = data.get("counts") if isinstance(data, dict) else None
        if not spec:
            raise KeyError(f"the live box {key!r} asks no counts: {data!r}")
        body = json.dumps(
            {"text": text, "ids": spec["ids"], "window": spec["window"], "special": spec["special"]}
        )
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{spec['url']}", data=body.encode(), method="POST",
            headers={**self.headers, "Content-Type": "application/json"},
        )  # fmt: skip

        def post() -> dict[str, int]:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return dict(zip(spec["ids"], json.load(answer)["tokens"]))

        t0 = time.perf_counter()
        counts = await asyncio.to_thread(post)
        return time.perf_counter() - t0, counts

    async def upload(self, key: str, name: str, data: bytes, *, timeout: float = 600) -> None:
        """Put a file into the uploader `key` as the browser does: ask the server where to upload
        (file_urls_request), PUT the file there (multipart form; the server must run without
        XSRF protection: this client has no cookie), and give the widget the file for the next
        rerun (`set`). Raises RuntimeError when the server refuses the file."""
        from streamlit.proto.Common_pb2 import FileUploaderState

        msg = BackMsg()
        msg.file_urls_request.request_id = f"{key}-{time.monotonic_ns()}"
        msg.file_urls_request.file_names.append(name)
        msg.file_urls_request.session_id = self.session_id
        await self.ws.send(msg.SerializeToString())
        while True:
            fm = ForwardMsg.FromString(await asyncio.wait_for(self.ws.recv(), timeout=timeout))
            if fm.WhichOneof("type") == "file_urls_response":
                break
        if fm.file_urls_response.error_msg:
            raise RuntimeError(fm.file_urls_response.error_msg)
        urls = fm.file_urls_response.file_urls[0]
        boundary = f"----tw{time.monotonic_ns()}"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        body = head + data + f"\r\n--{boundary}--\r\n".encode()
        url = (
            urls.upload_url if "://" in urls.upload_url else f"http://127.0.0.1:{self.port}{urls.upload_url}"
        )
        request = urllib.request.Request(
            url, data=body, method="PUT",
            headers={**self.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )  # fmt: skip

        def put() -> None:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                answer.read()

        await asyncio.to_thread(put)
        del body
        state = FileUploaderState()
        info = state.uploaded_file_info.add()
        info.file_id, info.name, info.size = urls.file_id, name, len(data)
        info.file_urls.CopyFrom(urls)
        wid = self.widget_id(key)
        self.values[wid] = ("file_uploader_state_value", state)
        self._changed.add(wid)

    async def set(self, *, timeout: float = 120, click: str | None = None, **values: object) -> Rerun:
        """Change widgets by key (str -> string_value, int -> int_value, a live text box -> its
        component state) and optionally click a button."""
        for key, value in values.items():
            self._put(key, value)
        return await self._run(self.widget_id(click) if click else None, timeout=timeout)

    async def _run(self, trigger: str | None, *, timeout: float) -> Rerun:
        t0 = await self._send(trigger)
        return await self._until_finished(t0, timeout)

    async def start(self, *, click: str | None = None, **values: object) -> float:
        """Like `set`, but returns as soon as the change is sent (read on with `until`)."""
        for key, value in values.items():
            self._put(key, value)
        return await self._send(self.widget_id(click) if click else None)

    async def until(self, t0: float, *, element=None, timeout: float = 120) -> Rerun:
        """Read until an element with `element(kind, proto)` true arrives, or the run finishes."""
        return await self._until_finished(t0, timeout, element=element)

    async def _send(self, trigger: str | None, *, event: tuple[str, str, object] | None = None) -> float:
        """A rerun request as the browser sends it: the page's widget states, the changed ones'
        fragment, a button's `trigger`, or a component's `event` (widget id, event name, value:
        its `setTriggerValue(name, value)`, sent on the component's event aggregator)."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.page_script_hash = self.page_hash
        if not self.page_hash and self.path:
            cs.page_name = self.path
        cs.query_string = self.query
        cs.context_info.url = f"http://127.0.0.1:{self.port}/{self.path}" + (
            f"?{self.query}" if self.query else ""
        )
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        changed = self._changed | ({trigger} if trigger else set()) | ({event[0]} if event else set())
        self._changed = set()
        fragments = {self.fragment_of.get(w, "") for w in changed}
        if self.fragments and len(fragments) == 1 and (fragment := fragments.pop()):
            cs.fragment_id = fragment
        for wid, (fld, value) in self.values.items():
            w = cs.widget_states.widgets.add()
            w.id = wid
            if fld == "file_uploader_state_value":  # a message (`upload`), not a plain value
                w.file_uploader_state_value.CopyFrom(value)
            else:
                setattr(w, fld, value)
        if trigger:
            w = cs.widget_states.widgets.add()
            w.id = trigger
            w.trigger_value = True
        if event:
            from streamlit.components.v2.bidi_component.main import _make_trigger_id

            wid, name, value = event
            w = cs.widget_states.widgets.add()
            w.id = _make_trigger_id(wid, "events")
            w.json_trigger_value = json.dumps([{"event": name, "value": value}])
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        return t0

    async def _until_finished(self, t0: float, timeout: float, *, element=None) -> Rerun:
        out = Rerun(0.0, 0)
        deadline = t0 + timeout
        rest: tuple[str, str] | None = None  # (signal widget id, token): the page asks for the rest
        # Runs started (each begins with a new_session message), and how many had started when this
        # client last sent something: a run that started before that ends without it, and the page
        # is only drawn by a run after it (under load, a run may end just before the message lands).
        runs, runs_at_send = 0, -1
        # A new session's saved-work element asks what this browser kept (ui/saved_work.py), and its
        # run waits for the answer: this client keeps nothing, so it answers at once as an empty
        # browser does, then says "go".
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("the server did not finish the rerun in time")
            frame = await asyncio.wait_for(self.ws.recv(), timeout=left)
            out.nbytes += len(frame)
            fm = ForwardMsg.FromString(frame)
            kind = fm.WhichOneof("type")
            if kind == "new_session":
                self.session_id = fm.new_session.initialize.session_id
                runs += 1
            elif kind == "navigation":
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "delta" and fm.delta.WhichOneof("type") == "add_block":
                if fm.delta.add_block.id.endswith("_first_view_end") and not self._answered_first_view:
                    # a page's first view holds the rest until the browser says the top is shown
                    # (ui/fast_first.py, `FastFirst.first_view`): say so, as the page's JavaScript does once it drew it
                    self._answered_first_view = True
                    await self._send(None)
                    runs_at_send = runs
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el = fm.delta.new_element
                ek = el.WhichOneof("type")
                proto = getattr(el, ek) if ek else None
                out.elements.append((ek, proto))
                wid = getattr(proto, "id", "") if proto is not None else ""
                if wid and "-" in wid and wid.startswith("$$ID-"):
                    self.widgets[wid.split("-", 2)[2]] = (wid, ek)
                    self.fragment_of[wid] = fm.delta.fragment_id
                if ek == "bidi_component" and wid:
                    self.data[wid] = _component_data(proto)
                    data = self.data[wid]
                    if wid.endswith("_rest_signal") and isinstance(data, dict) and data.get("token"):
                        rest = (wid, data["token"])
                    restore = _restore_answer(wid, data) if wid.endswith("-_saved_work") else None
                    if restore is not None:
                        await self._send(None, event=restore)
                        runs_at_send = runs
                if element is not None and element(ek, proto):
                    out.seconds = time.perf_counter() - t0
                    return out
            elif kind == "script_finished":
                status = ForwardMsg.ScriptFinishedStatus.Name(fm.script_finished)
                if status != "FINISHED_EARLY_FOR_RERUN" and runs > runs_at_send:
                    out.seconds = time.perf_counter() - t0
                    out.first_seconds = out.first_seconds or out.seconds
                    if rest is None:
                        return out
                    # as the page's script does once the counts are painted: ask for the rest
                    await self._send(None, event=(rest[0], "drawn", rest[1]))
                    runs_at_send, rest = runs, None


def _restore_answer(wid: str, data: object) -> tuple[str, str, object] | None:
    """What an empty browser's saved-work script sends at the session's stage (ui/components/saved_work.js)."""
    if not isinstance(data, dict):
        return None
    if data.get("stage") == "asking":
        return wid, "answer", {"pages": {}, "own": [], "off": False, "reloaded": False}
    if data.get("stage") == "go":
        return wid, "go", data.get("mark")
    return None


def _component_data(proto) -> object:
    """The `data` an st.components.v2 element carries, as its JavaScript receives it (JSON only)."""
    which = proto.WhichOneof("data")
    if which == "json":
        return json.loads(proto.json)
    if which == "mixed":
        return json.loads(proto.mixed.json)
    return None


def metric_values(rerun: Rerun) -> dict[str, str]:
    """Label -> value of every count drawn in the rerun: the workspace's count cards and every
    st.metric (labels without markdown escapes)."""
    shown = {p.label.replace("\\", ""): p.body for k, p in rerun.elements if k == "metric"}
    return shown | read_count_cards(p.body for k, p in rerun.elements if k == "markdown")


def alerts(rerun: Rerun) -> list[str]:
    """The text of every st.error / st.warning / st.info / st.success drawn in the rerun."""
    return [p.body for k, p in rerun.elements if k == "alert"]


def exceptions(rerun: Rerun) -> list[str]:
    return [p.message for k, p in rerun.elements if k == "exception"]


# ------------------------------------------------------------------------------ server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    port: int,
    env: dict[str, str],
    *,
    app: Path = ROOT,
    runs: str | None = None,
    session_ttl: int = SESSION_TTL,
    wrapper: list[str] | None = None,
) -> subprocess.Popen:
    """`streamlit run streamlit_app.py` in `app` (another checkout of the app to compare), or, with
    `runs` (a file name prefix), under bench/profiled_server.py, which notes each run's CPU.
    `session_ttl`: seconds a closed session is kept for a reconnect (the app's own is 120);
    `wrapper`: another command that runs `streamlit` (bench/traced_server.py and its arguments)."""
    start = (
        [sys.executable, str(ROOT / "bench" / "profiled_server.py"), runs]
        if runs
        else wrapper or [sys.executable, "-m", "streamlit"]
    )
    cmd = [
        *start, "run", "streamlit_app.py", "--server.headless=true",
        "--server.address=127.0.0.1", f"--server.port={port}", "--browser.gatherUsageStats=false",
        "--server.fileWatcherType=none", f"--server.disconnectedSessionTTL={session_ttl}",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=app, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)  # fmt: skip
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not answer /_stcore/health within 60 s")


# ------------------------------------------------------------------------------ scenarios


def _text(base: str, i: int, n: int, size: int) -> str:
    """Session i's n-th text: `size` characters, a different length each time."""
    start = (i * 7919 + n * 104729) % (len(base) - size - 1)
    return base[start : start + size - (i * 37 + n * 11) % 500]


def _typed_text(base: str, i: int, n: int, size: int) -> str:
    """Session i's text after n keystrokes: its own `size` characters with n short insertions
    (one to three characters, at places spread over the text), so each rerun is an edit of the
    one before it, as when people type, and a different length each time."""
    start = (i * 7919) % (len(base) - size - 1)
    text = base[start : start + size]
    for k in range(n):
        pos = (i * 7907 + k * 3571) % (len(text) + 1)
        text = text[:pos] + "eé 😀"[k % 4] * (1 + k % 3) + text[pos:]
    return text


class Counter:
    def __init__(self, o200k) -> None:
        self.enc = o200k
        self.times: list[float] = []  # from the change sent to the whole page drawn
        self.first: list[float] = []  # from the change sent to the end of its first run (the counts)
        self.asked: list[float] = []  # --typing: from the count route asked to its answer (ui/count_api.py)
        self.bytes: list[int] = []
        self.wrong: list[str] = []


async def counter_session(port: int, i: int, reruns: int, base: str, size: int, c: Counter, *,
                          think: float = 0.3, typing: bool = False) -> None:  # fmt: skip
    s = Session(port)
    try:
        await s.open()
        for n in range(reruns):
            text = (_typed_text if typing else _text)(base, i, n, size)
            r = await s.set(workspace_text=text)
            c.times.append(r.seconds)
            c.first.append(r.first_seconds)
            c.bytes.append(r.nbytes)
            want = f"{len(c.enc.encode_ordinary(text)):,}"
            got = metric_values(r).get("o200k_base")
            if got != want or exceptions(r):
                c.wrong.append(f"session {i} rerun {n}: o200k shows {got}, expected {want} {exceptions(r)}")
            await asyncio.sleep(think * random.random())
    finally:
        await s.close()


async def trainer_session(port: int, i: int, corpus: str, merges: int, out: list) -> None:
    s = Session(port, "bpe")
    try:
        await s.open()
        await s.set(bpe_corpus_text=corpus[i:], timeout=300)
        r = await s.set(bpe_merges=merges, click="bpe_train", timeout=900)
        got = metric_values(r).get("Merges learned")
        out.append((r.seconds, got, exceptions(r)))
    finally:
        await s.close()


def summary(times: list[float]) -> str:
    if not times:
        return "no reruns"
    q = statistics.quantiles(times, n=20, method="inclusive") if len(times) > 1 else [times[0]] * 19
    return f"p50 {statistics.median(times):.3f} s, p95 {q[18]:.3f} s, max {max(times):.3f} s ({len(times)} reruns)"


async def run(args: argparse.Namespace) -> dict:
    from tokenizer_core import load_builtin

    o200k = load_builtin("o200k_base").encoding  # a tiktoken.Encoding: counted here, not by the app
    base = english_prose(3_000_000)
    corpus = english_prose(args.corpus + 100_000)[: args.corpus]
    port = free_port()
    env = {"TW_WORKER_IDLE_SECONDS": str(WORKER_IDLE), "MALLOC_ARENA_MAX": args.malloc_arenas}
    if args.in_process:
        env["TW_BPE_IN_PROCESS_MAX_CHARS"] = str(10**9)
    runs = os.path.join(tempfile.mkdtemp(prefix="bench-serving-"), "server")
    server = start_server(port, env, app=args.app, runs=runs)
    mem = MemoryWatch(server.pid)
    res: dict = {"clients": "websocket clients speaking Streamlit's protocol (no browser)"}

    def script_runs() -> list[tuple[float, float]]:
        """(CPU, wall) seconds of every script run so far, from bench/profiled_server.py."""
        os.kill(server.pid, signal.SIGUSR1)
        for _ in range(100):
            time.sleep(0.05)
            try:
                with open(f"{runs}.runs.json") as f:
                    got = json.load(f)
                if len(got) >= len(res.get("_runs", [])):
                    res["_runs"] = got
                    return got
            except (OSError, ValueError):
                continue
        return res.get("_runs", [])

    try:
        # 1. warm-up
        s = Session(port)
        await s.open()
        await s.set(workspace_text=_text(base, 999, 0, args.size))
        await s.close()
        b = Session(port, "bpe")
        await b.open()
        await b.close()
        await asyncio.sleep(SESSION_TTL + 3)
        res["rss_warm"] = mem.now()
        mem.reset_peak()

        if args.counters_only:  # 3. only: counters alone, with the server's CPU per rerun
            await _counters_alone(port, args, base, o200k, res, server.pid, script_runs)
            return res

        # 2. twenty sessions come and go (two waves of ten), then every session closed
        come = Counter(o200k)
        for wave in range(2):
            await asyncio.gather(*(counter_session(port, 500 + 10 * wave + i, 1, base, args.size, come)
                                   for i in range(10)))  # fmt: skip
        res["come_and_go"] = come
        await asyncio.sleep(max(SESSION_TTL, WORKER_IDLE) + 5)
        res["rss_come_and_go"] = mem.now()

        # 3. counters alone
        await _counters_alone(port, args, base, o200k, res, server.pid, script_runs)

        # 4. mixed: trainers start first, counters count while they train
        mixed = Counter(o200k)
        trained: list = []
        t0 = time.perf_counter()
        trainers = [asyncio.create_task(trainer_session(port, i, corpus, args.merges, trained))
                    for i in range(args.trainers)]  # fmt: skip
        await asyncio.sleep(3)
        await asyncio.gather(*(counter_session(port, 100 + i, args.reruns, base, args.size, mixed)
                               for i in range(args.counters)))  # fmt: skip
        res["mixed"] = mixed
        res["mixed_counters_done"] = time.perf_counter() - t0
        await asyncio.gather(*trainers)
        res["trainings"] = trained
        res["mixed_all_done"] = time.perf_counter() - t0
        res["rss_peak"] = (mem.peak_server, mem.peak_tree)

        # 5. all closed, TTL passed (and idle workers gone)
        await asyncio.sleep(max(SESSION_TTL, WORKER_IDLE) + 5)
        res["rss_closed"] = mem.now()
    finally:
        mem.stop()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    return res


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (every thread), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _counters_alone(port: int, args, base: str, o200k, res: dict, pid: int, script_runs) -> None:
    """N sessions open the counter, then each sends R texts of ~size characters, all at once."""
    alone = Counter(o200k)
    opened = asyncio.Event()
    ready: list[int] = []

    async def one(i: int) -> None:
        s = Session(port)
        try:
            await s.open()
            ready.append(i)
            if len(ready) == args.counters:
                opened.set()
            await opened.wait()  # everyone types at once, after every tab has opened
            for n in range(args.reruns):
                text = (_typed_text if args.typing else _text)(base, i, n, args.size)
                want = f"{len(o200k.encode_ordinary(text)):,}"
                if args.typing:  # as the box does: the count route first, then the text for a rerun
                    seconds, counts = await s.ask_counts("workspace_text", text)
                    alone.asked.append(seconds)
                    if f"{counts.get('o200k_base', 0):,}" != want:
                        alone.wrong.append(f"session {i} edit {n}: the route says {counts}, expected {want}")
                r = await s.set(workspace_text=text)
                alone.times.append(r.seconds)
                alone.first.append(r.first_seconds)
                alone.bytes.append(r.nbytes)
                got = metric_values(r).get("o200k_base")
                if got != want or exceptions(r):
                    alone.wrong.append(
                        f"session {i} rerun {n}: o200k shows {got}, expected {want} {exceptions(r)}"
                    )
                await asyncio.sleep(0.3 * random.random())
        finally:
            await s.close()

    sessions = [asyncio.create_task(one(i)) for i in range(args.counters)]
    await opened.wait()
    before_runs, before_cpu = len(script_runs()), process_cpu(pid)
    await asyncio.gather(*sessions)
    res["alone_cpu"] = (process_cpu(pid) - before_cpu) / max(1, len(alone.times))
    res["alone_script_cpu"] = [c for c, _ in script_runs()[before_runs:]]
    res["alone"] = alone


def report(res: dict, args: argparse.Namespace) -> None:
    print(f"Clients: {res['clients']}.")
    print(f"Counters: {args.counters} sessions x {args.reruns} reruns, ~{args.size:,} characters each; "
          f"trainers: {args.trainers} x BPE on {args.corpus:,} characters, {args.merges:,} merges"
          f"{' (in-process, as before the pool)' if args.in_process else ' (worker pool)'}; "
          f"server MALLOC_ARENA_MAX={args.malloc_arenas}.")  # fmt: skip
    alone = res["alone"]
    print(f"load average {os.getloadavg()[0]:.1f} at the end; app: {args.app}")
    print(
        f"counters alone : {summary(alone.times)}; {statistics.median(alone.bytes) / 1e3:.0f} KB per rerun (median)"
    )
    if alone.asked:
        print(f"  counts from the count route (shown before the rerun is sent): {summary(alone.asked)}")
    if alone.first != alone.times:
        print(f"  counts shown by the rerun (the first of the edit's runs): {summary(alone.first)}")
    cpu = res.get("alone_script_cpu") or [0.0]
    edits = max(1, len(alone.times))
    print(f"  server CPU per edit: {res['alone_cpu'] * 1000:.0f} ms (the whole process, /proc); script thread "
          f"{sum(cpu) / edits * 1000:.0f} ms in {len(cpu) / edits:.1f} runs per edit (run median "
          f"{statistics.median(cpu) * 1000:.0f} ms)")  # fmt: skip
    if args.counters_only:
        wrong = alone.wrong
        print(f"own counts     : {'every session saw its own count' if not wrong else wrong[:5]}")
        return
    mixed = res["mixed"]
    print(
        f"counters mixed : {summary(mixed.times)}; {statistics.median(mixed.bytes) / 1e3:.0f} KB per rerun (median)"
    )
    p95 = lambda t: statistics.quantiles(t, n=20, method="inclusive")[18]  # noqa: E731
    if len(alone.times) > 1 and len(mixed.times) > 1:
        print(f"mixed p95 / alone p95 = {p95(mixed.times) / p95(alone.times):.2f} (goal <= 2)")
    for secs, got, exc in res["trainings"]:
        print(f"  training: {secs:.1f} s until the page showed {got} merges {exc or ''}")
    print(f"  counters finished {res['mixed_counters_done']:.1f} s into the mixed run; trainings at "
          f"{res['mixed_all_done']:.1f} s")  # fmt: skip
    print(f"come and go    : {summary(res['come_and_go'].times)}")
    wrong = alone.wrong + mixed.wrong + res["come_and_go"].wrong
    print(f"own counts     : {'every session saw its own count' if not wrong else wrong[:5]}")
    for label, key in [("after warm-up", "rss_warm"), ("after 20 came and went", "rss_come_and_go"),
                       ("peak (counters + training)", "rss_peak"), ("after every session closed", "rss_closed")]:  # fmt: skip
        s, t = res[key]
        print(f"RSS {label:<28}: server {s:6.0f} MB, with workers {t:6.0f} MB")
    for label, key in [("20 came and went", "rss_come_and_go"), ("all closed after the load", "rss_closed")]:
        d = [res[key][j] - res["rss_warm"][j] for j in (0, 1)]
        print(f"RSS {label} - warm-up: server {d[0]:+.0f} MB, with workers {d[1]:+.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4 counters x 3 reruns, 2 trainers on 200K chars")
    ap.add_argument(
        "--counters-only",
        action="store_true",
        help="only the counters typing at once (10 x 6 reruns by default)",
    )
    ap.add_argument(
        "--app", type=Path, default=ROOT, help="the checkout of the app to serve (default this one)"
    )
    ap.add_argument(
        "--typing",
        action="store_true",
        help="counters type: each text an edit of the one before (default: new texts)",
    )
    ap.add_argument("--counters", type=int, default=10)
    ap.add_argument("--reruns", type=int, default=6)
    ap.add_argument("--size", type=int, default=10_000, help="characters per counter text")
    ap.add_argument("--trainers", type=int, default=5)
    ap.add_argument("--corpus", type=int, default=2_000_000, help="BPE corpus characters (page limit 2M)")
    ap.add_argument("--merges", type=int, default=10_000, help="BPE merges (page limit 10,000)")
    ap.add_argument("--in-process", action="store_true", help="train in the server process (the old way)")
    ap.add_argument(
        "--malloc-arenas", default="2", help="the server's MALLOC_ARENA_MAX (the Dockerfile's: 2)"
    )
    args = ap.parse_args()
    if args.quick:
        args.counters, args.reruns, args.trainers, args.corpus, args.merges = 4, 3, 2, 200_000, 2_000
    random.seed(0)
    res = asyncio.run(run(args))
    report(res, args)


if __name__ == "__main__":
    main()

"""A real `distributed` cluster: a `dask scheduler` and two `dask worker` processes started on this
machine (random ports), counting the same sets as the in-process engine, with the same result; and
the app's own cluster: started when a count needs it, started again when it died, closed when idle."""

from __future__ import annotations

import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from tests.conftest import ROOT
from tests.datasets.samples import PROSE, batch_lines, finetune_lines, jsonl, repo_zip
from tokenizer_core.datasets import DatasetCancelled, count_dataset
from tokenizer_core.datasets.count import CountKey, count_task
from tokenizer_core.datasets.engine import DaskEngine, LocalDask
from tokenizer_core.datasets.sources import Task, jsonl_tasks

distributed = pytest.importorskip("distributed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)]  # fmt: skip
    worker = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard",
              "--host", "127.0.0.1"]  # fmt: skip
    procs += [subprocess.Popen(worker, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True) for _ in range(2)]  # fmt: skip
    client = None
    try:
        deadline = time.monotonic() + 60
        while client is None:
            try:
                client = distributed.Client(address, timeout=5, set_as_default=False)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        client.wait_for_workers(2, timeout=60)
        yield client
    finally:
        if client is not None:
            client.close()
        for p in procs:  # only the processes this fixture started, each by its own group
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def _tokenizers_loaded() -> int:
    from tokenizer_core.tokenizers.registry import loaded_builtins

    return len(loaded_builtins())


def _same(a, b) -> None:
    assert a.rows == b.rows and a.ids == b.ids and a.error_count == b.error_count
    assert a.lines.tolist() == b.lines.tolist()
    for m in a.models:
        assert np.array_equal(a.per_model[m.id], b.per_model[m.id])
        assert m == b.model(m.id)


def test_a_batch_file_counted_on_two_workers_equals_the_local_count(cluster):
    data = jsonl(batch_lines(200), extra=["{broken"])
    models = ["gpt-4o", "llama-3.1-8b", "qwen3-32b", "o200k_base"]
    engine = DaskEngine(cluster)
    assert engine.name == "Dask (2 workers)"
    far = count_dataset(data, models, name="b.jsonl", engine=engine, chunk_bytes=4_000, budget=80)
    here = count_dataset(data, models, name="b.jsonl", engine="local", chunk_bytes=4_000, budget=80)
    _same(far, here)
    assert far.rows == 200 and far.errors[0].line == 201
    # both workers took part
    loaded = cluster.run(_tokenizers_loaded)
    assert len(loaded) == 2 and all(n > 0 for n in loaded.values())


def test_fine_tuning_and_a_repository_through_the_client(cluster):
    data = jsonl(finetune_lines(40))
    _same(count_dataset(data, ["gpt-4o", "llama-3.1-8b"], name="t.jsonl", engine=cluster, chunk_bytes=2_000),
          count_dataset(data, ["gpt-4o", "llama-3.1-8b"], name="t.jsonl", engine="local"))  # fmt: skip
    _same(count_dataset(repo_zip(), ["o200k_base"], name="p.zip", engine=cluster),
          count_dataset(repo_zip(), ["o200k_base"], name="p.zip", engine="local"))  # fmt: skip


def test_cancel_stops_the_futures(cluster):
    data = jsonl([{"text": t * 20} for t in PROSE * 400])
    stop = threading.Event()
    seen = []

    def progress(p):
        seen.append(p)
        stop.set()

    with pytest.raises(DatasetCancelled):
        count_dataset(data, ["o200k_base"], name="t.jsonl", engine=cluster, chunk_bytes=5_000, progress=progress,
                      cancel=stop)  # fmt: skip
    assert len(seen) == 1
    time.sleep(0.5)
    assert sum(len(v) for v in cluster.processing().values()) == 0  # nothing left running for it


def _spec_sizes(dask_scheduler) -> list[int]:
    """The pickled size of each task the scheduler holds now: what went through it."""
    return [len(pickle.dumps(ts.run_spec)) for ts in dask_scheduler.tasks.values() if ts.run_spec is not None]


def test_a_remote_clusters_tasks_reach_the_workers_without_passing_their_rows_through_the_scheduler(cluster):
    data = jsonl([{"text": t * 20} for t in PROSE * 200])
    keys = (CountKey("o200k_base", None),)
    seen = {}
    for send in ("graph", "scatter"):
        engine = DaskEngine(cluster, send=send)
        results = engine.map(count_task, jsonl_tasks(data, shape="jsonl", chunk_bytes=100_000), keys)
        first = next(results)
        seen[send] = max(cluster.run_on_scheduler(_spec_sizes))
        rows = first.rows + sum(r.rows for r in results)
        assert rows == 1_000
    assert seen["graph"] > 100_000  # a task's 100 KB of lines went through the scheduler
    assert seen["scatter"] < 5_000  # only the key of the rows, which went straight to a worker
    assert DaskEngine(cluster).send == "scatter"  # the default for a scheduler in another process


def _wait_for_release(name: str) -> int:
    distributed.Event(name).wait(timeout=120)
    return 0


def _first_now_then_wait(task: Task, event: str) -> int:
    return task.index if task.index == 0 else _wait_for_release(event)


def test_cancel_ends_the_count_while_a_task_still_runs(cluster):
    """The count stops at the cancel, not when the running task ends (Dask cannot stop that one)."""
    release = distributed.Event("release-cancel-test", client=cluster)
    stop = threading.Event()
    tasks = iter([Task(i, "list") for i in range(3)])
    results = DaskEngine(cluster).map(_first_now_then_wait, tasks, "release-cancel-test", cancel=stop)
    out: dict = {}

    def consume():
        try:
            out["first"] = next(results)
            stop.set()
            next(results)
        except DatasetCancelled as exc:
            out["cancelled"] = exc
            out["released"] = release.is_set()
        except Exception as exc:  # noqa: BLE001 - shown by the assertion below
            out["error"] = exc

    t = threading.Thread(target=consume)
    t.start()
    t.join(90)
    release.set()
    assert out.get("first") == 0 and "cancelled" in out, out
    assert out["released"] is False  # the tasks waiting on the release were still running


@pytest.fixture
def fresh_default(monkeypatch):
    """The module's default engines as at start, closed after the test."""
    from tokenizer_core.datasets import engine as engine_module

    monkeypatch.setattr(engine_module, "_DEFAULT", {})
    for name in ("TW_DASK_SCHEDULER", "DASK_SCHEDULER_ADDRESS", "TW_DASK_IDLE_SECONDS", "TW_DASK_SEND"):
        monkeypatch.delenv(name, raising=False)
    try:
        yield engine_module
    finally:
        engine_module._close_default()


def test_tw_dask_scheduler_points_the_app_at_a_teams_cluster(cluster, monkeypatch, fresh_default):
    monkeypatch.setenv("TW_DASK_SCHEDULER", cluster.scheduler.address)
    data = jsonl(batch_lines(30))
    r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
    assert fresh_default._DEFAULT["remote"].name == "Dask (2 workers)"
    assert "local" not in fresh_default._DEFAULT  # no LocalCluster was started
    _same(r, count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local"))


@pytest.mark.parametrize("how", ["dask.config", "DASK_SCHEDULER_ADDRESS"])
def test_dasks_own_scheduler_address_setting_is_honoured(cluster, monkeypatch, fresh_default, how):
    import dask

    address = cluster.scheduler.address
    with dask.config.set({"scheduler-address": None}):
        if how == "dask.config":
            dask.config.set({"scheduler-address": address})
        else:
            monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
        assert fresh_default.scheduler_address() == address
        data = jsonl(batch_lines(20))
        r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
        assert (
            fresh_default._DEFAULT["remote"].client.scheduler_info()["id"] == cluster.scheduler_info()["id"]
        )
        assert "local" not in fresh_default._DEFAULT
    _same(r, count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local"))


def test_the_embedded_default_is_a_local_cluster_of_worker_processes(monkeypatch, fresh_default):
    monkeypatch.setenv("TW_DASK_WORKERS", "2")
    local = fresh_default.default_engine()
    assert isinstance(local, LocalDask) and not local.running()  # nothing started before a set needs it
    data = jsonl(batch_lines(30))
    r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
    assert fresh_default.default_engine() is local and local.running()
    assert len(local.cluster.workers) == 2
    pids = local.client.run(os.getpid)
    assert os.getpid() not in pids.values() and len(set(pids.values())) == 2
    assert set(local.client.nthreads().values()) == {
        1
    }  # one thread per worker: a core each for the Rust tokenizers
    assert local.engine.send == "graph"  # its scheduler is in this process
    _same(r, count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local"))


def _wait_until(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_the_embedded_cluster_is_started_again_when_it_died(monkeypatch, fresh_default):
    monkeypatch.setenv("TW_DASK_WORKERS", "1")
    local = fresh_default.default_engine()
    data = jsonl(batch_lines(20))
    here = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local")
    _same(count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000), here)
    assert local.starts == 1
    local.cluster.close()  # closed under it (as a crash of its scheduler would leave it)
    _same(count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000), here)
    assert local.starts == 2
    (pid,) = local.client.run(os.getpid).values()
    os.kill(pid, signal.SIGKILL)  # its one worker process, killed (only ours: started by this test)
    _same(count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000), here)
    assert pid not in local.client.run(os.getpid).values()


def test_the_embedded_clusters_workers_close_after_the_idle_time_and_start_for_the_next_set(
    monkeypatch, fresh_default
):
    monkeypatch.setenv("TW_DASK_WORKERS", "1")
    monkeypatch.setenv("TW_DASK_IDLE_SECONDS", "1")
    local = fresh_default.default_engine()
    data = jsonl(batch_lines(20))
    count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
    (pid,) = local.client.run(os.getpid).values()
    assert _wait_until(lambda: not local.running())
    assert _wait_until(lambda: not _alive(pid))  # the worker process is gone, its memory with it
    r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
    assert local.running() and local.starts == 2 and r.rows == 20


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its parent to read its end does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return not f.read().rpartition(") ")[2].startswith("Z")
    except FileNotFoundError:
        return False


HOST_SCRIPT = """
import threading
from pathlib import Path

Path({marker!r}).open("a").write("ran\\n")  # a page script: no __main__ guard, as Streamlit runs it
from tests.datasets.samples import batch_lines, jsonl
from tokenizer_core.datasets import count_dataset
from tokenizer_core.datasets import engine

out = {{}}
def run():  # Streamlit runs a page in a thread of its own
    out["rows"] = count_dataset(jsonl(batch_lines(20)), ["gpt-4o"], name="b.jsonl", engine="dask",
                                chunk_bytes=2_000).rows
t = threading.Thread(target=run)
t.start()
t.join()
engine._close_default()
print("rows", out.get("rows"))
"""


def test_the_embedded_cluster_starts_from_a_page_script_without_running_it_again(tmp_path):
    marker = tmp_path / "ran.txt"
    script = tmp_path / "page.py"
    script.write_text(HOST_SCRIPT.format(marker=str(marker)))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TW_DASK_WORKERS": "1"}
    env.pop("TW_DASK_SCHEDULER", None)
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert "rows 20" in done.stdout, done.stderr[-2000:]
    assert marker.read_text() == "ran\n"  # the worker processes did not run the page script

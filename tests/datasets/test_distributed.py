"""A real `distributed` cluster: a `dask scheduler` and two `dask worker` processes started on this
machine (random ports), counting the same sets as the in-process engine, with the same result."""

from __future__ import annotations

import os
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
from tokenizer_core.datasets.engine import DaskEngine

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
    from tokenizer_core.datasets.count import tokenizer

    return tokenizer.cache_info().currsize


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


def test_tw_dask_scheduler_points_the_app_at_a_teams_cluster(cluster, monkeypatch):
    from tokenizer_core.datasets import engine as engine_module

    monkeypatch.setattr(engine_module, "_DEFAULT", {})
    monkeypatch.setenv("TW_DASK_SCHEDULER", cluster.scheduler.address)
    data = jsonl(batch_lines(30))
    try:
        r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
        assert engine_module._DEFAULT["engine"].name == "Dask (2 workers)"
        assert "cluster" not in engine_module._DEFAULT  # no LocalCluster was started
    finally:
        engine_module._close_default()
    _same(r, count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local"))


def test_the_embedded_default_is_a_local_cluster_of_worker_processes(monkeypatch):
    from tokenizer_core.datasets import engine as engine_module

    monkeypatch.setattr(engine_module, "_DEFAULT", {})
    monkeypatch.delenv("TW_DASK_SCHEDULER", raising=False)
    monkeypatch.setenv("TW_DASK_WORKERS", "2")
    data = jsonl(batch_lines(30))
    try:
        r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="dask", chunk_bytes=3_000)
        cluster = engine_module._DEFAULT["cluster"]
        assert len(cluster.workers) == 2
        pids = engine_module._DEFAULT["client"].run(os.getpid)
        assert os.getpid() not in pids.values() and len(set(pids.values())) == 2
        threads = engine_module._DEFAULT["client"].nthreads()
        assert set(threads.values()) == {1}  # one thread per worker: the Rust tokenizers get a core each
    finally:
        engine_module._close_default()
    _same(r, count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local"))


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

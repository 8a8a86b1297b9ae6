"""One budget of worker processes for the whole server, whatever their kind: at most the cores + 1
by default (the job pool, the Dask workers, the users' own tokenizers' processes)."""

from __future__ import annotations

import multiprocessing as mp

import pytest

from tokenizer_core.jobs import processes

ENVS = ("TW_PROCESSES", "TW_WORKERS", "TW_DASK_WORKERS")


@pytest.fixture
def cores(monkeypatch):
    for name in ENVS:
        monkeypatch.delenv(name, raising=False)

    def set_cores(n: int) -> None:
        monkeypatch.setattr(processes, "cores", lambda: n)

    return set_cores


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8, 64])
def test_the_pool_and_the_dask_workers_together_stay_within_the_cores_plus_one(cores, n):
    cores(n)
    assert processes.process_budget() == n + 1
    pool, dask = processes.default_workers(), processes.dask_workers()
    assert pool >= 1 and dask >= 1
    assert pool + dask == n + 1


def test_on_two_cores_one_pool_worker_and_two_dask_workers(cores):
    cores(2)
    assert (processes.default_workers(), processes.dask_workers()) == (1, 2)


def test_tw_processes_sets_the_budget_and_each_kind_can_still_be_set_alone(cores, monkeypatch):
    cores(2)
    monkeypatch.setenv("TW_PROCESSES", "7")
    assert (processes.default_workers(), processes.dask_workers()) == (3, 4)
    monkeypatch.setenv("TW_WORKERS", "1")
    assert (processes.default_workers(), processes.dask_workers()) == (1, 6)
    monkeypatch.setenv("TW_DASK_WORKERS", "2")
    assert processes.dask_workers() == 2
    monkeypatch.setenv("TW_PROCESSES", "many")
    with pytest.raises(ValueError, match="TW_PROCESSES must be a whole number"):
        processes.process_budget()


def _wait_for_end(conn) -> None:
    conn.recv_bytes()


def test_own_tokenizers_processes_come_out_of_the_dask_workers_share(cores, monkeypatch):
    cores(4)
    monkeypatch.setenv("TW_PROCESSES", "6")  # pool 2, Dask 4
    assert processes.dask_workers() == 4
    ctx = mp.get_context(processes.default_context())
    ends, procs = [], []
    try:
        for _ in range(2):  # two users' tokenizers, as hosted.py names their processes
            here, there = ctx.Pipe()
            p = ctx.Process(
                target=_wait_for_end, args=(there,), name=processes.OWN_TOKENIZER_PROCESS, daemon=True
            )
            p.start()
            ends.append(here)
            procs.append(p)
        assert processes.own_tokenizer_processes() == 2
        assert processes.dask_workers() == 2
    finally:
        for here in ends:
            here.send_bytes(b"")
        for p in procs:
            p.join(30)
    assert processes.own_tokenizer_processes() == 0

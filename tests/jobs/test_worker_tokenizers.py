"""A worker of the app's pool loads only the tokenizers its jobs need (TW_WORKER_TOKENIZERS: the
ones it loads ahead of time, none by default). Spawned workers: each reads the environment of
this test, where a forkserver started by an earlier test would keep the one it started with."""

from __future__ import annotations

import time

from tokenizer_core.jobs import JobPool
from tokenizer_core.tasks import tally_task, warm_steps
from tokenizer_core.tokenizers.registry import loaded_builtins


def test_a_worker_holds_no_tokenizer_until_a_job_needs_one(monkeypatch):
    monkeypatch.delenv("TW_WORKER_TOKENIZERS", raising=False)
    with JobPool(
        workers=1, nice=0, warm=warm_steps, preload=("tokenizer_core.tasks",), start_method="spawn"
    ) as pool:
        pool.warm_up()
        assert pool.submit(loaded_builtins).result(timeout=60) == []
        tokens, _ = pool.submit(tally_task, "hello world", ("r50k_base",), allow_special=False).result(
            timeout=60
        )
        assert tokens == (2,)  # GPT-2: "hello", " world" (tiktoken's README: [31373, 995])
        assert pool.submit(loaded_builtins).result(timeout=60) == ["r50k_base"]


def test_tw_worker_tokenizers_loads_those_ahead_of_time(monkeypatch):
    monkeypatch.setenv("TW_WORKER_TOKENIZERS", "r50k_base")
    with JobPool(
        workers=1, nice=0, warm=warm_steps, preload=("tokenizer_core.tasks",), start_method="spawn"
    ) as pool:
        pool.warm_up()
        deadline = time.monotonic() + 60
        while (got := pool.submit(loaded_builtins).result(timeout=60)) != ["r50k_base"]:
            assert time.monotonic() < deadline, got
            time.sleep(0.2)

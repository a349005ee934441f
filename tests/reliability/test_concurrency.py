"""Promise 8: of 16 simultaneous index requests on one store (16 processes) exactly one runs, the others
are refused at once; after ``kill -9`` of the holder the lock is free within a second (docs/DESIGN.md §8).

Each contender (``tests/helpers/contender.py``) measures its own time from the request to the refusal.
The design's figure is 200 ms (docs/DESIGN.md §8): the median and the 95th percentile must meet it; the slowest refusal may
take up to 1 s, because 16 processes waking at once on a shared 2-core machine may wait for a core.
The measured figures are reported (typically well under 1 ms).
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.children import LineReader, stop_child
from tests.helpers.reliability import make_corpus, mutate_corpus, record_figure, size
from tests.helpers.storage_driver import run_job, served_state

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import StoreBusyError
from kortty_rag.index.lock import StoreLock

REQUESTS = 16
ROUNDS = size(2, 25)
REPO = Path(__file__).resolve().parents[2]
CONTENDER = [sys.executable, "-m", "tests.helpers.contender", "S"]


def contenders(folder: Path, start: Path) -> list[subprocess.Popen[str]]:
    return [
        subprocess.Popen(
            [*CONTENDER, str(folder), str(start), "--slow", "0.2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        for _ in range(REQUESTS)
    ]


def free_after_kill(pid: int, store_folder: Path) -> float:
    """Seconds from ``kill -9`` of the holder until the lock can be taken."""
    killed = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    while True:
        try:
            StoreLock(store_folder, purpose="probe").acquire().release()
            return time.monotonic() - killed
        except StoreBusyError:
            assert time.monotonic() - killed < 10, "the lock was never released"
            time.sleep(0.001)


def test_sixteen_requests_one_runs_the_rest_are_refused(tmp_path: Path) -> None:
    rng = random.Random(16)
    folder = make_corpus(tmp_path / "docs", 40, rng)
    run_job("S", folder)
    store_folder = StoreRegistry().folder(StoreRegistry().get("S"))
    refusals: list[float] = []
    frees: list[float] = []
    for round_ in range(ROUNDS):
        before = served_state("S")["docs"]
        mutate_corpus(folder, rng, str(round_), changes=10)  # work for the holder
        start = tmp_path / f"start-{round_}"
        os.mkfifo(start)
        procs = contenders(folder, start)
        try:
            outputs = [LineReader(proc.stdout) for proc in procs]
            for out in outputs:
                assert out.readline(timeout=120).strip() == "ready"
            # release all 16 at once; the write end stays open until every contender has answered,
            # so one that reaches its open() a moment late is not left waiting for a writer forever
            writer = os.open(start, os.O_WRONLY)
            try:
                answers = [json.loads(out.readline(timeout=120)) for out in outputs]
            finally:
                os.close(writer)
            running = [a for a in answers if a["outcome"] == "running"]
            busy = [a for a in answers if a["outcome"] == "busy"]
            assert len(running) == 1 and len(busy) == REQUESTS - 1, answers
            assert all("busy" in a["message"] for a in busy)
            holder = next(p for p in procs if p.pid == running[0]["pid"])
            assert holder.poll() is None  # every refusal came while the holder was running
            refusals += [a["seconds"] for a in busy]
            frees.append(free_after_kill(holder.pid, store_folder))
        finally:
            for proc in procs:
                stop_child(proc)
        after = served_state("S")  # the killed holder left the old snapshot, nothing else
        assert "error" not in after and after["docs"] == before and after["leftovers"] == []
    record_figure(
        "concurrency",
        rounds=ROUNDS,
        requests=REQUESTS,
        refused=len(refusals),
        refusal_ms_median=round(statistics.median(refusals) * 1000, 1),
        refusal_ms_p95=round(sorted(refusals)[int(len(refusals) * 0.95) - 1] * 1000, 1),
        refusal_ms_max=round(max(refusals) * 1000, 1),
        lock_free_ms_max=round(max(frees) * 1000, 1),
    )
    ordered = sorted(refusals)
    assert statistics.median(ordered) < 0.2 and ordered[int(len(ordered) * 0.95) - 1] < 0.2
    assert ordered[-1] < 1.0
    assert max(frees) < 1.0

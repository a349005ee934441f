"""The record of this machine's indexing speed: which jobs count, the median, a damaged file."""

from __future__ import annotations

import json
from pathlib import Path

from kortty_rag.models import EmbeddingIdentity
from kortty_rag.sync.speed import KEPT, MIN_CHUNKS, measured_chunks_per_second, record_job_speed

MODEL = EmbeddingIdentity("m", "a" * 64, 4, "mean", "", "", 256, 32)
OTHER = EmbeddingIdentity("m", "b" * 64, 4, "mean", "", "", 256, 32)  # same id, other weights


def test_no_measurement_before_the_first_job() -> None:
    assert measured_chunks_per_second(MODEL) is None


def test_the_median_of_the_last_jobs_of_the_same_model() -> None:
    for rate in (10, 30, 20, 1000, 25, 22, 21):  # chunks per second; the first two drop out
        assert record_job_speed(MODEL, embedded=100 * rate, reused=0, seconds=100)
    assert measured_chunks_per_second(MODEL) == 22  # median of 20, 1000, 25, 22, 21
    assert measured_chunks_per_second(OTHER) is None
    assert KEPT == 5


def test_jobs_that_say_too_little_are_not_kept(kortty_home: Path) -> None:
    assert not record_job_speed(MODEL, embedded=MIN_CHUNKS - 1, reused=0, seconds=1)
    assert not record_job_speed(MODEL, embedded=100, reused=101, seconds=10)  # mostly reused
    assert not record_job_speed(MODEL, embedded=100, reused=0, seconds=0)
    assert not (kortty_home / "rag" / "embedding-speed.json").exists()


def test_a_damaged_record_is_ignored_and_replaced(kortty_home: Path) -> None:
    path = kortty_home / "rag" / "embedding-speed.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"models": {"m": [{"chunks_per_second": "fast"}', encoding="utf-8")
    assert measured_chunks_per_second(MODEL) is None
    assert record_job_speed(MODEL, embedded=200, reused=0, seconds=10)
    assert measured_chunks_per_second(MODEL) == 20
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [job["chunks"] for jobs in data["models"].values() for job in jobs] == [200]

"""How fast this machine indexed with each model in its last jobs: the review's time estimates.

A nominal speed is wrong on every machine but one, and wrong on that one while a browser is busy.
After each indexing job that embedded enough chunks to say something (:data:`MIN_CHUNKS`, and more
embedded than reused), the job's rate — chunks embedded per second of its indexing stage, reading
and chunking included, as the progress line counts them — is kept for the model in
``~/.kortty/rag/embedding-speed.json`` (the last :data:`KEPT` jobs per model). The review estimates
with the median of them; until a model has one, with the nominal speed, and it says which.

The file holds figures only (model id and checksum, rates, chunk counts, times). It is this
product's own record: one that cannot be read is replaced by the next measurement, and failing to
write it never fails a job.
"""

from __future__ import annotations

import json
import logging
import statistics
import time
from typing import Any

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.paths import rag_dir
from kortty_rag.models import EmbeddingIdentity

SPEED_FILE = "embedding-speed.json"
#: a job that embedded fewer chunks says little about the machine's speed
MIN_CHUNKS = 64
#: jobs kept per model; the median of them is used
KEPT = 5
_VERSION = 1

_log = logging.getLogger(__name__)


def _key(identity: EmbeddingIdentity) -> str:
    return f"{identity.model_id}@{identity.model_sha256[:16]}/{identity.chunk_tokens}"


def _read() -> dict[str, list[dict[str, Any]]]:
    path = rag_dir() / SPEED_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        _log.warning("ignoring %s: %s", path, exc)
        return {}
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        return {}
    return {
        key: [j for j in jobs if isinstance(j, dict) and _rate(j) is not None]
        for key, jobs in models.items()
        if isinstance(key, str) and isinstance(jobs, list)
    }


def _rate(job: dict[str, Any]) -> float | None:
    rate = job.get("chunks_per_second")
    if isinstance(rate, int | float) and not isinstance(rate, bool) and 0 < rate < 1e6:
        return float(rate)
    return None


def measured_chunks_per_second(identity: EmbeddingIdentity) -> float | None:
    """The median rate of this model's last jobs on this machine, None before its first."""
    rates = [r for job in _read().get(_key(identity), []) if (r := _rate(job)) is not None]
    return statistics.median(rates) if rates else None


def record_job_speed(
    identity: EmbeddingIdentity, *, embedded: int, reused: int, seconds: float
) -> bool:
    """Keep the rate of a finished job; False when the job says too little (or writing failed)."""
    if embedded < MIN_CHUNKS or reused > embedded or seconds <= 0:
        return False
    models = _read()
    jobs = models.get(_key(identity), [])
    jobs.append(
        {
            "chunks_per_second": round(embedded / seconds, 3),
            "chunks": embedded,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
    )
    models[_key(identity)] = jobs[-KEPT:]
    try:
        write_json_atomic(rag_dir() / SPEED_FILE, {"version": _VERSION, "models": models})
    except OSError as exc:
        _log.warning("could not keep this job's speed: %s", exc)
        return False
    return True

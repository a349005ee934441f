"""Promise 10: indexing streams. Peak memory grows with the vector index the store must hold anyway,
not with the corpus: the memory an indexing run needs beyond what serving the result needs stays flat
as the corpus doubles (SPEC §9).

Each corpus size is indexed in a fresh process with the fake embedder (the model's own memory is a
constant the pipeline cannot change), then a second fresh process opens and searches the result. The
difference of their peaks is the indexing overhead: texts, chunks and vectors in flight, the snapshot
being written and checked. A pipeline that held the corpus (or its chunks) in memory would add at
least the corpus growth to it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers.reliability import WORDS, record_figure, size

#: corpus sizes in MB of text; each doubles the one before (the extraction cap of one review is 100 MiB)
SIZES_MB = [size(8, 24), size(16, 48), size(32, 96)]
DOCUMENT_BYTES = 200_000
#: allowed growth of the indexing overhead over the whole range, while the corpus grows fourfold
OVERHEAD_GROWTH_LIMIT = 8 << 20
REPO = Path(__file__).resolve().parents[2]


def generate(folder: Path, megabytes: int) -> None:
    rng = random.Random(megabytes)
    vocabulary = [f"{word}{i}" for word in WORDS for i in range(300)]
    folder.mkdir(parents=True)
    for i in range(megabytes * 1_000_000 // DOCUMENT_BYTES):
        words: list[str] = []
        length = 0
        while length < DOCUMENT_BYTES:
            words.append(rng.choice(vocabulary))
            length += len(words[-1]) + 1
        (folder / f"d{i:05d}.txt").write_text(" ".join(words))


def probe(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.helpers.memory_probe", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_indexing_memory_stays_flat_as_the_corpus_doubles(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = []
    for megabytes in SIZES_MB:
        folder, home = tmp_path / f"corpus-{megabytes}", tmp_path / f"home-{megabytes}"
        generate(folder, megabytes)
        home.mkdir()
        indexed = probe("index", str(home), str(folder))
        served = probe("serve", str(home))
        assert (
            indexed["documents"] == served["documents"] == megabytes * 1_000_000 // DOCUMENT_BYTES
        )
        rows.append(
            {
                "corpus_mb": megabytes,
                "chunks": indexed["chunks"],
                "index_peak_mib": round(indexed["peak_rss"] / 2**20, 1),
                "serve_peak_mib": round(served["peak_rss"] / 2**20, 1),
                "overhead_mib": round((indexed["peak_rss"] - served["peak_rss"]) / 2**20, 1),
                "vector_index_mib": round(indexed["vector_index_bytes"] / 2**20, 1),
            }
        )
    record_figure("memory", sizes=rows)
    growth = (rows[-1]["overhead_mib"] - rows[0]["overhead_mib"]) * 2**20
    corpus_growth = (SIZES_MB[-1] - SIZES_MB[0]) * 1_000_000
    assert growth < OVERHEAD_GROWTH_LIMIT < corpus_growth / 2, rows

"""Promise 4: a corrupted snapshot is refused with a clear error before hnswlib reads a byte of it; no
corruption crashes, aborts or exhausts the process (docs/DESIGN.md §9).

Truncations at many offsets, single-bit flips (1,000 in the CI tier, 20,000 in the soak tier), zeroed
4 KiB pages, hnswlib header fields set to hostile values, swapped files (vectors ↔ chunks, files and
pointers of another snapshot or another store), damaged manifests. The stores are opened in child
processes (with an address-space limit, so an allocation bomb would fail instead of exhausting the
machine) that count hnswlib's ``load_index`` calls; every exit code is checked.

Damage the checksums can see must be refused with 0 loads, every time. Damage a buggy writer could
have *signed* (manifest and pointer rewritten to match) leaves only the structural checks of
``index/hnsw_file.py`` and SQLite's own: those cases must be refused or load safely — never crash.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.helpers.corruption import (
    CHUNKS,
    CURRENT,
    LEXICAL,
    MANIFEST,
    VECTORS,
    generate,
    read_header,
)
from tests.helpers.reliability import record_figure, size

from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.index.snapshot import SNAPSHOTS, read_pointer
from kortty_rag.models import Document, EmbeddingIdentity

FLIPS = size(1000, 20_000, env="KORTTY_BIT_FLIPS")
TRUNCATIONS = size(60, 1000)
IDENTITY = EmbeddingIdentity("fake", "0" * 64, 32, "mean", "", "", 64, 10)
REPO = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 3 << 30


def add_documents(store: LocalStore, names: list[str], seed: int, remove: list[str] = ()) -> None:  # type: ignore[assignment]
    rng = np.random.default_rng(seed)
    update = store.begin()
    for name in remove:
        update.remove_document("s1", name)
    for name in names:
        vectors = rng.normal(size=(3, store.identity.dimensions)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        chunks = [
            NewChunk(0, f"{name}-{j}", None, j, j + 1, 3, f"alpha {name} chunk {j}")
            for j in range(3)
        ]
        update.add_document(Document("s1", name, f"sha-{name}", 10, "Text", 3), chunks, vectors)
    update.commit()


def build_stores(root: Path) -> tuple[Path, Path]:
    """A template store with an active snapshot and a retired one, plus spare files to swap in."""
    template, spare = root / "template", root / "spare"
    store = LocalStore(template, IDENTITY)
    add_documents(store, [f"a{i}.txt" for i in range(40)], seed=1)
    old_name = read_pointer(template)[0]  # type: ignore[index]
    shutil.copytree(template / SNAPSHOTS / old_name, spare / "old")
    (spare / "old-name").write_text(old_name)
    add_documents(store, [f"b{i}.txt" for i in range(12)], seed=2, remove=["a1.txt", "a2.txt"])
    store.close()
    shutil.copytree(spare / "old", template / SNAPSHOTS / old_name)  # retired, not yet cleaned up
    (template / "store.lock").unlink()
    other_identity = EmbeddingIdentity("other", "1" * 64, 16, "mean", "", "", 64, 10)
    other = LocalStore(root / "other", other_identity)
    add_documents(other, ["x.txt"], seed=3)
    other.close()
    (spare / "other").mkdir()
    shutil.copyfile(root / "other" / CURRENT, spare / "other" / CURRENT)
    other_snap = root / "other" / SNAPSHOTS / read_pointer(root / "other")[0]  # type: ignore[index]
    shutil.copyfile(other_snap / VECTORS, spare / "other" / VECTORS)
    return template, spare


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def open_all(
    cases: list[dict[str, Any]], template: Path, spare: Path, work: Path
) -> tuple[dict[int, dict[str, Any]], list[tuple[int, int]]]:
    """Run every case in child processes; a child that dies is replaced and the case that killed it
    recorded with its exit code."""
    results: dict[int, dict[str, Any]] = {}
    deaths: list[tuple[int, int]] = []
    remaining = cases
    while remaining:
        spec = {
            "template": template,
            "work": work,
            "spare": spare,
            "identity": IDENTITY.to_json(),
            "cases": remaining,
        }
        spec_file = work.with_suffix(".json")
        spec_file.write_text(json.dumps(spec, default=str))
        proc = subprocess.run(
            [sys.executable, "-m", "tests.helpers.corruption", str(spec_file)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=3600,
            check=False,
            preexec_fn=_limit_memory,
            env={"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(REPO)},
        )
        started = None
        for line in proc.stdout.splitlines():
            item = json.loads(line)
            if "start" in item:
                started = item["start"]
            else:
                results[item["id"]] = item
                started = None
        if proc.returncode == 0 and started is None:
            break
        assert started is not None, proc.stderr[-3000:]
        deaths.append((started, proc.returncode))
        remaining = [c for c in remaining if c["id"] > started]
    return results, deaths


def test_corrupted_snapshots_are_refused_before_loading(tmp_path: Path) -> None:
    template, spare = build_stores(tmp_path)
    snap = template / SNAPSHOTS / read_pointer(template)[0]  # type: ignore[index]
    files = {name: (snap / name).stat().st_size for name in (MANIFEST, VECTORS, CHUNKS, LEXICAL)}
    files[CURRENT] = (template / CURRENT).stat().st_size
    cases = generate(
        files, read_header(snap / VECTORS), flips=FLIPS, truncations=TRUNCATIONS, seed=4242
    )
    results, deaths = open_all(cases, template, spare, tmp_path / "work")

    by_kind: dict[str, Counter[str]] = {}
    problems: list[str] = []
    for case in cases:
        result = results.get(case["id"])
        kind = case["kind"] + (" (signed)" if case.get("resign") else "")
        tally = by_kind.setdefault(kind, Counter())
        if result is None:
            tally["crashed"] += 1
            continue
        if not result["changed"]:
            tally["no change"] += 1
            continue
        tally["cases"] += 1
        tally[result["outcome"]] += 1
        if result["outcome"] == "refused" and result["loads"] == 0:
            tally["refused before loading"] += 1
        if result["outcome"] == "error":
            problems.append(f"{case}: {result['reason']}")
        elif not case.get("resign") and (result["outcome"], result["loads"]) != ("refused", 0):
            problems.append(f"{case}: {result['outcome']} after {result['loads']} loads")
        elif case["kind"] in ("swap", "manifest") and result["outcome"] != "refused":
            problems.append(f"{case}: {result['outcome']}")
    record_figure(
        "corrupted snapshots",
        cases=len(cases),
        bit_flips=FLIPS,
        deaths=len(deaths),
        by_kind={kind: dict(sorted(t.items())) for kind, t in sorted(by_kind.items())},
    )
    assert deaths == [], f"children died (case id, exit code): {deaths[:20]}"
    assert problems == [], "\n".join(problems[:30])
    protected = sum(t["cases"] for k, t in by_kind.items() if "signed" not in k)
    refused = sum(t["refused before loading"] for k, t in by_kind.items() if "signed" not in k)
    assert protected == refused >= FLIPS * 0.99


@pytest.mark.parametrize("count", [0, 1])
def test_the_structural_check_accepts_what_hnswlib_writes(tmp_path: Path, count: int) -> None:
    """The second line must not refuse real files: an empty graph (every document removed) and a
    single element are the edge cases."""
    store = LocalStore(tmp_path, IDENTITY)
    add_documents(store, [f"d{i}.txt" for i in range(30)], seed=5)
    keep = [f"d{i}.txt" for i in range(count)]
    add_documents(
        store, [], seed=6, remove=[f"d{i}.txt" for i in range(30) if f"d{i}.txt" not in keep]
    )
    reopened = LocalStore(tmp_path, IDENTITY)
    assert sorted(d.rel_path for d in reopened.documents()) == keep
    reopened.close()
    store.close()

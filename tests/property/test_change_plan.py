"""Applying the change plan from folder state A to folder state B yields exactly B's documents,
unchanged documents are never embedded again, and no text the store has a vector for is embedded
twice (real scanner, pipeline and snapshots; fake embedder that records every text)."""

from __future__ import annotations

import hashlib
import itertools
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import HashEmbedder

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.index.factory import open_vector_store
from kortty_rag.sync.session import StoreSession

NAMES = ["a.txt", "b.md", "sub/c.txt", "sub/d.py", "sub/deep/e.txt", "f.txt", "g.rst"]
CONTENTS = ["alpha beta", "gamma delta epsilon", "zeta " * 80, "eta theta\n\niota", "kappa"]
states = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(CONTENTS), max_size=len(NAMES))
_counter = itertools.count()


def write_state(root: Path, state: dict[str, str]) -> None:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    for name, text in state.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def indexed(store_name: str) -> dict[str, str]:
    vectors = open_vector_store(StoreRegistry().get(store_name))
    try:
        return {d.rel_path: d.sha256 for d in vectors.documents()}
    finally:
        vectors.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(before=states, after=states)
def test_plan_from_a_to_b_gives_b(
    kortty_home: Path, before: dict[str, str], after: dict[str, str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "docs"
        write_state(root, before)
        embedder = HashEmbedder()
        registry = StoreRegistry()
        store = registry.create(f"P{next(_counter)}", embedder.identity)
        with StoreSession(store, registry=registry) as job:
            job.apply(job.review_new_sources([root]), embedder)
        write_state(root, after)
        seen = set(embedder.calls)  # every text the model has embedded for this store
        embedder.calls.clear()
        with StoreSession(store, registry=registry) as job:
            review = job.review_refresh()
            summary = job.apply(review, embedder)
        expected = {name: hashlib.sha256(text.encode()).hexdigest() for name, text in after.items()}
        assert indexed(store.name) == expected
        changed = {n for n in after if before.get(n) != after[n]}
        assert summary.indexed == len(changed)
        assert summary.unchanged == len(after) - len(changed)
        assert summary.removed == len(set(before) - set(after))
        vectors = open_vector_store(registry.get(store.name))
        try:
            chunks_of = {d.rel_path: d.chunk_count for d in vectors.documents()}
        finally:
            vectors.close()
        # only chunks of new and changed documents were embedded, and never a text the store had a
        # vector for already (kept or retired); the rest of their chunks were reused
        assert len(embedder.calls) == summary.chunks_embedded
        assert not seen & set(embedder.calls)
        assert summary.chunks_embedded + summary.chunks_reused == sum(chunks_of[n] for n in changed)

"""Hybrid ranking with the real starter model: an exact identifier from a code file is found through
the lexical part even when the dense part alone does not find it (docs/DESIGN.md §11)."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import RelevanceLevel, Store
from kortty_rag.retrieval.search import RetrievalService, SearchOptions
from kortty_rag.sync.session import StoreSession

DATA = Path(__file__).parent.parent / "data"
IDENTIFIER = "zqx7_hkq_vv2"


def make_store(tmp_path: Path, model: InstalledModel) -> Store:
    docs = tmp_path / "docs"
    shutil.copytree(DATA / "identifiers", docs)
    shutil.copytree(DATA / "corpus", tmp_path / "corpus")
    registry = StoreRegistry()
    store = registry.create("Code", model.identity())
    # single-file sources (each file is one document, whose 2-excerpt cap cannot hide the ranking)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in (
        "json/__init__.py",
        "json/decoder.py",
        "json/encoder.py",
        "json/scanner.py",
        "logging/handlers.py",
        "shelve.py",
        "sched.py",
        "bisect.py",
    ):
        shutil.copyfile(stdlib / name, docs / name.replace("/", "_"))  # code nobody here wrote
    paths = sorted(docs.iterdir()) + sorted((tmp_path / "corpus").rglob("*.*"))
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources(paths))
    return registry.get("Code")


def names(
    store: Store, query: str, level: RelevanceLevel | None = RelevanceLevel.OFF, **options: bool
) -> list[str]:
    """The ranking (no relevance floor unless ``level`` says so; ``None``: the store's own)."""
    service = RetrievalService()
    try:
        result = service.search(
            query, [store], options=SearchOptions(min_relevance=level, **options)
        )
    finally:
        service.close()
    return [Path(e.path).name for e in result.excerpts]


def test_hybrid_beats_each_part(tmp_path: Path, starter_model: InstalledModel) -> None:
    store = make_store(tmp_path, starter_model)
    # an exact identifier: the dense part alone does not rank its file first, the lexical part does
    dense = names(store, IDENTIFIER, lexical=False)
    lexical = names(store, IDENTIFIER, dense=False)
    hybrid = names(store, IDENTIFIER)
    assert dense[0] != "cache_layer.py"
    assert lexical[0] == "cache_layer.py"
    assert hybrid[0] == "cache_layer.py"
    # a paraphrase sharing no keyword: the lexical part misses it, the dense part finds it
    query = "memoize remote lookups with an expiry"
    assert "cache_layer.py" not in names(store, query, dense=False)
    assert names(store, query, lexical=False)[0] == "cache_layer.py"
    assert names(store, query)[0] == "cache_layer.py"
    # the store's default relevance floor keeps both answers first
    assert names(store, IDENTIFIER, None)[0] == names(store, query, None)[0] == "cache_layer.py"

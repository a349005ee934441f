"""Issue 23, item 6: a korTTY index holding one chunk twice, through a real `kortty-rag import kortty`
(docs/DESIGN.md §14). The import used to fail with "Could not write the new snapshot (UNIQUE
constraint failed: chunks.chunk_id); the previous snapshot is still active" — wrong words for a store
being created, and no store. Now the reader says what is wrong with korTTY's index, and the store is
created with its sources to be indexed here, as for any other damage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.helpers.kortty_writer import (
    Node,
    korthns_bytes,
    source_entry,
    store_entry,
    write_registry,
)

from kortty_rag.embedding.installed import InstalledModel


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """korTTY's sources live in the user's home (an imported source outside it may be refused)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def kortty_with(tmp_path: Path, model: InstalledModel, repeat: str) -> Path:
    """korTTY's data folder: one local store of one folder with two notes, whose index (written with
    the same model, so that its vectors would be kept) repeats a chunk."""
    notes = tmp_path / "notes"
    notes.mkdir()
    texts = {"a.md": "Volcanoes erupt magma.", "b.md": "Coral reefs grow in warm seas."}
    for name, text in texts.items():
        (notes / name).write_text(text + "\n")
    rng = np.random.default_rng(4)
    nodes = [
        Node(
            "src-1", name, "f" * 64, 0, 0, len(text), text, rng.normal(size=384).astype(np.float32)
        )
        for name, text in texts.items()
    ]
    if repeat == "chunk":  # the same chunk twice: korTTY's chunk id twice
        nodes.append(nodes[0])
    else:  # another chunk of a.md at the same offsets: another korTTY id, the same id here
        nodes.append(Node(**{**nodes[0].__dict__, "chunk_index": 1, "text": "Magma again."}))
    home = tmp_path / "kortty-java"
    index_dir = home / "rag" / "indexes" / "store-1"
    index_dir.mkdir(parents=True)
    (index_dir / "index.hnsw").write_bytes(
        korthns_bytes(nodes, version=2, dimensions=384, model_id=model.id)
    )
    source = source_entry("src-1", notes)
    write_registry(home, [store_entry("store-1", "Notes", index_dir, model.id, 384, [source])])
    return home


@pytest.mark.parametrize(
    ("repeat", "words"),
    [
        ("chunk", "it holds chunk id '{id}' twice (nodes 0 and 2)"),
        ("place", "it holds two chunks of 'a.md' at the same place (offsets 0..22): nodes 0 and 2"),
    ],
)
def test_a_repeated_chunk_is_reported_and_the_sources_indexed_instead(
    run_cli: Any, tmp_path: Path, starter_model: InstalledModel, repeat: str, words: str
) -> None:
    kortty = kortty_with(tmp_path, starter_model, repeat)
    index = kortty / "rag" / "indexes" / "store-1" / "index.hnsw"
    first_id = Node("src-1", "a.md", "f" * 64, 0, 0, 0, "", np.ones(1)).chunk_id
    done = run_cli("import", "kortty", "--from", str(kortty), "--no-index", "--json")
    assert done.returncode == 0, done.stderr
    (outcome,) = json.loads(done.stdout)
    assert "UNIQUE" not in done.stdout + done.stderr
    assert outcome["skipped"] == "" and outcome["store"] == "Notes", outcome
    assert outcome["reused_chunks"] == 0 and outcome["reindex"] is True
    said = words.format(id=first_id)
    assert (
        f"The korTTY index {index} cannot be read: {said}; the sources are indexed again"
        in (outcome["notes"])
    ), outcome["notes"]
    (store,) = json.loads(run_cli("store", "list", "--json").stdout)
    assert store["name"] == "Notes"
    listed = json.loads(run_cli("source", "list", "Notes", "--json").stdout)
    assert [s["path"] for s in listed] == [str(tmp_path / "notes")]

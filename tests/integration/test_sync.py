"""Synchronisation with the real starter model (docs/DESIGN.md §8): content hashes decide, renames are a delete
plus an add, a deleted root is MISSING, an unreadable root is ERROR with the old snapshot kept."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.snapshot import read_pointer

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


@pytest.fixture
def docs(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS, root)
    yield root
    for folder in [root, *root.rglob("*")]:  # let pytest clean up what a test locked
        if folder.is_dir() and not folder.is_symlink():
            folder.chmod(0o755)


@pytest.fixture
def store(run_cli: Any, starter_model: InstalledModel, docs: Path) -> str:
    assert run_cli("store", "create", "Sync", "--model", starter_model.id).returncode == 0
    added = run_cli("source", "add", "Sync", str(docs), "--yes", "--json")
    assert added.returncode == 0, added.stderr
    return "Sync"


def refresh(run_cli: Any, *args: str, enforce_modes: bool = False) -> dict[str, Any]:
    result = run_cli(
        "source", "refresh", "Sync", *args, "--yes", "--json", enforce_modes=enforce_modes
    )
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def sources(run_cli: Any) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(run_cli("source", "list", "Sync", "--json").stdout)
    return data


def hit_names(run_cli: Any, query: str, *options: str) -> list[str]:
    found = json.loads(run_cli("search", "Sync", query, "--json", *options).stdout)
    return [Path(e["path"]).name for e in found["excerpts"]]


def test_rename_delete_edit_and_add(run_cli: Any, store: str, docs: Path) -> None:
    (docs / "science" / "volcano.txt").rename(docs / "science" / "eruptions.txt")
    (docs / "hobbies" / "guitar.rst").unlink()
    inflation = docs / "science" / "inflation.md"
    inflation.write_text(inflation.read_text() + "\nHigher rates also strengthen the currency.\n")
    (docs / "garden" / "roses.md").write_text("Prune roses in late winter just above a bud.\n")
    data = refresh(run_cli)
    rows = {Path(r["path"]).name: (r["status"], r["reason"]) for r in data["sources"][0]["rows"]}
    assert rows["eruptions.txt"] == ("index", "new")
    assert rows["roses.md"] == ("index", "new")
    assert rows["inflation.md"] == ("index", "changed")
    assert rows["sourdough.txt"] == ("unchanged", "")
    assert sorted(data["sources"][0]["removed"]) == ["hobbies/guitar.rst", "science/volcano.txt"]
    summary = data["summary"]
    assert (summary["indexed"], summary["removed"], summary["unchanged"]) == (3, 2, 7)
    assert hit_names(run_cli, "magma chamber and lava")[0] == "eruptions.txt"
    assert "guitar.rst" not in hit_names(run_cli, "open chords and frets")
    (source,) = sources(run_cli)
    assert source["counts"]["files"] == 10 and source["status"] == "READY"


def test_deleted_root_is_missing_with_removed_count(run_cli: Any, store: str, docs: Path) -> None:
    shutil.rmtree(docs)
    data = refresh(run_cli)
    assert data["summary"]["removed"] == 10
    (source,) = sources(run_cli)
    assert source["status"] == "MISSING"
    assert "10 documents removed" in source["status_reason"]
    assert source["counts"] == {"files": 0, "chunks": 0, "issues": 0, "skipped": 0}
    assert hit_names(run_cli, "magma") == []  # no stale excerpts


def test_unreadable_root_is_error_and_keeps_the_snapshot(
    run_cli: Any, store: str, docs: Path
) -> None:
    folder = StoreRegistry().folder(StoreRegistry().get("Sync"))
    before = read_pointer(folder)
    docs.chmod(0o000)
    data = refresh(run_cli, enforce_modes=True)
    assert data["sources"][0]["root_state"] == "error"
    assert "cannot read folder" in data["sources"][0]["root_error"]
    (source,) = sources(run_cli)
    assert source["status"] == "ERROR" and "Permission denied" in source["status_reason"]
    assert source["counts"]["files"] == 10  # known-good state kept
    docs.chmod(0o755)
    assert read_pointer(folder) == before  # nothing changed, nothing was activated
    assert hit_names(run_cli, "magma chamber")[0] == "volcano.txt"
    assert refresh(run_cli)["summary"]["unchanged"] == 10
    assert sources(run_cli)[0]["status"] == "READY"


def test_unrelated_unreadable_entries_are_warnings(run_cli: Any, store: str, docs: Path) -> None:
    (docs / "hobbies").chmod(0o000)
    (docs / "garden" / "new.md").write_text("Mulch keeps soil moist in summer.\n")
    data = refresh(run_cli, enforce_modes=True)
    rows = {Path(r["path"]).name: r for r in data["sources"][0]["rows"]}
    assert rows["hobbies"]["status"] == "skipped"
    assert "cannot read folder" in rows["hobbies"]["reason"]
    assert rows["new.md"]["status"] == "index"
    assert data["sources"][0]["removed"] == []  # documents under the unreadable folder are kept
    (docs / "hobbies").chmod(0o755)
    assert "marathon.md" in hit_names(run_cli, "long distance running plan")
    assert sources(run_cli)[0]["counts"]["files"] == 11


def test_disable_enable_and_remove(run_cli: Any, store: str, docs: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.md"
    extra.write_text("Lighthouses guide ships along dangerous coasts at night.\n")
    assert run_cli("source", "add", "Sync", str(extra), "--yes").returncode == 0
    assert hit_names(run_cli, "lighthouses guiding ships")[0] == "extra.md"

    assert run_cli("source", "disable", "Sync", str(extra)).returncode == 0
    assert "extra.md" not in hit_names(run_cli, "lighthouses guiding ships")
    assert {s["enabled"] for s in sources(run_cli)} == {True, False}
    assert run_cli("source", "enable", "Sync", str(extra)).returncode == 0
    assert hit_names(run_cli, "lighthouses guiding ships")[0] == "extra.md"

    refused = run_cli("source", "remove", "Sync", str(docs))  # no --yes, no terminal
    assert refused.returncode == 2 and len(sources(run_cli)) == 2
    removed = run_cli("source", "remove", "Sync", str(docs), "--yes")
    assert removed.returncode == 0 and "files were not touched" in removed.stdout
    assert [Path(s["path"]).name for s in sources(run_cli)] == ["extra.md"]
    # only the other source is left (it is not about magma: no relevance floor for this check)
    assert hit_names(run_cli, "magma chamber", "--min-relevance", "off") == ["extra.md"]
    assert (docs / "science" / "volcano.txt").exists()


def test_source_list_shows_status_counts_and_last_index(run_cli: Any, store: str) -> None:
    listed = run_cli("source", "list", "Sync")
    assert listed.returncode == 0
    header, row = listed.stdout.splitlines()[:2]
    assert header.split()[:4] == ["PATH", "TYPE", "SYNC", "STATUS"]
    assert "folder" in row and "manual" in row and "READY" in row and "10/" in row

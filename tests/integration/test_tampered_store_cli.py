"""A store folder changed behind the product's back, end to end with the CLI and the real starter model:
the refresh is refused with what to do next, doing that repairs the store, and deletion keeps (and
lists) what the product did not create."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.reliability.test_tampered_store import plant_victim, swap_for_link, tree_state

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.snapshot import SNAPSHOTS

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


def test_a_symlinked_snapshots_folder_through_the_cli(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", docs)
    assert run_cli("store", "create", "Science", "--model", starter_model.id).returncode == 0
    added = run_cli("source", "add", "Science", str(docs), "--yes")
    assert added.returncode == 0, added.stderr
    folder = StoreRegistry().folder(StoreRegistry().get("Science"))
    victim = tmp_path / "victim"
    swap_for_link(folder / SNAPSHOTS, victim)
    plant_victim(victim)
    (docs / "glaciers.txt").write_text("Glaciers carve U-shaped valleys as they move downhill.")
    before = tree_state(victim)

    refreshed = run_cli("source", "refresh", "Science", "--yes")

    assert refreshed.returncode == 1, refreshed.stdout + refreshed.stderr
    error, hint = refreshed.stderr.strip().splitlines()[-2:]
    assert "changed by something else" in error and str(folder / SNAPSHOTS) in error
    assert hint.startswith("kortty-rag: what to do: Move") and "store rebuild" in hint
    assert tree_state(victim) == before

    # what the message says to do repairs the store
    (folder / SNAPSHOTS).unlink()
    rebuilt = run_cli("store", "rebuild", "Science")
    assert rebuilt.returncode == 0, rebuilt.stderr
    found = json.loads(run_cli("search", "Science", "glacier valleys", "--json").stdout)
    assert Path(found["excerpts"][0]["path"]).name == "glaciers.txt"

    (folder / SNAPSHOTS / "notes.txt").write_text("the user's")
    deleted = run_cli("store", "delete", "Science", "--yes", "--json")
    assert deleted.returncode == 0, deleted.stderr
    assert json.loads(deleted.stdout)["kept_foreign_files"] == [f"{SNAPSHOTS}/notes.txt"]
    assert set(tree_state(folder)) == {SNAPSHOTS, f"{SNAPSHOTS}/notes.txt"}
    assert (folder / SNAPSHOTS / "notes.txt").read_text() == "the user's"
    assert tree_state(victim) == before
    assert json.loads(run_cli("store", "list", "--json").stdout) == []

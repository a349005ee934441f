"""`kortty-rag doctor --repair` keeps what kortty-rag did not create in ``snapshots/`` — and then says
so (docs/DESIGN.md §14): it used to report the kept entries as "left by interrupted jobs" with
"Run `kortty-rag doctor --repair` to remove them", the very command that had just kept them.
Real starter model and a real snapshot, as in ``test_doctor.py``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
REMOVE_HINT = "Run `kortty-rag doctor --repair` to remove them"


def leftovers(run_cli: Any, *args: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    result = run_cli("doctor", *args, "--json")
    assert result.returncode in (0, 1), result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return result.returncode, data, [f for f in data["findings"] if f["check"] == "leftovers"]


def test_repair_says_what_it_kept_and_why(
    run_cli: Any, starter_model: InstalledModel, kortty_home: Path, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", docs)
    assert run_cli("store", "create", "Doc", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "Doc", str(docs), "--yes").returncode == 0
    (folder,) = (kortty_home / "rag" / "stores").iterdir()
    snapshots = folder / "snapshots"
    build = snapshots / ".kortty-tmp-snap-0123abcd"  # an interrupted build: ours only
    build.mkdir()
    (build / "chunks.sqlite").write_bytes(b"half written")
    holding = snapshots / "snap-00000009-0badf00d"  # named like a snapshot, holding a user's file
    holding.mkdir()
    (holding / "manifest.json").write_bytes(b"{}")
    (holding / "mine.txt").write_text("my notes")
    elsewhere = tmp_path / "elsewhere"  # a link named like a snapshot: never followed
    elsewhere.mkdir()
    (elsewhere / "vectors.hnsw").write_bytes(b"someone else's")
    (snapshots / "snap-00000010-0badf00d").symlink_to(elsewhere)

    code, _, found = leftovers(run_cli)
    assert code == 0  # warnings: what is served is fine
    by_kind = {f["repairable"]: f for f in found}
    assert len(found) == 2 and set(by_kind) == {True, False}, found
    assert by_kind[True]["message"].startswith("1 left by interrupted jobs")
    assert ".kortty-tmp-snap-0123abcd" in by_kind[True]["message"]
    kept = by_kind[False]
    assert kept["message"].startswith("2 kept, because they are or hold something kortty-rag")
    assert "snap-00000009-0badf00d/mine.txt" in kept["message"]
    assert "snap-00000010-0badf00d (a symbolic link)" in kept["message"]
    assert REMOVE_HINT not in kept["fix"] and "removes only what it created" in kept["fix"]

    repaired = run_cli("doctor", "--repair")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "repaired Doc: removed 1 leftovers" in repaired.stdout
    assert REMOVE_HINT not in repaired.stdout, repaired.stdout
    (line,) = [line for line in repaired.stdout.splitlines() if "leftovers:" in line]
    assert "2 kept, because they are or hold something kortty-rag did not create" in line
    assert "mine.txt" in line and "a symbolic link" in line
    assert not build.exists()
    assert (holding / "mine.txt").read_text() == "my notes"
    assert not (holding / "manifest.json").exists()  # the product's own file in it went
    assert (snapshots / "snap-00000010-0badf00d").is_symlink()
    assert hashlib.sha256((elsewhere / "vectors.hnsw").read_bytes()).hexdigest() == (
        hashlib.sha256(b"someone else's").hexdigest()
    )

    code, data, found = leftovers(run_cli, "--repair")  # nothing left that a repair could do
    assert code == 0 and data["repaired"] == []
    assert [f["repairable"] for f in found] == [False]

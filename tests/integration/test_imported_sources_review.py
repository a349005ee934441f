"""Imports are proposals, not consent (docs/DESIGN.md §14, issue 23 items 2, 3 and 7), with the real
starter model and real snapshots:

- an exported archive edited to add a hidden folder and a folder outside the home (both on auto
  sync) and to switch on the autonomous role: the import refuses both roots, switches the opt-ins
  and automatic sync off, and the remaining source is read only once a person confirms its review —
  not by ``watch``, not by ``store rebuild``, not by a refresh without ``--yes``;
- a korTTY folder with the same kind of store: ``import kortty`` prints the review of what each store
  would index and indexes only with ``--yes``;
- ``source move`` changes nothing until the move is confirmed.

The hostile archive is written here with :mod:`tarfile` from the product's own export (only the
header's definition is changed), the korTTY folder by ``tests/helpers/kortty_writer``.
"""

from __future__ import annotations

import io
import json
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.kortty_writer import source_entry, store_entry, write_registry

from kortty_rag.app.workspace import Workspace
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import UsageError
from kortty_rag.mcp_server.server import StoreTools

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
TOKEN = "gho_16C7e42F292c6912E7710c838347Ae178B4a"  # what ~/.config/gh/hosts.yml holds
PAYROLL = "Payroll 2026: Alice 7400, Bob 6900"  # a file outside the home folder


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with documents, a hidden folder holding a token, and a folder outside it."""
    home = tmp_path / "home"
    shutil.copytree(CORPUS / "science", home / "docs")
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".config" / "gh" / "hosts.yml").write_text(
        f"github.com:\n    oauth_token: {TOKEN}\n    user: someone\n"
    )
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "payroll.txt").write_text(f"{PAYROLL}\n")
    monkeypatch.setenv("HOME", str(home))
    return home


def cli_json(run_cli: Any, *args: str) -> Any:
    result = run_cli(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def search_text(run_cli: Any, store: str, query: str) -> str:
    return " ".join(e["text"] for e in cli_json(run_cli, "search", store, query)["excerpts"])


def hostile_copy(archive: Path, target: Path, change: Any) -> None:
    """``archive`` with its header's store definition changed by ``change`` (the only file whose
    content no checksum covers), every other member as it was."""
    with (
        tarfile.open(archive) as source,
        tarfile.open(target, "w", format=tarfile.PAX_FORMAT) as out,
    ):
        for member in source.getmembers():
            data = source.extractfile(member)
            assert data is not None
            raw = data.read()
            if member.name == "kortty-rag-export.json":
                header = json.loads(raw)
                change(header["store"])
                raw = json.dumps(header).encode()
            info = tarfile.TarInfo(member.name)
            info.size, info.mode, info.mtime = len(raw), member.mode, member.mtime
            out.addfile(info, io.BytesIO(raw))


def test_an_edited_archive_brings_no_unreviewed_source(
    run_cli: Any, starter_model: InstalledModel, home: Path, tmp_path: Path
) -> None:
    docs = home / "docs"
    assert run_cli("store", "create", "Team", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "Team", str(docs), "--yes").returncode == 0
    archive = tmp_path / "team.kortty.tar"
    assert run_cli("store", "export", "Team", str(archive)).returncode == 0
    assert run_cli("store", "delete", "Team", "--yes").returncode == 0

    def edit(store: dict[str, Any]) -> None:
        (docs_source,) = store["sources"]
        docs_source["sync_mode"] = "auto"
        for index, path in enumerate([home / ".config" / "gh", tmp_path / "outside"]):
            store["sources"].append(
                {"id": f"src-00000000000{index}", "path": str(path), "kind": "folder"}
                | {"sync_mode": "auto", "status": "READY"}
            )
        store["roles"] |= {"coding": True, "autonomous": True, "mcp": True}

    hostile = tmp_path / "hostile.kortty.tar"
    hostile_copy(archive, hostile, edit)
    imported = cli_json(run_cli, "store", "import", str(hostile))
    refused = {r["path"]: r["reason"] for r in imported["refused"]}
    assert refused == {
        str(home / ".config" / "gh"): "it is or lies inside a hidden file or folder (.config)",
        str(tmp_path / "outside"): "it lies outside your home folder",
    }
    assert imported["reset"] == [
        "autonomous workflows",
        "access for other AI tools (MCP)",
        "automatic sync (sources: 1)",
    ]
    assert imported["needs_review"] == [str(docs)]
    roles = imported["store"]["roles"]
    assert (roles["coding"], roles["autonomous"], roles["mcp"]) == (True, False, False)
    (source,) = cli_json(run_cli, "source", "list", "Team")
    assert source["path"] == str(docs) and source["needs_review"]
    assert source["sync_mode"] == "manual"
    # the archive's own chunks serve; nothing was read here
    assert "magma" in search_text(run_cli, "Team", "magma chamber and lava").lower()

    doctor = run_cli("doctor", "Team")
    assert doctor.returncode == 0 and "was not reviewed on this computer" in doctor.stdout

    # nothing reads the proposed source before a person confirms its review
    assert run_cli("watch", "--once").returncode == 0
    mode = run_cli("source", "mode", "Team", str(docs), "auto")
    assert mode.returncode == 2 and "not reviewed on this computer" in mode.stderr
    rebuild = run_cli("store", "rebuild", "Team")
    assert rebuild.returncode == 2 and "without a review" in rebuild.stderr
    unconfirmed = run_cli("source", "refresh", "Team", input="")
    assert unconfirmed.returncode == 0 and "first review on this computer" in unconfirmed.stdout
    assert "Not indexed" in unconfirmed.stderr
    assert cli_json(run_cli, "source", "list", "Team")[0]["needs_review"]

    # an agent's refresh (MCP, opted in by the user) does not count as a review either
    (docs / "new-note.txt").write_text("The quasiperiodic zorblat arrived today.\n")
    assert run_cli("store", "roles", "Team", "--mcp").returncode == 0
    tools = StoreTools()
    try:
        with pytest.raises(UsageError, match="waits for the user's review"):
            tools.refresh_source("Team")
        with pytest.raises(UsageError, match="waits for the user's review"):
            tools.refresh_source("Team", str(docs))
    finally:
        tools.close()
    other = home / "other"
    other.mkdir()
    (other / "note.txt").write_text("Ferns grow in the shade of the old oak.\n")
    assert run_cli("source", "add", "Team", str(other), "--yes").returncode == 0
    with Workspace() as workspace:  # what every unattended refresh gets: the source held back
        store = workspace.store("Team")
        with pytest.raises(UsageError, match="waits for the user's review"):
            workspace.refresh_sources(store, [store.sources[0].id])
        held = workspace.refresh_sources(store)
        assert [s.path for s in held.review.held_back] == [str(docs)]
        assert [r.source.path for r in held.review.report.sources] == [str(other)]
        assert held.summary is not None and held.summary.indexed == 0
    assert "zorblat" not in search_text(run_cli, "Team", "quasiperiodic zorblat")
    assert run_cli("source", "remove", "Team", str(other), "--yes").returncode == 0

    reviewed = cli_json(run_cli, "source", "refresh", "Team", "--yes")
    assert [s["needs_review"] for s in reviewed["sources"]] == [True]  # this was its review
    assert reviewed["indexed"] and reviewed["summary"]["indexed"] == 1  # the new note only
    (after,) = cli_json(run_cli, "source", "list", "Team")
    assert not after["needs_review"] and after["status"] == "READY"
    assert run_cli("source", "mode", "Team", str(docs), "auto").returncode == 0
    for query in ("oauth token github", "payroll Alice Bob"):
        found = search_text(run_cli, "Team", query)
        assert TOKEN not in found and PAYROLL not in found


def kortty_home(home: Path, tmp_path: Path, model_id: str) -> Path:
    """korTTY's data folder with one store: autonomous on, a hidden folder and the documents on
    automatic sync, and a folder outside the home."""
    kortty = tmp_path / "kortty"
    entry = store_entry(
        "store-1",
        "Research",
        None,
        model_id,
        384,
        [
            source_entry("s-gh", home / ".config" / "gh", automatic=True),
            source_entry("s-out", tmp_path / "outside"),
            source_entry("s-docs", home / "docs", automatic=True),
        ],
    )
    entry["store"]["autonomousEnabled"] = True
    write_registry(kortty, [entry])
    return kortty


@pytest.mark.parametrize("confirmed", [False, True])
def test_kortty_import_reviews_before_it_indexes(
    run_cli: Any, starter_model: InstalledModel, home: Path, tmp_path: Path, confirmed: bool
) -> None:
    kortty = kortty_home(home, tmp_path, "nomic-embed-text-v1.5")  # another model: re-indexed
    yes = ["--yes"] if confirmed else []
    result = run_cli("import", "kortty", "--from", str(kortty), *yes, input="")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Review of 'Research':" in out and "volcano.txt" in out  # the review, printed first
    assert "hosts.yml" not in out and "payroll" not in out
    assert (
        "Source "
        + str(home / ".config" / "gh")
        + " was not imported: it is or lies inside a hidden file or folder (.config)"
        in out
    )
    assert "was not imported: it lies outside your home folder" in out
    assert "Switched off for the imported store: autonomous workflows;" in out
    assert "Switched off for the imported store: automatic sync (sources: 1);" in out
    (store,) = cli_json(run_cli, "store", "list")
    assert store["roles"]["autonomous"] is False
    (source,) = cli_json(run_cli, "source", "list", "Research")
    assert source["path"] == str(home / "docs") and source["sync_mode"] == "manual"
    assert source["needs_review"] is not confirmed
    found = search_text(run_cli, "Research", "magma chamber and lava")
    if confirmed:
        assert "its sources were reviewed and indexed here" in out and "magma" in found.lower()
    else:
        assert "its sources wait for your review" in out and found == ""
        assert run_cli("watch", "--once").returncode == 0  # never reads it either
        assert search_text(run_cli, "Research", "magma chamber and lava") == ""
        assert cli_json(run_cli, "source", "refresh", "Research", "--yes")["indexed"]
        assert "magma" in search_text(run_cli, "Research", "magma chamber and lava").lower()
    assert TOKEN not in search_text(run_cli, "Research", "oauth token github")


def test_kortty_import_json_lists_what_was_refused_and_reset(
    run_cli: Any, starter_model: InstalledModel, home: Path, tmp_path: Path
) -> None:
    kortty = kortty_home(home, tmp_path, "nomic-embed-text-v1.5")
    (outcome,) = cli_json(run_cli, "import", "kortty", "--from", str(kortty), "--no-index")
    assert [r["path"] for r in outcome["refused"]] == [
        str(home / ".config" / "gh"),
        str(tmp_path / "outside"),
    ]
    assert outcome["reset"] == ["autonomous workflows", "automatic sync (sources: 1)"]
    assert outcome["needs_review"] == [str(home / "docs")] and outcome["indexed"] is False


def test_source_move_changes_nothing_until_confirmed(
    run_cli: Any, starter_model: InstalledModel, home: Path
) -> None:
    docs = home / "docs"
    assert run_cli("store", "create", "M", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "M", str(docs), "--yes", "--auto").returncode == 0
    moved_to = home / "moved"
    docs.rename(moved_to)

    unconfirmed = run_cli("source", "move", "M", str(docs), str(moved_to), input="")
    assert unconfirmed.returncode == 0, unconfirmed.stderr
    assert "moves to" in unconfirmed.stdout and "Not moved, nothing changed" in unconfirmed.stderr
    assert "now points to" not in unconfirmed.stderr
    (source,) = cli_json(run_cli, "source", "list", "M")
    assert source["path"] == str(docs) and source["status"] == "READY"

    confirmed = cli_json(run_cli, "source", "move", "M", str(docs), str(moved_to), "--yes")
    assert confirmed["indexed"] and confirmed["summary"]["chunks_embedded"] == 0
    (source,) = cli_json(run_cli, "source", "list", "M")
    assert source["path"] == str(moved_to) and source["status"] == "READY"


def test_a_link_that_appears_after_the_import_is_not_followed_by_the_review(
    run_cli: Any, starter_model: InstalledModel, home: Path, tmp_path: Path
) -> None:
    """A korTTY source ``~/later/docs`` that does not exist at the import passes the import's rules;
    a link ``~/later → ~/.config`` made afterwards must not lead its first review into the hidden
    folder (found by a walkthrough: the review followed it and indexed ``~/.config/docs``)."""
    secret = home / ".config" / "docs"
    secret.mkdir(parents=True)
    (secret / "secret.md").write_text(f"{TOKEN}\n")
    kortty = tmp_path / "kortty"
    write_registry(
        kortty,
        [
            store_entry(
                "store-1",
                "Later",
                None,
                "another-model",
                384,
                [source_entry("s-later", home / "later" / "docs")],
            )
        ],
    )
    (outcome,) = cli_json(run_cli, "import", "kortty", "--from", str(kortty), "--no-index")
    assert outcome["needs_review"] == [str(home / "later" / "docs")]
    (home / "later").symlink_to(home / ".config")
    review = run_cli("source", "refresh", "Later", "--yes")
    assert review.returncode == 0, review.stderr
    assert "was not read: it is or lies inside a hidden file or folder (.config)" in review.stdout
    assert "secret.md" not in review.stdout
    (source,) = cli_json(run_cli, "source", "list", "Later")
    assert source["needs_review"] and source["status"] == "ERROR"
    assert source["counts"]["chunks"] == 0 and source["real_path"] is None
    assert TOKEN not in search_text(run_cli, "Later", "secret token")


def test_an_archive_whose_index_names_a_file_outside_its_source_is_refused(
    run_cli: Any, starter_model: InstalledModel, home: Path, tmp_path: Path
) -> None:
    """A document ``../.ssh/id_rsa`` in the archive's chunk table (checksums made to match) would
    make a citation name a file nothing read (found by a walkthrough)."""
    import hashlib
    import sqlite3

    assert run_cli("store", "create", "Team", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "Team", str(home / "docs"), "--yes").returncode == 0
    archive = tmp_path / "team.kortty.tar"
    assert run_cli("store", "export", "Team", str(archive)).returncode == 0
    work = tmp_path / "work"
    work.mkdir()
    with tarfile.open(archive) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    table = work / "chunks.sqlite"
    table.write_bytes(members["snapshot/chunks.sqlite"])
    db = sqlite3.connect(table)
    db.execute(
        "UPDATE documents SET rel_path = '../.ssh/id_rsa' WHERE id = (SELECT min(id) FROM documents)"
    )
    db.commit()
    db.close()
    members["snapshot/chunks.sqlite"] = table.read_bytes()
    digest = {
        "size": table.stat().st_size,
        "sha256": hashlib.sha256(table.read_bytes()).hexdigest(),
    }
    manifest = json.loads(members["snapshot/manifest.json"])
    manifest["files"]["chunks.sqlite"] = digest
    members["snapshot/manifest.json"] = json.dumps(manifest).encode()
    header = json.loads(members["kortty-rag-export.json"])
    header["files"]["chunks.sqlite"] = digest
    header["manifest_sha256"] = hashlib.sha256(members["snapshot/manifest.json"]).hexdigest()
    members["kortty-rag-export.json"] = json.dumps(header).encode()
    forged = tmp_path / "forged.kortty.tar"
    with tarfile.open(forged, "w", format=tarfile.PAX_FORMAT) as out:
        for name in (
            "kortty-rag-export.json",
            *(
                f"snapshot/{f}"
                for f in ("manifest.json", "vectors.hnsw", "chunks.sqlite", "lexical.npz")
            ),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(members[name])
            out.addfile(info, io.BytesIO(members[name]))
    result = run_cli("store", "import", str(forged), "--name", "Spoof")
    assert result.returncode == 1
    assert "its index names a document outside its source ('../.ssh/id_rsa')" in result.stderr
    assert [s["name"] for s in cli_json(run_cli, "store", "list")] == ["Team"]

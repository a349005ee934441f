"""`store export` / `store import` with the real starter model and a real snapshot (docs/DESIGN.md
§14): a round trip answers every search exactly as before; hostile and damaged archives — written
here with :mod:`tarfile` directly, not with the product's writer — are refused with a clear error,
and leave no store and no file behind."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"
QUERIES = ["magma chamber and lava", "how to prune roses", "sourdough starter feeding"]


def excerpts(run_cli: Any, store: str, query: str) -> list[dict[str, Any]]:
    result = run_cli("search", store, query, "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)["excerpts"]
    for excerpt in found:  # the store's id and name differ by design; everything else must not
        excerpt.pop("store", None)
        excerpt.pop("store_id", None)
    return list(found)


def store_names(run_cli: Any) -> list[str]:
    return [s["name"] for s in json.loads(run_cli("store", "list", "--json").stdout)]


@pytest.fixture
def exported(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, dict[str, list[dict[str, Any]]]]:
    monkeypatch.setenv("HOME", str(tmp_path))  # an imported source outside the home is refused
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS, docs)
    assert run_cli("store", "create", "Orig", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "Orig", str(docs), "--yes").returncode == 0
    before = {q: excerpts(run_cli, "Orig", q) for q in QUERIES}
    archive = tmp_path / "orig.kortty.tar"
    result = run_cli("store", "export", "Orig", str(archive), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["chunks"] > 0 and data["bytes"] == archive.stat().st_size
    return archive, before


def test_round_trip_answers_identically(
    run_cli: Any, exported: tuple[Path, dict[str, list[dict[str, Any]]]], tmp_path: Path
) -> None:
    archive, before = exported
    again = run_cli("store", "export", "Orig", str(archive))
    assert again.returncode == 2 and "already exists" in again.stderr  # never overwritten

    taken = run_cli("store", "import", str(archive))
    assert taken.returncode == 2 and "already exists" in taken.stderr and "--name" in taken.stderr
    imported = run_cli("store", "import", str(archive), "--name", "Copy", "--json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["store"]["name"] == "Copy"
    for query, expected in before.items():
        assert excerpts(run_cli, "Copy", query) == expected

    assert run_cli("store", "delete", "Orig", "--yes").returncode == 0
    restored = run_cli("store", "import", str(archive))
    assert restored.returncode == 0, restored.stderr
    assert "every checksum verified" in restored.stdout
    for query, expected in before.items():
        assert excerpts(run_cli, "Orig", query) == expected
    # the sources came along, waiting for their review here: confirmed, it finds every document
    # unchanged and embeds nothing
    (source,) = json.loads(run_cli("source", "list", "Orig", "--json").stdout)
    assert source["needs_review"] and source["path"] == str(tmp_path / "docs")
    refresh = run_cli("source", "refresh", "Orig", "--yes", "--json")
    summary = json.loads(refresh.stdout)["summary"]
    assert summary["indexed"] == 0 and summary["chunks_embedded"] == 0 and summary["unchanged"] > 0


def members(archive: Path) -> list[tuple[tarfile.TarInfo, bytes]]:
    with tarfile.open(archive) as tar:
        return [(m, tar.extractfile(m).read()) for m in tar.getmembers()]  # type: ignore[union-attr]


def write_tar(path: Path, entries: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def hostile(archive: Path, variant: str, out: Path) -> Path:
    """An archive that must be refused, made from a good one."""
    good = members(archive)
    entries: list[tuple[tarfile.TarInfo, bytes | None]] = [(m, d) for m, d in good]
    if variant in ("traversal", "absolute"):
        info = tarfile.TarInfo(
            "../../escaped.txt" if variant == "traversal" else str(out.parent / "abs.txt")
        )
        info.size = 5
        entries.insert(1, (info, b"owned"))
    elif variant in ("symlink", "hardlink"):
        info = tarfile.TarInfo("snapshot/vectors.hnsw")
        info.type = tarfile.SYMTYPE if variant == "symlink" else tarfile.LNKTYPE
        info.linkname = "/etc/passwd"
        entries = [
            (info, None) if m.name == "snapshot/vectors.hnsw" else (m, d) for m, d in entries
        ]
    elif variant == "extra member":
        info = tarfile.TarInfo("snapshot/extra.bin")
        info.size = 3
        entries.append((info, b"abc"))
    elif variant == "duplicate":
        entries.append(entries[-1])
    elif variant == "wrong order":
        entries[1], entries[2] = entries[2], entries[1]
    elif variant == "missing file":
        entries = entries[:-1]
    elif variant == "folder member":
        info = tarfile.TarInfo("snapshot")
        info.type = tarfile.DIRTYPE
        entries.insert(1, (info, None))
    elif variant == "foreign header":
        header = json.loads(entries[0][1] or b"")
        header["product"] = "someone-else"
        raw = json.dumps(header).encode()
        info = tarfile.TarInfo(entries[0][0].name)
        info.size = len(raw)
        entries[0] = (info, raw)
    else:
        raise ValueError(variant)
    return write_tar(out, entries)


VARIANTS = [
    "traversal",
    "absolute",
    "symlink",
    "hardlink",
    "extra member",
    "duplicate",
    "wrong order",
    "missing file",
    "folder member",
    "foreign header",
]


@pytest.mark.parametrize("variant", VARIANTS)
def test_hostile_archives_are_refused(
    run_cli: Any,
    exported: tuple[Path, dict[str, list[dict[str, Any]]]],
    tmp_path: Path,
    kortty_home: Path,
    variant: str,
) -> None:
    archive, _ = exported
    bad = hostile(archive, variant, tmp_path / "work" / "bad.tar")
    stores_before = sorted(p.name for p in (kortty_home / "rag" / "stores").iterdir())
    result = run_cli("store", "import", str(bad), "--name", "Evil")
    assert result.returncode == 1, result.stdout
    assert "cannot be imported" in result.stderr
    assert "Evil" not in store_names(run_cli)
    assert sorted(p.name for p in (kortty_home / "rag" / "stores").iterdir()) == stores_before
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "work" / "abs.txt").exists()
    assert not list(tmp_path.rglob("escaped.txt"))


def test_truncated_and_bit_flipped_archives_are_refused(
    run_cli: Any, exported: tuple[Path, dict[str, list[dict[str, Any]]]], tmp_path: Path
) -> None:
    archive, _ = exported
    data = archive.read_bytes()
    with tarfile.open(archive) as tar:
        layout = [(m.name, m.offset, m.offset_data, m.size) for m in tar.getmembers()]
    cases: dict[str, bytes] = {
        "truncated in half": data[: len(data) // 2],
        "truncated at the end": data[: layout[-1][2] + layout[-1][3] // 2],
        "empty": b"",
    }
    for name, offset, offset_data, size in layout:
        flipped = bytearray(data)
        flipped[offset_data + size // 2] ^= 0x10  # inside the member's bytes
        cases[f"bit flip in {name}"] = bytes(flipped)
        header = bytearray(data)
        header[offset + 130] ^= 0x01  # inside its tar header (mode/size fields)
        cases[f"bit flip in the header of {name}"] = bytes(header)
    for label, content in cases.items():
        bad = tmp_path / "bad.tar"
        bad.write_bytes(content)
        result = run_cli("store", "import", str(bad), "--name", "Broken")
        assert result.returncode != 0, label
        assert "cannot be imported" in result.stderr, (label, result.stderr)
        assert "Traceback" not in result.stderr, label
        assert "Broken" not in store_names(run_cli), label


def test_a_store_whose_model_is_not_installed_is_refused(
    run_cli: Any,
    exported: tuple[Path, dict[str, list[dict[str, Any]]]],
    starter_model: InstalledModel,
) -> None:
    archive, _ = exported
    shutil.rmtree(starter_model.path.parent)
    result = run_cli("store", "import", str(archive), "--name", "NoModel")
    assert result.returncode == 2
    assert starter_model.id in result.stderr and "models install starter" in result.stderr
    assert "NoModel" not in store_names(run_cli)

"""`kortty-rag doctor` with the real starter model and a real snapshot (docs/DESIGN.md §14): healthy,
each kind of damage (made by the corruption helpers the reliability tests use), a moved root, a
changed or missing model, leftovers; read-only unless `--repair`, which does only what is safe."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import corruption

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".lock")  # a lock names its holder
    }


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", root)
    return root


@pytest.fixture
def store_folder(
    run_cli: Any, starter_model: InstalledModel, docs: Path, kortty_home: Path
) -> Path:
    assert run_cli("store", "create", "Doc", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "Doc", str(docs), "--yes").returncode == 0
    (folder,) = (kortty_home / "rag" / "stores").iterdir()
    return folder


def doctor(run_cli: Any, *args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("doctor", *args, "--json")
    assert result.returncode in (0, 1), result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["healthy"] == (result.returncode == 0)
    return result.returncode, data


def problems(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["check"]: f for f in data["findings"] if f["severity"] == "problem"}


def test_healthy_store_and_plain_output(run_cli: Any, store_folder: Path) -> None:
    before = tree_digest(store_folder)
    code, data = doctor(run_cli)
    assert code == 0
    checks = {f["check"]: f["severity"] for f in data["findings"]}
    assert checks["model"] == checks["snapshot"] == checks["leftovers"] == "ok"
    assert any(c.startswith("source ") and s == "ok" for c, s in checks.items())
    snapshot = next(f for f in data["findings"] if f["check"] == "snapshot")
    assert "verified" in snapshot["message"] and "chunks" in snapshot["message"]
    text = run_cli("doctor")
    assert text.returncode == 0 and text.stdout.strip().endswith("Healthy (0 warning(s)).")
    assert all(line.startswith(("ok ", "Healthy")) for line in text.stdout.splitlines())
    assert tree_digest(store_folder) == before  # checking reads only


CASES = [
    (
        {"kind": "bitflip", "file": "vectors.hnsw", "offset": 4000, "bit": 3},
        "snapshot",
        "corrupted",
    ),
    ({"kind": "truncate", "file": "chunks.sqlite", "length": 1000}, "snapshot", "truncated"),
    ({"kind": "bitflip", "file": "lexical.npz", "offset": 300, "bit": 0}, "snapshot", "corrupted"),
    ({"kind": "manifest", "variant": "wrong chunk count"}, "snapshot", "inconsistent"),
    ({"kind": "manifest", "variant": "other dimensions"}, "snapshot", ""),
    ({"kind": "sqlite-header", "offset": 20, "resign": True}, "snapshot", ""),
    ({"kind": "header", "field": "count", "value": 10**9, "resign": True}, "snapshot", ""),
]


@pytest.mark.parametrize(("case", "check", "words"), CASES, ids=[json.dumps(c[0]) for c in CASES])
def test_each_damage_is_a_problem_with_what_to_do(
    run_cli: Any, store_folder: Path, tmp_path: Path, case: dict[str, Any], check: str, words: str
) -> None:
    template = tmp_path / "template"
    shutil.copytree(store_folder, template)
    store = corruption.Store(template, store_folder, tmp_path / "spare")
    corruption.damage(store, case)
    damaged = tree_digest(store_folder)
    code, data = doctor(run_cli)
    assert code == 1
    found = problems(data)[check]
    assert words in found["message"]
    assert "store rebuild Doc" in found["fix"] and not found["repairable"]
    assert tree_digest(store_folder) == damaged  # nothing touched
    repaired = run_cli("doctor", "--repair")  # nothing safe to do: still a problem, still there
    assert repaired.returncode == 1 and tree_digest(store_folder) == damaged
    assert run_cli("store", "rebuild", "Doc").returncode == 0
    assert doctor(run_cli)[0] == 0


@pytest.mark.parametrize("damage", ["garbage", "missing snapshot"])
def test_repair_reactivates_the_newest_valid_snapshot(
    run_cli: Any, store_folder: Path, tmp_path: Path, damage: str
) -> None:
    expected = json.loads(run_cli("search", "Doc", "magma and lava", "--json").stdout)
    current = store_folder / "CURRENT"
    if damage == "garbage":
        current.write_bytes(b'{"product": "kortty-rag", "snapsh')
    else:
        store = corruption.Store(store_folder, tmp_path / "copy", tmp_path / "spare")
        store.work = store_folder
        store.repoint("snap-99999999-0badf00d", "0" * 64)
    code, data = doctor(run_cli)
    assert code == 1
    pointer = problems(data)["pointer"]
    assert pointer["repairable"] and "doctor --repair" in pointer["fix"]
    fixed = run_cli("doctor", "--repair", "--json")
    assert fixed.returncode == 0, fixed.stdout
    report = json.loads(fixed.stdout)
    assert any("activated snap-" in line for line in report["repaired"])
    assert json.loads(run_cli("search", "Doc", "magma and lava", "--json").stdout) == expected


def test_leftovers_are_a_warning_that_repair_removes(run_cli: Any, store_folder: Path) -> None:
    build = store_folder / "snapshots" / ".kortty-tmp-snap-0123abcd"
    build.mkdir()
    (build / "chunks.sqlite").write_bytes(b"half written")
    (store_folder / ".kortty-tmp-CURRENT.89abcdef").write_bytes(b"{")
    code, data = doctor(run_cli)
    assert code == 0  # a warning: what is served is fine
    (warning,) = [f for f in data["findings"] if f["severity"] == "warning"]
    assert warning["check"] == "leftovers" and warning["repairable"]
    assert build.exists()  # checking removes nothing
    code, data = doctor(run_cli, "--repair")
    assert code == 0 and not build.exists()
    assert not (store_folder / ".kortty-tmp-CURRENT.89abcdef").exists()
    assert [f["severity"] for f in data["findings"] if f["check"] == "leftovers"] == ["ok"]


def test_moved_root_and_model_problems(
    run_cli: Any, store_folder: Path, docs: Path, tmp_path: Path, starter_model: InstalledModel
) -> None:
    docs.rename(tmp_path / "moved")
    code, data = doctor(run_cli)
    assert code == 1
    (source,) = [f for c, f in problems(data).items() if c.startswith("source ")]
    assert "does not exist" in source["message"]
    assert f"kortty-rag source move Doc {docs} NEW_PATH" in source["fix"]
    (tmp_path / "moved").rename(docs)

    model = starter_model.path
    original = model.read_bytes()
    model.unlink()  # a hard link to the shared cache: replaced, never written into
    model.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))
    code, data = doctor(run_cli)
    assert code == 1 and "changed since it was installed" in problems(data)["model"]["message"]
    shutil.rmtree(model.parent)
    code, data = doctor(run_cli, "Doc")
    assert code == 1 and "not usable" in problems(data)["model"]["message"]
    assert "models install" in problems(data)["model"]["fix"]

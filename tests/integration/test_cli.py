"""The headless CLI end to end, in subprocesses, with the real starter model (docs/DESIGN.md §15)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.pdfs import text_pdf

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", root)
    text_pdf(
        root / "atlas.pdf",
        [
            "Deserts receive less than ten inches of rain a year.",
            "Coral reefs grow in warm, shallow, sunlit seas.",
        ],
    )
    (root / "binary.txt").write_bytes(b"\x00\x01\x02")
    return root


def test_store_lifecycle_and_search(
    run_cli: Any, starter_model: InstalledModel, docs: Path
) -> None:
    result = run_cli("models", "list", "--json")
    assert [m["id"] for m in json.loads(result.stdout)["installed"]] == [starter_model.id]

    assert run_cli("store", "create", "Science", "--model", starter_model.id).returncode == 0
    listed = json.loads(run_cli("store", "list", "--json").stdout)
    assert [s["name"] for s in listed] == ["Science"]

    review = run_cli("source", "add", "Science", str(docs))  # no --yes: review only
    assert review.returncode == 0
    assert "binary file: contains a NUL byte" in review.stdout
    assert "To index: 5 (5 new, 0 changed)" in review.stdout
    assert "Not indexed" in review.stderr
    assert json.loads(run_cli("store", "list", "--json").stdout)[0]["sources"] == []

    added = run_cli("source", "add", "Science", str(docs), "--yes", "--json")
    assert added.returncode == 0, added.stderr
    data = json.loads(added.stdout)
    assert data["indexed"] is True
    assert data["summary"]["indexed"] == 5 and data["summary"]["skipped"] == 1
    rows = {Path(r["path"]).name: r for r in data["sources"][0]["rows"]}
    assert rows["atlas.pdf"]["pages"] == 2 and rows["binary.txt"]["status"] == "skipped"

    found = run_cli("search", "Science", "underwater animal colonies in tropical oceans")
    assert found.returncode == 0
    lines = found.stdout.splitlines()
    assert lines[0] == "<retrieved_context>" and lines[-1] == "</retrieved_context>"
    first = next(line for line in lines if line.startswith("[R1] "))
    assert first.endswith("atlas.pdf, page 2")
    as_json = json.loads(run_cli("search", "Science", "magma", "--json").stdout)
    assert [e["marker"] for e in as_json["excerpts"]] == ["R1"]  # only one note is about magma
    assert Path(as_json["excerpts"][0]["path"]).name == "volcano.txt"
    assert as_json["block"].startswith("<retrieved_context>")

    again = run_cli("source", "add", "Science", str(docs), "--yes")
    assert again.returncode == 2 and "overlaps the existing source" in again.stderr

    deleted = run_cli("store", "delete", "Science", "--yes")
    assert deleted.returncode == 0 and "source files were not touched" in deleted.stdout
    assert (docs / "volcano.txt").exists()
    assert json.loads(run_cli("store", "list", "--json").stdout) == []


def test_exit_codes_distinguish_user_errors(run_cli: Any, starter_model: InstalledModel) -> None:
    missing = run_cli("search", "Nope", "query")
    assert missing.returncode == 2 and "No store named 'Nope'" in missing.stderr
    assert "what to do:" in missing.stderr
    bad_model = run_cli("store", "create", "X", "--model", "not-installed")
    assert bad_model.returncode == 2
    assert run_cli("store", "delete", "Nope", "--yes").returncode == 2
    not_confirmed = run_cli("store", "create", "Keep", "--model", starter_model.id)
    assert not_confirmed.returncode == 0
    refused = run_cli("store", "delete", "Keep")  # no --yes and no terminal: nothing is deleted
    assert refused.returncode == 2
    assert [s["name"] for s in json.loads(run_cli("store", "list", "--json").stdout)] == ["Keep"]


def test_models_import_gguf(run_cli: Any, starter_model: InstalledModel, tmp_path: Path) -> None:
    copy = tmp_path / "my-minilm.gguf"
    shutil.copyfile(starter_model.path, copy)
    result = run_cli("models", "import", str(copy), "--json")
    assert result.returncode == 0, result.stderr
    imported = json.loads(result.stdout)
    assert imported["id"] == "my-minilm" and imported["pooling"] == "mean"
    assert imported["dimensions"] == 384 and imported["origin"] == "import"
    not_gguf = tmp_path / "x.gguf"
    not_gguf.write_text("hello")
    refused = run_cli("models", "import", str(not_gguf))
    assert refused.returncode == 1 and "not a GGUF file" in refused.stderr

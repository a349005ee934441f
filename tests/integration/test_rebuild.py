"""An index built with another embedding configuration is refused with a rebuild hint, and
`store rebuild` re-embeds every source into a fresh snapshot (docs/DESIGN.md §3, §9)."""

from __future__ import annotations

import ctypes
import json
import shutil
from pathlib import Path
from typing import Any

from kortty_rag.embedding.installed import InstalledModel

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


def quantize_q8(source: Path, target: Path) -> None:
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
    params.nthread = 2
    assert (
        llama_cpp.llama_model_quantize(
            str(source).encode(), str(target).encode(), ctypes.byref(params)
        )
        == 0
    )


def test_replaced_model_is_refused_until_rebuilt(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", docs)
    assert run_cli("store", "create", "S", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "S", str(docs), "--yes").returncode == 0

    q8 = tmp_path / "minilm-q8.gguf"
    quantize_q8(starter_model.path, q8)  # the user replaces the model file with a Q8_0 build
    replaced = run_cli("models", "import", str(q8), "--id", starter_model.id, "--force")
    assert replaced.returncode == 0, replaced.stderr

    refused = run_cli("search", "S", "lava")
    assert refused.returncode == 2
    assert "differs from the one this store was built with" in refused.stderr
    assert "store rebuild" in refused.stderr

    rebuilt = run_cli("store", "rebuild", "S", "--json")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert json.loads(rebuilt.stdout)["indexed"] == 4
    found = json.loads(run_cli("search", "S", "lava", "--json").stdout)
    assert Path(found["excerpts"][0]["path"]).name == "volcano.txt"
    stores = json.loads(run_cli("store", "list", "--json").stdout)
    assert stores[0]["embedding"]["model_sha256"] != starter_model.sha256


def test_rebuild_with_another_model(
    run_cli: Any, starter_model: InstalledModel, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "kitchen", docs)
    q8 = tmp_path / "small.gguf"
    quantize_q8(starter_model.path, q8)
    assert run_cli("models", "import", str(q8), "--id", "minilm-q8").returncode == 0
    assert run_cli("store", "create", "K", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "K", str(docs), "--yes").returncode == 0
    rebuilt = run_cli("store", "rebuild", "K", "--model", "minilm-q8")
    assert rebuilt.returncode == 0, rebuilt.stderr
    stores = json.loads(run_cli("store", "list", "--json").stdout)
    assert stores[0]["embedding"]["model_id"] == "minilm-q8"
    found = json.loads(run_cli("search", "K", "baking with wild yeast", "--json").stdout)
    assert Path(found["excerpts"][0]["path"]).name == "sourdough.txt"

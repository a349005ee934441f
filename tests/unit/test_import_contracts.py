"""The layer contracts in pyproject.toml really fail on the imports they forbid (docs/DESIGN.md,
"Layers"): a copy of the package with one deliberate import added is checked by the real
``lint-imports``, and the unchanged copy passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: (module that gets the import, the import, the contract that must break)
FORBIDDEN = [
    (
        "gui/dialogs/profile_editor.py",
        "import kortty_rag.cli.profiles_cmd",
        "Front ends above the application layer above the core",
    ),
    (
        "cli/sources_cmd.py",
        "import kortty_rag.sync.session",
        "Front ends import only the application layer and the base modules",
    ),
    (
        "mcp_server/server.py",
        "import kortty_rag.index.local",
        "Front ends import only the application layer and the base modules",
    ),
    (
        "gui/dialogs/model_wizard.py",
        "from kortty_rag.embedding.catalog import CATALOG",
        "Front ends import only the application layer and the base modules",
    ),
    (
        "cli/watch_cmd.py",
        "from kortty_rag.config.registry import StoreRegistry",
        "Front ends import only the application layer and the base modules",
    ),
    (
        "app/workspace.py",
        "import kortty_rag.gui.common",
        "The core imports neither Qt nor the CLI",
    ),
    ("sync/pipeline.py", "import PySide6.QtCore", "The core imports neither Qt nor the CLI"),
    # the storage sublayers and the base below them
    (
        "extract/document.py",
        "import kortty_rag.sources.scan",
        "Front ends above the application layer above the core",
    ),
    (
        "config/paths.py",
        "import kortty_rag.chunking.splitter",
        "Front ends above the application layer above the core",
    ),
    (
        "languages.py",
        "import kortty_rag.index.analysis",
        "Front ends above the application layer above the core",
    ),
]


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("contracts")
    shutil.copytree(
        ROOT / "src" / "kortty_rag",
        tree / "src" / "kortty_rag",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_package_as_it_is_keeps_every_contract(copy: Path) -> None:
    result = lint(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), FORBIDDEN)
def test_a_forbidden_import_breaks_its_contract(
    copy: Path, module: str, line: str, contract: str
) -> None:
    path = copy / "src" / "kortty_rag" / module
    original = path.read_text(encoding="utf-8")
    path.write_text(original + f"\n{line}  # deliberate\n", encoding="utf-8")
    try:
        result = lint(copy)
    finally:
        path.write_text(original, encoding="utf-8")
    assert result.returncode == 1, result.stdout
    assert f"{contract} BROKEN" in result.stdout
    importer = "kortty_rag." + module.removesuffix(".py").replace("/", ".")
    assert importer in result.stdout  # the report names the module that imports


def test_every_folder_of_modules_is_a_package_the_contracts_see() -> None:
    """import-linter skips a folder without ``__init__.py`` (a namespace package): its imports
    would break no contract."""
    package = ROOT / "src" / "kortty_rag"
    folders = {path.parent for path in package.rglob("*.py")}
    unseen = sorted(
        str(f.relative_to(package)) for f in folders if not (f / "__init__.py").exists()
    )
    assert unseen == []


#: what a front end may import besides ``kortty_rag.app`` (docs/DESIGN.md, "Layers"): the package
#: root (its version), the front ends themselves and the base modules
FRONT_END_MAY_IMPORT = {
    "app", "cli", "gui", "mcp_server", "__init__", "__main__",
    "models", "errors", "progress", "messages", "untrusted", "app_id", "resource_files",
    "languages", "stop_signals", "remedies",
}  # fmt: skip


def test_the_front_ends_contract_is_an_allow_list() -> None:
    """Every top-level module or package of ``kortty_rag`` is either one a front end may import or
    one the contract forbids them: a new package cannot slip past the contract by being new."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (door,) = [c for c in contracts if c["name"].startswith("Front ends import only")]
    forbidden = {name.removeprefix("kortty_rag.") for name in door["forbidden_modules"]}
    package = ROOT / "src" / "kortty_rag"
    top_level = {
        path.stem if path.is_file() else path.name
        for path in package.iterdir()
        if path.name != "__pycache__" and (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert top_level - forbidden - FRONT_END_MAY_IMPORT == set()
    assert forbidden & FRONT_END_MAY_IMPORT == set()
    assert forbidden <= top_level  # no stale names

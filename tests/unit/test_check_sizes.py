"""The size check of scripts/test (scripts/check_sizes.py) on made-up packages: a module or class
past its limit fails, a listed one may shrink but not grow, and a listed one back within its
limit must leave the list."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_sizes.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_sizes", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _package(root: Path, lines: int, class_lines: int) -> Path:
    root.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(class_lines - 1))
    text = f"class Big:\n{body}\n" + "\n" * max(0, lines - class_lines)
    (root / "mod.py").write_text(text)
    return root


def test_within_the_limits_nothing_is_said(tmp_path: Path) -> None:
    check = _script()
    found = check.sizes(_package(tmp_path / "p", 600, 400))
    assert found["mod.py"] == (600, 600) and found["mod.py::Big"] == (400, 400)
    assert check.problems(found, {}) == []


def test_one_line_past_a_limit_fails(tmp_path: Path) -> None:
    check = _script()
    said = check.problems(check.sizes(_package(tmp_path / "p", 601, 401)), {})
    assert said == [
        "mod.py: 601 lines, over 600: split it in this change",
        "mod.py::Big: 401 lines, over 400: split it in this change",
    ]


def test_a_listed_one_may_shrink_but_not_grow_and_leaves_the_list_once_small(
    tmp_path: Path,
) -> None:
    check = _script()
    found = check.sizes(_package(tmp_path / "p", 700, 300))
    assert check.problems(found, {"mod.py": 700}) == []
    assert check.problems(found, {"mod.py": 650}) == [
        "mod.py: 700 lines, was 650 and may not grow: split it"
    ]
    assert check.problems(found, {"mod.py": 700, "mod.py::Big": 450}) == [
        "mod.py::Big: now 300 lines, within 400: remove it from KNOWN"
    ]


def test_the_package_itself_passes() -> None:
    check = _script()
    assert check.problems(check.sizes(check.PACKAGE), check.KNOWN) == []

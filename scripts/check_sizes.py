"""Readable sizes: no module of the package over 600 lines, no class over 400 (docs/DESIGN.md).

A change that takes a module or a class past its limit splits it in the same change. The few that
were already past it when this check came are listed below with the size they had then: they may
shrink (lower the figure, or drop the entry once split) but never grow, and the check fails for an
entry that is no longer needed, so the list only ever gets shorter.

    python scripts/check_sizes.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "kortty_rag"
MODULE_LINES = 600
CLASS_LINES = 400

#: already too large when this check came (issue 28 splits them): path or path::Class → lines then
KNOWN: dict[str, int] = {
    "gui/profiles_tab.py::ProfilesTab": 449,
    "gui/dialogs/model_wizard.py::ModelWizard": 416,
    "gui/dialogs/test_search.py::TestSearchDialog": 489,
    "app/workspace.py::Workspace": 412,
    "sync/session.py::StoreSession": 441,
}


def sizes(package: Path) -> dict[str, tuple[int, int]]:
    """``name → (lines, limit)`` of every module and class of ``package``."""
    found: dict[str, tuple[int, int]] = {}
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        text = path.read_text(encoding="utf-8")
        found[name] = (len(text.splitlines()), MODULE_LINES)
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                found[f"{name}::{node.name}"] = (node.end_lineno - node.lineno + 1, CLASS_LINES)
    return found


def problems(found: dict[str, tuple[int, int]], known: dict[str, int]) -> list[str]:
    said: list[str] = []
    for name, (lines, limit) in found.items():
        allowed = known.get(name)
        if allowed is None and lines > limit:
            said.append(f"{name}: {lines} lines, over {limit}: split it in this change")
        elif allowed is not None and lines > allowed:
            said.append(f"{name}: {lines} lines, was {allowed} and may not grow: split it")
    for name in known:
        lines = found.get(name, (0, 0))[0]
        limit = CLASS_LINES if "::" in name else MODULE_LINES
        if lines <= limit:
            said.append(f"{name}: now {lines} lines, within {limit}: remove it from KNOWN")
    return said


def main() -> int:
    said = problems(sizes(PACKAGE), KNOWN)
    for line in said:
        print(f"check_sizes: {line}", file=sys.stderr)
    if not said:
        print("sizes within limits (modules ≤ 600 lines, classes ≤ 400)")
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main())

"""Every Qt class of the desktop app says in its docstring which signals it emits (docs/DESIGN.md,
"Threading and jobs"): a reader picking up a widget sees what it tells the others without reading
its body. Read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "src" / "kortty_rag" / "gui"


def signals_of(node: ast.ClassDef) -> list[str]:
    return [
        target.id
        for statement in node.body
        if isinstance(statement, ast.Assign)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Name)
        and statement.value.func.id == "Signal"
        for target in statement.targets
        if isinstance(target, ast.Name)
    ]


def test_each_signal_is_named_in_its_class_docstring() -> None:
    unnamed: list[str] = []
    seen = 0
    for path in sorted(GUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            doc = ast.get_docstring(node) or ""
            for name in signals_of(node):
                seen += 1
                if f"``{name}(" not in doc:
                    unnamed.append(f"{path.relative_to(GUI)}: {node.name}.{name}")
    assert seen >= 20  # the check sees the app's signals
    assert unnamed == [], "say ``name(arguments)`` — what it means — in the class docstring"

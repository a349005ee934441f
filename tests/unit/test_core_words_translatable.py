"""Every error the core raises on purpose says its message and hint through ``msg()``, so the
desktop app can say them in German (docs/DESIGN.md "Languages and accessibility"): no
``KorttyRagError`` (or subclass) is built from a string literal or an f-string written in place,
and no ``hint=`` is one. Read with ``ast`` from the source; the error classes are found by
importing the core, not from a list."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import kortty_rag
from kortty_rag.errors import KorttyRagError

PACKAGE = Path(kortty_rag.__file__).parent
#: front ends: the CLI and the MCP server stay English; the GUI has its own check
FRONT_ENDS = ("cli", "gui", "mcp_server")


def _core_modules() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] not in FRONT_ENDS
    )


def _error_classes() -> set[str]:
    """The names of the core's KorttyRagError classes (a name some other class of the core also
    has, such as ``decoding.FieldError``, a ValueError about a field's path, is left out)."""
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages([str(PACKAGE)], "kortty_rag.")
        if info.name.split(".")[1] not in (*FRONT_ENDS, "__main__")
    ]
    names, todo = set(), [KorttyRagError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    others = {
        value.__name__
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and not issubclass(value, KorttyRagError)
    }
    return names - others


def _written_in_place(node: ast.expr | None) -> bool:
    """A literal or an f-string, other than the report of a bug (``internal: …``), which is
    worded for a bug report, not for a user."""
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return not (isinstance(first, ast.Constant) and str(first.value).startswith("internal:"))
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and bool(node.value)
        and not node.value.startswith("internal:")
    )


def in_place(source: str, filename: str, errors: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if isinstance(node.func, ast.Attribute):
            name = node.func.attr
        hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
        if name in errors and node.args and _written_in_place(node.args[0]):
            found.append(f"{filename}:{node.lineno}: {name}({ast.unparse(node.args[0])[:60]})")
        if _written_in_place(hint):
            found.append(f"{filename}:{node.lineno}: hint={ast.unparse(hint)[:60]}")  # type: ignore[arg-type]
    return found


def test_the_core_raises_its_errors_in_translatable_words() -> None:
    errors = _error_classes()
    assert {"SnapshotError", "SourceError", "ModelError", "Cancelled"} <= errors
    found = []
    for path in _core_modules():
        found += in_place(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)), errors)
    assert found == []


def test_the_check_finds_words_written_in_place() -> None:
    source = (
        "raise SnapshotError(f'{path} is truncated')\n"
        "raise ModelError('No model', hint=f'Install {x}')\n"
        "raise SnapshotError(msg('{path} is truncated', path=path), hint=msg('Rebuild.'))\n"
        "raise ValueError('a bug')\n"
        "raise ModelError('internal: a bug')\n"
    )
    assert in_place(source, "x.py", {"SnapshotError", "ModelError"}) == [
        "x.py:1: SnapshotError(f'{path} is truncated')",
        "x.py:2: ModelError('No model')",
        "x.py:2: hint=f'Install {x}'",
    ]

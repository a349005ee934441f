"""No command of the command line reaches a person in the desktop app (issue 13, point 5): every
string the GUI modules show, and every core message rewritten by ``gui_hint``, names buttons and
menus instead. The check reads the source with ``ast`` and looks for anything command-shaped; it
does not use the product's table of commands."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kortty_rag.gui.hints import gui_hint

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "kortty_rag"
COMMANDS = "store|source|profile|role|models|search|serve|watch|ask|import|doctor|judge"
#: a command line: the program's name before a subcommand, a quoted subcommand, or an --option
CLI_SHAPED = re.compile(
    rf"kortty-rag (?:{COMMANDS})\b|`(?:{COMMANDS}) [a-z-]+|(?<![\w-])--[a-z][a-z-]+"
)


def strings(path: Path) -> list[str]:
    """The string literals of a module, f-strings joined with ``X`` for each value, docstrings
    left out (they are for programmers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: list[str] = []
    inside_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(
                "".join(
                    part.value if isinstance(part, ast.Constant) else "X" for part in node.values
                )
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and id(node) not in inside_fstrings
        ):
            found.append(node.value)
    return found


#: hints.py holds the commands it rewrites (its table), never shown as they are
GUI_MODULES = sorted(p for p in (PACKAGE / "gui").rglob("*.py") if p.name != "hints.py")
CORE_MODULES = sorted(
    p
    for p in PACKAGE.rglob("*.py")
    if p.relative_to(PACKAGE).parts[0] not in {"cli", "gui", "mcp_server"}
)


@pytest.mark.parametrize("module", GUI_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_gui_shows_no_command_line(module: Path) -> None:
    shaped = [text for text in strings(module) if CLI_SHAPED.search(gui_hint(text))]
    assert shaped == []


#: a string that is one command-line argument is given to a program (pip, the PDF worker), not a person
ARGUMENT = re.compile(r"--[\w-]+(=\S*)?")


def test_no_core_message_names_an_option_once_rewritten() -> None:
    """Options too ("--collection", "--max-tokens"): what reaches the GUI from the core, read after
    ``gui_hint``, names none (strings that are an argument of a program call are not messages)."""
    left = {
        text: gui_hint(text)
        for module in CORE_MODULES
        for text in strings(module)
        if not ARGUMENT.fullmatch(text) and CLI_SHAPED.search(gui_hint(text))
    }
    assert left == {}


def test_every_core_message_that_names_a_command_reads_as_a_gui_action() -> None:
    named = [
        text
        for module in CORE_MODULES
        for text in strings(module)
        if "`" in text and re.search(rf"`(?:kortty-rag )?(?:{COMMANDS}) ", text)
    ]
    assert len(named) > 20  # the core really words its hints for the command line
    left = {text: gui_hint(text) for text in named if CLI_SHAPED.search(gui_hint(text))}
    assert left == {}


def test_a_hint_is_rewritten_into_the_button_that_does_it() -> None:
    hint = "Run `kortty-rag store rebuild STORE` to re-index every source into a fresh snapshot."
    assert gui_hint(hint) == (
        "Use Rebuild… on the Knowledge Stores tab to re-index every source into a fresh snapshot."
    )
    assert "still answers from its last completed index" in gui_hint(
        "Indexing failed; the previous snapshot is still active"
    )

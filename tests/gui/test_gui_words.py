"""No command of the command line reaches a person in the desktop app (issue 13, point 5; issue 28,
point 3): no string of the GUI modules names one, no message of the core spells one (a hint names
what to do as a remedy, which each front end words), and every remedy the core can name reads as a
button or menu in the app, in English and in German. The checks read the source with ``ast`` and
look for anything command-shaped with their own pattern, not the product's table."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from kortty_rag.gui import i18n
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.hints import remedy_words
from kortty_rag.remedies import Form, Operation, Remedy, place, run, run_on

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


GUI_MODULES = sorted((PACKAGE / "gui").rglob("*.py"))
#: the one table of the command line's words, the default text of a remedy
COMMAND_TABLE = PACKAGE / "remedies.py"
CORE_MODULES = sorted(
    p
    for p in PACKAGE.rglob("*.py")
    if p.relative_to(PACKAGE).parts[0] not in {"cli", "gui", "mcp_server"} and p != COMMAND_TABLE
)


@pytest.mark.parametrize("module", GUI_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_gui_shows_no_command_line(module: Path) -> None:
    shaped = [text for text in strings(module) if CLI_SHAPED.search(text)]
    assert shaped == []


#: a string that is one command-line argument is given to a program (pip, the PDF worker), not a person
ARGUMENT = re.compile(r"--[\w-]+(=\S*)?")


def test_no_core_message_spells_a_command_or_an_option() -> None:
    """The core names what to do as a remedy; a command or an --option spelled in one of its
    strings would reach the app as it is (strings that are an argument of a program call are not
    messages)."""
    spelled = {
        str(module.relative_to(PACKAGE)): text
        for module in CORE_MODULES
        for text in strings(module)
        if not ARGUMENT.fullmatch(text) and CLI_SHAPED.search(text)
    }
    assert spelled == {}


@pytest.fixture(params=["en", "de"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The app in English (the session's language), then in German."""
    if request.param == "en":
        yield "en"
        return
    installed = i18n.install("de")
    try:
        yield "de"
    finally:
        installed.remove()


@pytest.mark.parametrize("operation", list(Operation), ids=lambda o: o.value)
def test_every_remedy_reads_as_a_place_in_the_app(operation: Operation, language: str) -> None:
    for form in Form:
        said = remedy_words(Remedy(operation, form, {"store": "garden", "path": "/home/a/notes"}))
        assert said and not CLI_SHAPED.search(said) and "`" not in said, said


def test_a_hint_of_the_core_names_the_button_that_does_it(language: str) -> None:
    from kortty_rag.index.hnsw_file import _bad

    hint = _bad(Path("/x/vectors.bin"), "short").hint
    assert str(hint) == (
        "Run `kortty-rag store rebuild STORE` to re-index every source into a fresh snapshot."
    )
    expected = {
        "en": "Use Rebuild… on the Knowledge Stores tab to re-index every source into a fresh "
        "snapshot.",
        "de": "Verwenden Sie „Neu aufbauen…“ auf der Registerkarte „Wissensspeicher“",
    }[language]
    assert core_words(hint).startswith(expected)


def test_a_hint_read_back_as_plain_text_still_names_the_button(language: str) -> None:
    """A status reason an earlier run wrote to the registry is plain text again: its command is
    recognised by its words and said as the button all the same."""
    plain = (
        "if it moved, point the source at its new place: `kortty-rag source move g /old NEW_PATH`"
    )
    said = core_words(plain)
    assert "kortty-rag" not in said and "`" not in said
    assert {"en": "Change location…", "de": "Speicherort ändern…"}[language] in said


def test_the_command_line_and_the_app_word_one_remedy_each_their_way(qapp: QApplication) -> None:
    remedy = run_on(Operation.STORE_REBUILD, store="my garden")
    from kortty_rag.messages import msg

    text = msg("Reinstall the original model, or {rebuild}.", rebuild=remedy)
    assert (
        str(text) == "Reinstall the original model, or run `kortty-rag store rebuild 'my garden'`."
    )
    assert core_words(text) == (
        "Reinstall the original model, or use Rebuild… on the Knowledge Stores tab."
    )
    assert core_words(msg("See it in {how}.", how=place(Operation.DOCTOR))) == (
        "See it in File → Check stores…."
    )
    assert str(run(Operation.DOCTOR_REPAIR)) == "Run `kortty-rag doctor --repair`"

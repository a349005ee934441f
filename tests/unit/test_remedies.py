"""Hints as data (issue 28, point 3): a remedy is an operation with its values, said as a command on
the command line, as a tool or a request to the user by the MCP server (the app's words are checked
in tests/gui/test_gui_words.py). The command line's words are checked against the CLI's own parser,
not against the table that wrote them."""

from __future__ import annotations

import pickle
import shlex
from pathlib import Path

import pytest

from kortty_rag.cli import build_parser
from kortty_rag.mcp_server.remedies import mcp_words
from kortty_rag.messages import msg
from kortty_rag.remedies import (
    Form,
    Operation,
    Remedy,
    parse,
    place,
    remedies_in,
    run,
    run_on,
    worded,
)

#: values a person really has: spaces, quotes, a leading dash is not among them
VALUES = {
    "store": "my garden",
    "path": "/home/a/it's notes",
    "new_path": "/home/a/new place",
    "file": "/tmp/garden.krag",
    "name": "garden 2",
    "url": "http://127.0.0.1:6333",
    "profile": "Local chat",
    "role": "Text",
    "backend": "openai",
    "model": "starter",
    "folder": "/home/a/.kortty",
    "question": "what is a rose?",
    "tokens": "512",
    "text": "a selected line",
}
#: operations that are one option of a command, and a command line it belongs to
OPTIONS = {
    Operation.ASK_SELECTION: ["ask", "Text"],
    Operation.ANSWER_LENGTH: ["ask", "Text", "question"],
    Operation.STORE_QDRANT_COLLECTION: [
        *("store", "create", "g", "--model", "m", "--type", "qdrant", "--url", "http://h:1")
    ],
}


def _argv(operation: Operation) -> list[str]:
    text = str(place(operation, **VALUES))
    commands = [part for index, part in enumerate(text.split("`")) if index % 2 == 1]
    argv = shlex.split(commands[0])
    if operation in OPTIONS:
        return OPTIONS[operation] + [word for word in argv if word != "TEXT"]
    assert argv[0] == "kortty-rag"
    return argv[1:]


@pytest.mark.parametrize("operation", list(Operation), ids=lambda o: o.value)
def test_every_command_of_a_remedy_is_one_the_command_line_takes(operation: Operation) -> None:
    argv = _argv(operation)
    if operation is Operation.DESKTOP_COMMAND:  # the program itself, which opens the app
        assert argv == []
        return
    if operation is Operation.STORE_QDRANT_COLLECTION:
        argv += ["my-collection"]
    parsed = build_parser().parse_args(argv)  # argparse exits on a command it does not know
    assert parsed.command


@pytest.mark.parametrize("operation", list(Operation), ids=lambda o: o.value)
@pytest.mark.parametrize("form", list(Form), ids=lambda f: f.name)
def test_a_remedy_read_back_from_its_words_is_the_same_remedy(
    operation: Operation, form: Form
) -> None:
    for arguments in ({}, VALUES):
        remedy = Remedy(operation, form, arguments)
        again = parse(str(remedy))
        assert again is not None
        assert (again.operation, again.form) == (operation, form) or str(again) == str(remedy)
        assert str(again) == str(remedy)


def test_the_command_line_says_a_remedy_as_the_command_with_its_values_quoted() -> None:
    assert str(run(Operation.STORE_REBUILD, store="my garden")) == (
        "Run `kortty-rag store rebuild 'my garden'`"
    )
    assert str(run_on(Operation.DOCTOR_REPAIR)) == "run `kortty-rag doctor --repair`"
    # a value not known where the problem was found is named for the person to fill in
    assert str(place(Operation.SOURCE_MOVE, store="g", path="/p")) == (
        "`kortty-rag source move g /p NEW_PATH`"
    )
    assert str(place(Operation.SOURCE_REVIEW, store="g")) == "`kortty-rag source refresh g`"


def test_a_message_keeps_its_remedy_through_pickling_and_wording() -> None:
    text = msg("{do} to re-index every source.", do=run(Operation.STORE_REBUILD, store="g"))
    again = pickle.loads(pickle.dumps(text))  # across processes (the PDF worker)
    assert [r.operation for r in remedies_in(again)] == [Operation.STORE_REBUILD]
    assert worded(again, lambda remedy: "DO IT") == "DO IT to re-index every source."
    plain = msg("no remedy in {here}", here="this")
    assert worded(plain, lambda remedy: "x") is plain


def test_the_mcp_server_names_its_tool_or_asks_for_the_user() -> None:
    review = msg("Review it with {how}.", how=place(Operation.SOURCE_REVIEW, store="g", path="/p"))
    assert mcp_words(review) == (
        "Review it with the refresh_source tool (if the user allowed changes; else they run "
        "`kortty-rag source refresh g /p`)."
    )
    rebuild = msg("{do} to re-index it.", do=run(Operation.STORE_REBUILD, store="g"))
    assert mcp_words(rebuild) == "Ask the user to run `kortty-rag store rebuild g` to re-index it."


def test_the_cli_prints_the_command_of_a_remedy(run_cli: object, kortty_home: Path) -> None:
    result = run_cli("store", "rebuild", "nosuch")  # type: ignore[operator]
    assert result.returncode != 0
    assert "what to do: See the stores in `kortty-rag store list`; make one with " in result.stderr
    assert "`kortty-rag store create STORE --model MODEL`" in result.stderr

"""Every sub-command the CLI declares names a handler that exists: the arguments live apart from
the commands (``kortty_rag.cli.parsers``), so a misspelt ``"module:function"`` would otherwise only
fail when someone runs that command."""

from __future__ import annotations

import argparse
import importlib
import inspect

from kortty_rag.cli import build_parser


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += leaves(sub, (*path, name))
    if not found and path:
        found.append(path)
    return found


def test_every_command_names_a_function_of_a_cli_module() -> None:
    parser = build_parser()
    commands = leaves(parser)
    assert len(commands) == 37  # store …, source …, models …, profile …, role …, and the rest
    for command in commands:
        sub: argparse.ArgumentParser = parser
        for name in command:
            action = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction))
            sub = action.choices[name]
        spec = sub.get_default("handler")
        assert isinstance(spec, str) and spec.count(":") == 1, command
        module_name, function = spec.split(":")
        module = importlib.import_module(f"kortty_rag.cli.{module_name}")
        handler = getattr(module, function, None)
        assert callable(handler), f"{' '.join(command)}: {spec}"
        assert list(inspect.signature(handler).parameters) == ["args"], spec

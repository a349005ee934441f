"""The headless CLI (docs/DESIGN.md §15). ``kortty-rag`` without arguments opens the GUI.

Exit codes: 0 success, 1 failure, 2 a mistake in the request (unknown store, invalid option, busy
store), 130 cancelled (Ctrl-C, SIGINT), 143 stopped by SIGTERM (``watch`` and ``serve``, see
:mod:`kortty_rag.stop_signals`), 141 stopped because the reader of its output went away
(``kortty-rag source list STORE | head -3``).

A reader that goes away is not an error: Python ignores SIGPIPE, so the next write to the pipe
raises :class:`BrokenPipeError` — in the command's output, its progress on stderr, or the final
flush of stdout when the interpreter exits. :func:`main` catches it wherever it happens, points
stdout and stderr at the null device (so that the last flush has nowhere to fail) and returns 141,
the status a shell shows for a program that SIGPIPE ended (128 + 13), quietly, like ``cat`` and
``grep`` in the same place; a script with ``set -o pipefail`` sees the same status from them.

Error messages often embed a path or a name taken from the files, so they are printed through the
rendering rule of :mod:`kortty_rag.untrusted`, like every other untrusted string the CLI shows.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from kortty_rag import __version__
from kortty_rag.errors import Cancelled, KorttyRagError
from kortty_rag.stop_signals import StopSignal
from kortty_rag.untrusted import escape_line

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_CANCELLED = 0, 1, 2, 130
VERSION = f"kortty-rag {__version__}"
#: 128 + SIGPIPE: the reader of stdout or stderr went away
EXIT_CLOSED_PIPE = 141


def build_parser() -> argparse.ArgumentParser:
    from kortty_rag.cli.parsers import models, search, sources, stores, tools

    parser = argparse.ArgumentParser(
        prog="kortty-rag",
        description="Knowledge stores for local retrieval-augmented generation.",
        epilog="Run without arguments to open the desktop app.",
    )
    parser.add_argument("--version", action="version", version=VERSION)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    stores.register_store(commands)
    search.register_search(commands)
    search.register_judge(commands)
    sources.register_source(commands)
    models.register_models(commands)
    tools.register_watch(commands)
    models.register_profile(commands)
    search.register_ask(commands)
    tools.register_serve(commands)
    tools.register_doctor(commands)
    sources.register_import_from(commands)
    tools.register_desktop(commands)
    return parser


def handler_of(args: argparse.Namespace) -> Callable[[argparse.Namespace], int | None] | None:
    """The function that carries out the parsed command (``"module:function"`` of this package),
    imported now: only the command that runs loads what it needs."""
    spec = getattr(args, "handler", None)
    if not spec:
        return None
    module, _, name = str(spec).partition(":")
    handler: Callable[[argparse.Namespace], int | None] = getattr(
        importlib.import_module(f"{__name__}.{module}"), name
    )
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        return _gui()
    if args_list == ["--version"]:  # answered before any argument is declared
        print(VERSION)
        return EXIT_OK
    try:
        try:
            return _run(args_list)
        finally:  # flushed here (also after --help), not at exit, where a failure is not caught
            sys.stdout.flush()
            sys.stderr.flush()
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Stop quietly: a reader of stdout or stderr went away (``… | head -1``)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # closed, or not a real file
                os.dup2(devnull, stream.fileno())
    finally:
        os.close(devnull)
    return EXIT_CLOSED_PIPE


def _run(args_list: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(args_list)
    handler = handler_of(args)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(handler(args) or EXIT_OK)
    except Cancelled as exc:
        print(f"kortty-rag: {escape_line(str(exc))}", file=sys.stderr)
        return EXIT_CANCELLED
    except StopSignal as exc:
        print(f"\nkortty-rag: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(
            "\nkortty-rag: interrupted; the store still answers from its last completed index.",
            file=sys.stderr,
        )
        return EXIT_CANCELLED
    except KorttyRagError as exc:
        print(f"kortty-rag: error: {escape_line(exc.message)}", file=sys.stderr)
        if exc.hint:
            print(f"kortty-rag: what to do: {escape_line(exc.hint)}", file=sys.stderr)
        return EXIT_USAGE if exc.user_error else EXIT_FAILURE


def _gui() -> int:
    try:
        from kortty_rag.gui.app import run_gui  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        print(
            f"kortty-rag: the desktop app is not available ({exc}); "
            "install PySide6 or use a subcommand (see --help).",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    return int(run_gui())


if __name__ == "__main__":
    sys.exit(main())

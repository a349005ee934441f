"""``kortty-rag import kortty``: korTTY's (Java) knowledge stores as kortty-rag stores."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import StderrProgress, print_json
from kortty_rag.untrusted import escape_line


def register(commands: Any) -> None:
    parser = commands.add_parser("import", help="import stores of another application")
    sub = parser.add_subparsers(dest="import_command", metavar="FROM", required=True)
    kortty = sub.add_parser(
        "kortty",
        help="korTTY's knowledge stores (its registry and indexes are only read): same sources, "
        "sync modes and rules; vectors kept when the same model is installed here",
    )
    kortty.add_argument(
        "--from",
        dest="home",
        type=Path,
        default=Path.home() / ".kortty",
        help="korTTY's data folder, which holds rag/stores.json (default: ~/.kortty)",
    )
    kortty.add_argument(
        "--model", help="the model for stores whose vectors cannot be kept (default: the starter)"
    )
    kortty.add_argument(
        "--no-index", action="store_true", help="do not index such stores now (refresh them later)"
    )
    kortty.add_argument("--json", action="store_true")
    kortty.set_defaults(handler=cmd_import_kortty)


def cmd_import_kortty(args: argparse.Namespace) -> int:
    progress = StderrProgress()
    with Workspace() as workspace:
        outcomes = workspace.import_kortty(
            args.home, model_id=args.model, index=not args.no_index, progress=progress.tracker
        )
    progress.done()
    if args.json:
        print_json([o.to_json() for o in outcomes])
        return 0
    if not outcomes:
        print("korTTY has no stores to import.")
    for outcome in outcomes:
        name = escape_line(outcome.kortty_name)
        if outcome.store is None:
            print(f"{name}: not imported — {escape_line(outcome.skipped)}")
        elif outcome.reused:
            print(
                f"{name}: imported as {outcome.store.name!r}; {outcome.reused} chunks with "
                "korTTY's vectors, nothing embedded"
            )
        else:
            done = "indexed here" if not args.no_index else "to be indexed (source refresh)"
            print(f"{name}: imported as {outcome.store.name!r}; its sources are {done}")
        for note in outcome.notes:
            print(f"  note: {escape_line(note)}")
    return 0

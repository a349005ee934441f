"""The arguments of ``kortty-rag source …`` and ``kortty-rag import …``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from kortty_rag.models import DEFAULT_MAX_FILE_SIZE, GiB, MiB, SyncMode


def parse_size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*(MiB|MB|M|GiB|GB|G)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"invalid size {text!r} (use e.g. 50MiB or 1GiB)")
    unit = (match.group(2) or "MiB").upper()
    return int(match.group(1)) * (GiB if unit.startswith("G") else MiB)


def add_keep_on_cancel(parser: Any) -> None:
    parser.add_argument(
        "--keep-on-cancel",
        action="store_true",
        help="a long index makes its finished documents searchable while it runs; if it is "
        "interrupted (Ctrl-C), keep them (default: the store is left as it was before)",
    )


def register_source(commands: Any) -> None:
    source = commands.add_parser("source", help="add and manage the files and folders of a store")
    sub = source.add_subparsers(dest="source_command", metavar="ACTION", required=True)

    add = sub.add_parser("add", help="scan files/folders, show the review, and index on --yes")
    add.add_argument("name", help="store name")
    add.add_argument("paths", nargs="+", metavar="PATH")
    add.add_argument("--yes", action="store_true", help="confirm the review and index")
    add.add_argument("--json", action="store_true", help="machine-readable review and summary")
    add.add_argument("--auto", action="store_true", help="sync mode auto (watch for changes)")
    add.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="only index files matching this gitignore-style pattern (repeatable)",
    )
    add.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="never index files matching this pattern (repeatable)",
    )
    add.add_argument("--no-gitignore", action="store_true", help="ignore .gitignore files")
    add_keep_on_cancel(add)
    add.add_argument(
        "--max-file-size",
        type=parse_size,
        default=DEFAULT_MAX_FILE_SIZE,
        metavar="SIZE",
        help="per-file limit, 1MiB..1GiB (default 50MiB)",
    )
    add.set_defaults(handler="sources_cmd:cmd_add")

    refresh = sub.add_parser(
        "refresh", help="scan again, show the review, re-index changes on --yes"
    )
    refresh.add_argument("name", help="store name")
    refresh.add_argument("path", nargs="?", help="only this source (its path or id)")
    refresh.add_argument("--yes", action="store_true", help="confirm the review and index")
    refresh.add_argument("--json", action="store_true")
    add_keep_on_cancel(refresh)
    refresh.set_defaults(handler="sources_cmd:cmd_refresh")

    lst = sub.add_parser("list", help="the sources of a store with status and counts")
    lst.add_argument("name", help="store name")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler="sources_cmd:cmd_list")

    for action, text in (
        ("disable", "exclude a source from retrieval (keeps its chunks)"),
        ("enable", "include a disabled source in retrieval again"),
    ):
        toggle = sub.add_parser(action, help=text)
        toggle.add_argument("name", help="store name")
        toggle.add_argument("path", help="the source's path or id")
        toggle.set_defaults(handler="sources_cmd:cmd_toggle", enable=action == "enable")

    remove = sub.add_parser("remove", help="remove a source and its chunks (never its files)")
    remove.add_argument("name", help="store name")
    remove.add_argument("path", help="the source's path or id")
    remove.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    remove.set_defaults(handler="sources_cmd:cmd_remove")

    move = sub.add_parser(
        "move",
        help="point a source whose folder moved at its new place (unchanged files keep their "
        "chunks and vectors), then review and re-index changes on --yes",
    )
    move.add_argument("name", help="store name")
    move.add_argument("path", help="the source's old path (or its id)")
    move.add_argument("new_path", metavar="new-path", help="where the folder or file is now")
    move.add_argument("--yes", action="store_true", help="confirm the review and index")
    move.add_argument("--json", action="store_true")
    move.set_defaults(handler="sources_cmd:cmd_move")

    mode = sub.add_parser("mode", help="set the sync mode of a source (auto watches for changes)")
    mode.add_argument("name", help="store name")
    mode.add_argument("path", help="the source's path or id")
    mode.add_argument("mode", choices=[m.value for m in SyncMode])
    mode.set_defaults(handler="sources_cmd:cmd_mode")


def register_import_from(commands: Any) -> None:
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
        "--yes",
        action="store_true",
        help="confirm the review of each imported store's sources and index them now",
    )
    kortty.add_argument(
        "--no-index",
        action="store_true",
        help="do not scan the sources now (each waits for its review: `source refresh`)",
    )
    kortty.add_argument("--json", action="store_true")
    kortty.set_defaults(handler="import_cmd:cmd_import_kortty")

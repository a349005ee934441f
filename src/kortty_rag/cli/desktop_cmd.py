"""``kortty-rag desktop install | uninstall``: the desktop entry, the icons and the AppStream
metainfo in the user's own data folder (``kortty_rag.app.desktop_entry``)."""

from __future__ import annotations

import argparse

from kortty_rag.app import desktop_entry
from kortty_rag.cli.render import print_json
from kortty_rag.untrusted import escape_line


def cmd_install(args: argparse.Namespace) -> int:
    result = desktop_entry.install()
    if args.json:
        print_json(result.to_json())
        return 0
    if result.data_home.ignored:
        print(
            f"XDG_DATA_HOME={escape_line(result.data_home.ignored)} is not an absolute path and "
            "was ignored (XDG Base Directory specification)."
        )
    for folder in result.created_folders:
        print(f"created {escape_line(str(folder))}/")
    for written in result.written:
        verb = "replaced" if written.replaced else "wrote"
        print(f"{verb} {escape_line(str(written.path))}")
    print(
        f"Installed into {escape_line(str(result.data_home.path))}; the menu entry starts "
        f"{escape_line(result.exec_line)}. Record: {escape_line(str(result.record))}. "
        "Remove it with `kortty-rag desktop uninstall`."
    )
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    result = desktop_entry.uninstall()
    if args.json:
        print_json(result.to_json())
        return 0
    if not result.installed:
        print("Nothing to remove: `kortty-rag desktop install` has not written anything here.")
        return 0
    for path in result.removed:
        print(f"removed {escape_line(str(path))}")
    for kept in result.kept:
        print(f"kept {escape_line(str(kept.path))} ({escape_line(kept.reason)})")
    for path in result.missing:
        print(f"already gone {escape_line(str(path))}")
    for path in result.removed_folders:
        print(f"removed {escape_line(str(path))}/")
    for path in result.kept_folders:
        print(f"kept {escape_line(str(path))}/ (not empty)")
    if result.record is not None:
        print(f"removed {escape_line(str(result.record))}")
    print(
        f"Removed {len(result.removed)} file(s) and {len(result.removed_folders)} folder(s)"
        + (f"; kept {len(result.kept)} changed file(s)." if result.kept else ".")
    )
    return 0

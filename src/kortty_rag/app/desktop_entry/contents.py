"""What the desktop files are: the entry with its quoted ``Exec`` line, the icons and the metainfo,
as bytes by path relative to the data folder (:mod:`kortty_rag.app.desktop_entry`)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path, PurePosixPath

from kortty_rag.app.desktop_entry.where import DesktopEntryError
from kortty_rag.app_id import DESKTOP_FILE, ICON_SIZES, ICON_SVG, METAINFO_FILE, icon_png
from kortty_rag.messages import msg
from kortty_rag.remedies import Operation, place
from kortty_rag.resource_files import read_resource

#: characters that make an ``Exec`` argument need quotes (Desktop Entry spec, "The Exec key")
_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")
_QUOTED_ESCAPES = re.compile(r'(["`$\\])')
_EXEC_LINE = re.compile(r"^Exec=.*$", re.M)
LAUNCHER = "kortty-rag"


# -- what ---------------------------------------------------------------------------------------


def relative_files() -> tuple[str, ...]:
    """Every file an install writes, relative to the data folder (POSIX separators)."""
    return (
        f"applications/{DESKTOP_FILE}",
        *(icon_png(size) for size in ICON_SIZES),
        ICON_SVG,
        f"metainfo/{METAINFO_FILE}",
    )


def relative_folders() -> frozenset[str]:
    """Every folder below the data folder that an install may create."""
    folders: set[str] = set()
    for name in relative_files():
        parent = PurePosixPath(name).parent
        while str(parent) != ".":
            folders.add(str(parent))
            parent = parent.parent
    return frozenset(folders)


def launcher_command(executable: str | None = None) -> list[str]:
    """The command that starts the installed app: the ``kortty-rag`` console script beside the
    Python running now, else that Python with ``-m kortty_rag``; absolute paths."""
    python = executable if executable is not None else sys.executable
    if not python:
        raise DesktopEntryError(
            msg("The path of the running Python is unknown, so no launcher can be written."),
            hint=msg(
                "Run kortty-rag through {how} and try again.", how=place(Operation.DESKTOP_COMMAND)
            ),
        )
    path = Path(os.path.abspath(python))
    script = path.parent / LAUNCHER
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(path), "-m", "kortty_rag"]


def exec_argument(argument: str) -> str:
    """One argument of an ``Exec`` value, written as the Desktop Entry specification asks: quoted
    when it has a reserved character (inside the quotes a backslash goes before each double quote,
    backtick, dollar sign and backslash), ``%`` doubled, then every backslash escaped once more for
    the string value."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in argument) or not _utf8(argument):
        raise DesktopEntryError(
            msg(
                "The path {path} has a character a desktop entry cannot hold.",
                path=argument.encode("utf-8", "backslashreplace").decode("ascii", "replace"),
            ),
            hint=msg("Install kortty-rag under a path without control characters and try again."),
        )
    text = argument
    if any(c in _RESERVED for c in text):
        text = '"' + _QUOTED_ESCAPES.sub(r"\\\1", text) + '"'
    return text.replace("%", "%%").replace("\\", "\\\\")


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def exec_value(command: list[str]) -> str:
    return " ".join(exec_argument(argument) for argument in command)


def desktop_text(command: list[str]) -> str:
    """The shipped desktop entry with ``Exec=`` the given command."""
    text = read_resource(DESKTOP_FILE).decode("utf-8")
    value = exec_value(command)
    replaced, count = _EXEC_LINE.subn(lambda _: f"Exec={value}", text)
    if count != 1:
        raise DesktopEntryError(
            msg("The shipped desktop entry has {count} Exec lines, not one.", count=count),
            hint=msg("Reinstall kortty-rag."),
        )
    return replaced


def file_contents(command: list[str]) -> dict[str, bytes]:
    """The bytes of every file an install writes, by relative path."""
    contents: dict[str, bytes] = {}
    for name in relative_files():
        if name.startswith("applications/"):
            contents[name] = desktop_text(command).encode("utf-8")
        elif name.startswith("metainfo/"):
            contents[name] = read_resource(METAINFO_FILE)
        else:
            contents[name] = read_resource(name)  # icons keep their shipped layout
    return contents

"""The application icon for the windows, the dialogs (they inherit it) and the taskbar: the drawn
SVG plus every rendered PNG size, from the shipped resources (docs/DESIGN.md §1)."""

from __future__ import annotations

import atexit
import contextlib
import functools
from pathlib import Path

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QIcon, QPixmap

from kortty_rag.app_id import ICON_SIZES, ICON_SVG, icon_png
from kortty_rag.resource_files import read_resource, resource_path

#: Qt's SVG icon engine reads the file each time it draws a new size, so the SVG's path must last
#: as long as the process (from a zipped install it is a temporary copy, removed at exit)
_files = contextlib.ExitStack()
atexit.register(_files.close)


@functools.cache
def _svg_path() -> Path:
    return _files.enter_context(resource_path(ICON_SVG))


def app_icon() -> QIcon:
    """The SVG first (Qt's SVG icon engine draws any size from it), then each PNG, which that engine
    uses as it is at its own size."""
    icon = QIcon()
    icon.addFile(str(_svg_path()))
    for size in ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(QByteArray(read_resource(icon_png(size))), "PNG"):
            icon.addPixmap(pixmap)
    return icon

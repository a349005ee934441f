"""Render the application icon into the sizes a desktop wants (docs/DESIGN.md §1).

    python scripts/render_icons.py            # write the PNGs and the scalable copy
    python scripts/render_icons.py --check    # fail if a committed file is not what it would write

``resources/icons/kortty-rag.svg`` is the one drawing. QtSvg (``QSvgRenderer``, part of
PySide6-Essentials) renders it at each size of :data:`kortty_rag.app_id.ICON_SIZES` into
``resources/icons/hicolor/<n>x<n>/apps/<app id>.png``, and the SVG itself is copied to
``resources/icons/hicolor/scalable/apps/<app id>.svg`` — the layout of the freedesktop icon theme,
so ``kortty-rag desktop install`` copies the folders as they are. Both outputs are committed;
``tests/gui/test_app_icon.py`` fails when a PNG is missing, has the wrong size or no longer matches
a fresh rendering of the SVG (compared pixel by pixel with :func:`differences`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SOURCE = ICONS / "kortty-rag.svg"
sys.path.insert(0, str(ROOT / "src"))

from kortty_rag.app_id import APP_ID, ICON_SIZES  # noqa: E402

#: a PNG may differ from a fresh rendering by this much per channel (0-255) and still match
TOLERANCE = 2


def png_path(size: int) -> Path:
    return ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def svg_copy_path() -> Path:
    return ICONS / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"


def _application() -> Any:
    """A QGuiApplication (offscreen unless a platform was chosen): QPainter needs one."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication([])


def render(size: int, svg: bytes | None = None) -> Any:
    """The SVG drawn into a ``size`` × ``size`` ``QImage`` (straight ARGB32, transparent around)."""
    from PySide6.QtCore import QByteArray, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _application()
    renderer = QSvgRenderer(QByteArray(SOURCE.read_bytes() if svg is None else svg))
    if not renderer.isValid():
        raise ValueError(f"{SOURCE} is not an SVG QtSvg can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter, QRectF(0, 0, size, size))
    finally:
        painter.end()
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def differences(image: Any, other: Any, tolerance: int = TOLERANCE) -> int:
    """How many pixels of two same-sized images differ by more than ``tolerance`` in a channel."""
    import numpy as np
    from PySide6.QtGui import QImage

    def channels(img: Any) -> Any:
        img = img.convertToFormat(QImage.Format.Format_RGBA8888)
        width, height = img.width(), img.height()
        raw = np.frombuffer(bytes(img.constBits()), dtype=np.uint8)
        return raw.reshape(height, img.bytesPerLine())[:, : width * 4].reshape(height, width, 4)

    a, b = channels(image), channels(other)
    if a.shape != b.shape:
        raise ValueError(f"sizes differ: {a.shape[:2]} and {b.shape[:2]}")
    delta = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    return int((delta > tolerance).sum())


def write() -> list[Path]:
    written = []
    for size in ICON_SIZES:
        target = png_path(size)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(size).save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        written.append(target)
    copy = svg_copy_path()
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(SOURCE.read_bytes())
    written.append(copy)
    return written


def check() -> list[str]:
    """What is wrong with the committed files (empty when they are what :func:`write` makes)."""
    from PySide6.QtGui import QImage

    _application()
    problems = []
    for size in ICON_SIZES:
        path = png_path(size)
        if not path.is_file():
            problems.append(f"{path.relative_to(ROOT)}: missing")
            continue
        image = QImage(str(path))
        if image.isNull() or (image.width(), image.height()) != (size, size):
            problems.append(
                f"{path.relative_to(ROOT)}: {image.width()}x{image.height()}, not {size}x{size}"
            )
            continue
        changed = differences(image, render(size))
        if changed:
            problems.append(f"{path.relative_to(ROOT)}: {changed} pixels differ from the SVG")
    copy = svg_copy_path()
    if not copy.is_file() or copy.read_bytes() != SOURCE.read_bytes():
        problems.append(f"{copy.relative_to(ROOT)}: not a copy of {SOURCE.relative_to(ROOT)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check the committed files")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        for line in problems:
            print(line, file=sys.stderr)
        if problems:
            print("run: python scripts/render_icons.py", file=sys.stderr)
        return 1 if problems else 0
    for path in write():
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

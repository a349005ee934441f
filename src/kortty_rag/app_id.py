"""The application's name on the desktop (docs/DESIGN.md §1): one reverse-DNS id for the desktop
entry, the icon, the AppStream metainfo and Qt (``QGuiApplication.setDesktopFileName``), and where
those files are inside the shipped resources (:mod:`kortty_rag.resource_files`)."""

from __future__ import annotations

#: the desktop entry's file name without ``.desktop``, the icon's name and the metainfo's ``<id>``
APP_ID = "io.github.korttyrag.KorttyRag"

#: ``QCoreApplication.applicationName`` (set by ``gui/app.run_gui``): Qt's X11 window class, so the
#: desktop entry's ``StartupWMClass``
WM_CLASS = "kortty-rag"

#: the rendered PNG sizes (``scripts/render_icons.py``), in pixels
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

#: resource paths, relative to ``kortty_rag/resources``
DESKTOP_FILE = f"{APP_ID}.desktop"
METAINFO_FILE = f"{APP_ID}.metainfo.xml"
ICON_SVG = f"icons/hicolor/scalable/apps/{APP_ID}.svg"


def icon_png(size: int) -> str:
    """The resource path of the PNG icon of ``size`` × ``size`` pixels."""
    return f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png"

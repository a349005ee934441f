"""The application icon: the committed PNGs are what ``scripts/render_icons.py`` makes of the SVG
(present, the right size, the same pixels within a small tolerance), the icon the app sets has
every size, and windows and dialogs show it (docs/DESIGN.md §1)."""

from __future__ import annotations

import ast
import configparser
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon, QImage
from PySide6.QtWidgets import QApplication, QDialog, QMainWindow

from kortty_rag.app_id import APP_ID, DESKTOP_FILE, ICON_SIZES, WM_CLASS
from kortty_rag.gui.app_icon import app_icon
from kortty_rag.resource_files import read_resource

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def render_icons() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "render_icons", ROOT / "scripts" / "render_icons.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def icon_set(qapp: QApplication) -> Iterator[QIcon]:
    """``app_icon()`` set on the application, and the previous icon restored afterwards."""
    previous = qapp.windowIcon()
    icon = app_icon()
    qapp.setWindowIcon(icon)
    yield icon
    qapp.setWindowIcon(previous)


@pytest.mark.parametrize("size", ICON_SIZES)
def test_each_png_is_a_fresh_rendering_of_the_svg(
    qapp: QApplication, render_icons: ModuleType, size: int
) -> None:
    path = render_icons.png_path(size)
    assert path.is_file(), f"{path} is missing: run python scripts/render_icons.py"
    image = QImage(str(path))
    assert not image.isNull()
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()
    fresh = render_icons.render(size)
    assert render_icons.differences(image, fresh) == 0, "run python scripts/render_icons.py"


def test_the_comparison_notices_a_changed_drawing(
    qapp: QApplication, render_icons: ModuleType
) -> None:
    svg = render_icons.SOURCE.read_bytes().replace(b"#f5a524", b"#d03030")
    committed = QImage(str(render_icons.png_path(48)))
    assert render_icons.differences(committed, render_icons.render(48, svg)) > 20
    assert render_icons.differences(committed, render_icons.render(48)) == 0


def test_the_scalable_icon_is_the_svg(render_icons: ModuleType) -> None:
    assert render_icons.svg_copy_path().read_bytes() == render_icons.SOURCE.read_bytes()
    assert render_icons.check() == []


@pytest.mark.parametrize("size", [*ICON_SIZES, 20, 1024])
def test_the_app_icon_has_every_size(
    qapp: QApplication, render_icons: ModuleType, size: int
) -> None:
    icon = app_icon()
    assert not icon.isNull()
    pixmap = icon.pixmap(QSize(size, size))
    assert (pixmap.width(), pixmap.height()) == (size, size)
    if size in ICON_SIZES:  # the committed PNG itself
        png = QImage.fromData(read_resource(f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png"))
        # a pixmap keeps premultiplied alpha: compared there, it is the PNG exactly (taken back to
        # straight alpha, a half-transparent pixel may round by one, differently on other CPUs)
        premultiplied = QImage.Format.Format_ARGB32_Premultiplied
        assert pixmap.toImage().convertToFormat(premultiplied) == png.convertToFormat(premultiplied)


def test_windows_and_dialogs_show_the_application_icon(qapp: QApplication, icon_set: QIcon) -> None:
    assert not qapp.windowIcon().isNull()
    window = QMainWindow()
    dialog = QDialog(window)
    for widget in (window, dialog):
        shown = widget.windowIcon()
        assert not shown.isNull()
        assert shown.pixmap(QSize(32, 32)).toImage() == icon_set.pixmap(QSize(32, 32)).toImage()
    window.deleteLater()


def test_the_app_sets_the_icon_the_desktop_file_name_and_the_window_class() -> None:
    """``gui/app.run_gui`` names the desktop entry and the window class the entry expects."""
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read_string(read_resource(DESKTOP_FILE).decode("utf-8"))
    assert entry["Desktop Entry"]["StartupWMClass"] == WM_CLASS
    assert entry["Desktop Entry"]["Icon"] == APP_ID
    calls = {
        node.func.attr: node.args
        for node in ast.walk(ast.parse((ROOT / "src/kortty_rag/gui/app.py").read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    name = calls["setApplicationName"][0]
    assert isinstance(name, ast.Constant) and name.value == WM_CLASS  # Qt's X11 WM_CLASS
    desktop_name = calls["setDesktopFileName"][0]  # QApplication.setDesktopFileName(APP_ID)
    assert isinstance(desktop_name, ast.Name) and desktop_name.id == "APP_ID"
    icon = calls["setWindowIcon"][0]
    assert isinstance(icon, ast.Call) and ast.unparse(icon) == "app_icon()"

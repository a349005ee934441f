"""The desktop files ship inside the package and are found through ``importlib.resources``
(kortty_rag.resource_files), and they name the one app id (docs/DESIGN.md §1)."""

from __future__ import annotations

import configparser
import xml.etree.ElementTree as ET
from importlib import resources

import pytest

from kortty_rag.app_id import (
    APP_ID,
    DESKTOP_FILE,
    ICON_SIZES,
    ICON_SVG,
    METAINFO_FILE,
    WM_CLASS,
    icon_png,
)
from kortty_rag.resource_files import read_resource, resource, resource_path

ALL = [DESKTOP_FILE, METAINFO_FILE, ICON_SVG, *(icon_png(n) for n in ICON_SIZES)]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
XML = "{http://www.w3.org/XML/1998/namespace}lang"


@pytest.mark.parametrize("relative", ALL)
def test_each_file_is_found_through_importlib_resources(relative: str) -> None:
    node = resource(relative)
    assert node.is_file()
    expected = resources.files("kortty_rag").joinpath("resources", *relative.split("/"))
    assert node.read_bytes() == expected.read_bytes() == read_resource(relative)
    with resource_path(relative) as path:
        assert path.is_file() and path.read_bytes() == node.read_bytes()
    if relative.endswith(".png"):
        assert node.read_bytes().startswith(PNG_SIGNATURE)


def test_the_desktop_entry_names_the_app() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(read_resource(DESKTOP_FILE).decode("utf-8"))
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "kortty-rag"  # `desktop install` writes the absolute launcher
    assert entry["Icon"] == APP_ID
    assert entry["Terminal"] == "false" and entry["StartupNotify"] == "true"
    assert entry["StartupWMClass"] == WM_CLASS
    assert entry["GenericName[de]"] == "Wissensspeicher-Verwaltung"
    for key in ("Name", "GenericName", "Comment", "Keywords"):
        assert entry[key] and entry[f"{key}[de]"]


def test_the_metainfo_names_the_app_in_english_and_german() -> None:
    root = ET.fromstring(read_resource(METAINFO_FILE))
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "Apache-2.0"
    launchable = root.find("launchable")
    assert launchable is not None and launchable.text == DESKTOP_FILE
    assert launchable.get("type") == "desktop-id"
    assert {s.get(XML) for s in root.findall("summary")} == {None, "de"}
    description = root.find("description")
    assert description is not None
    assert {p.get(XML) for p in description.findall("p")} == {None, "de"}
    assert [r.get("version") for r in root.findall("releases/release")] == ["0.1.0"]
    assert root.find("content_rating") is not None and root.find("developer") is not None

"""``kortty-rag desktop install | uninstall`` through the real CLI, into a temporary
``XDG_DATA_HOME``; the files it writes are checked by the freedesktop tools themselves
(``desktop-file-validate`` from desktop-file-utils, ``appstreamcli validate`` from appstream).

Without a tool its checks are skipped, with the reason — unless ``KORTTY_REQUIRE_DESKTOP_TOOLS=1``
(set by ``.ci/run``, which installs both), then a missing tool fails the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.unit.app.test_desktop_entry import EXPECTED, files_of, snapshot

from kortty_rag.app.desktop_entry import desktop_text
from kortty_rag.app_id import APP_ID, DESKTOP_FILE, METAINFO_FILE
from kortty_rag.resource_files import resource_path

REQUIRE = "KORTTY_REQUIRE_DESKTOP_TOOLS"
#: each tool and the Debian package that has it
PACKAGES = {"desktop-file-validate": "desktop-file-utils", "appstreamcli": "appstream"}


def tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    reason = f"{name} is not installed (Debian/Ubuntu package {PACKAGES[name]})"
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{reason}, and {REQUIRE}=1 requires it")
    pytest.skip(f"{reason}; set {REQUIRE}=1 to make this a failure")


def validate_desktop(path: Path) -> None:
    result = subprocess.run(
        [tool("desktop-file-validate"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # hints are fine, errors and warnings are not
    assert "error:" not in result.stdout and "warning:" not in result.stdout, result.stdout


def validate_metainfo(path: Path) -> None:
    result = subprocess.run(
        [tool("appstreamcli"), "validate", "--no-net", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "xdg-data"
    (root / "applications").mkdir(parents=True)
    (root / "applications" / "mimeapps.list").write_text("[Default Applications]\n")
    (root / "icons" / "hicolor" / "256x256" / "apps").mkdir(parents=True)
    (root / "icons" / "hicolor" / "256x256" / "apps" / "other.png").write_bytes(b"png")
    monkeypatch.setenv("XDG_DATA_HOME", str(root))
    return root


def test_install_validate_and_uninstall(
    run_cli: Any, xdg: Path, kortty_home: Path, tmp_path: Path
) -> None:
    before = snapshot(xdg)
    installed = run_cli("desktop", "install")
    assert installed.returncode == 0, installed.stderr
    desktop = xdg / "applications" / DESKTOP_FILE
    metainfo = xdg / "metainfo" / METAINFO_FILE
    lines = installed.stdout.splitlines()
    for name in EXPECTED:  # it says what it wrote
        assert f"wrote {xdg / name}" in lines
    assert f"created {xdg / 'metainfo'}/" in lines
    assert files_of({k: v for k, v in snapshot(xdg).items() if k not in before}) == EXPECTED

    exec_line = next(line for line in desktop.read_text().splitlines() if line.startswith("Exec="))
    launcher = Path(exec_line.removeprefix("Exec="))
    assert launcher.is_absolute() and launcher.name == "kortty-rag"  # the venv's console script
    assert os.access(launcher, os.X_OK)
    written = tmp_path / "written"  # checked by the tools after uninstall (they may be missing)
    written.mkdir()
    shutil.copy(desktop, written)
    shutil.copy(metainfo, written)

    removed = run_cli("desktop", "uninstall")
    assert removed.returncode == 0, removed.stderr
    assert f"removed {desktop}" in removed.stdout.splitlines()
    assert snapshot(xdg) == before
    assert not (kortty_home / "rag" / "desktop-entry.json").exists()
    again = run_cli("desktop", "uninstall")
    assert again.returncode == 0 and "Nothing to remove" in again.stdout

    validate_desktop(written / DESKTOP_FILE)
    validate_metainfo(written / METAINFO_FILE)


def test_json_output(run_cli: Any, xdg: Path) -> None:
    before = snapshot(xdg)
    installed = run_cli("desktop", "install", "--json")
    assert installed.returncode == 0, installed.stderr
    data = json.loads(installed.stdout)
    assert data["data_home"] == str(xdg) and data["xdg_data_home"] is True
    assert sorted(Path(w["path"]).relative_to(xdg).as_posix() for w in data["written"]) == EXPECTED
    assert all(len(w["sha256"]) == 64 and w["replaced"] is False for w in data["written"])
    again = json.loads(run_cli("desktop", "install", "--json").stdout)
    assert all(w["replaced"] for w in again["written"]) and again["created_folders"] == []
    removed = json.loads(run_cli("desktop", "uninstall", "--json").stdout)
    assert removed["installed"] is True and removed["kept"] == [] and removed["missing"] == []
    assert sorted(Path(p).relative_to(xdg).as_posix() for p in removed["removed"]) == EXPECTED
    assert snapshot(xdg) == before


def test_a_planted_link_fails_with_exit_1_and_a_hint(
    run_cli: Any, xdg: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (xdg / "metainfo").symlink_to(victim)
    before = snapshot(xdg)
    result = run_cli("desktop", "install")
    assert result.returncode == 1
    assert f"error: {xdg / 'metainfo'} is a symbolic link" in result.stderr
    assert "what to do: Check what" in result.stderr
    assert snapshot(xdg) == before and not any(victim.iterdir())


def test_outside_home_is_a_request_mistake(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".local").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (home / ".local" / "share").symlink_to(tmp_path / "elsewhere")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    result = run_cli("desktop", "install")
    assert result.returncode == 2
    assert "outside your home folder" in result.stderr and "XDG_DATA_HOME" in result.stderr
    assert not any((tmp_path / "elsewhere").iterdir())


def test_the_shipped_files_validate() -> None:
    with resource_path(DESKTOP_FILE) as desktop, resource_path(METAINFO_FILE) as metainfo:
        validate_desktop(desktop)
        validate_metainfo(metainfo)


@pytest.mark.parametrize(
    "command",
    [
        ["/opt/my apps/bin/kortty-rag"],
        ["/home/ann/$HOME's `tools`/100%/a\\b/kortty-rag"],
        ['/srv/"quoted" (x)/python3', "-m", "kortty_rag"],
    ],
)
def test_a_launcher_path_that_needs_quoting_validates(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / f"{APP_ID}.desktop"
    path.write_text(desktop_text(command), encoding="utf-8")
    validate_desktop(path)

"""``desktop install`` / ``desktop uninstall`` in process (kortty_rag.app.desktop_entry): where the
files go (XDG Base Directory rules), what is written, and that uninstall removes exactly that — the
whole tree of a temporary ``XDG_DATA_HOME`` is compared before and after."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from kortty_rag.app import desktop_entry
from kortty_rag.app.desktop_entry import (
    DesktopLinkError,
    DesktopTargetError,
    InstalledElsewhereError,
    data_home,
    exec_argument,
    install,
    uninstall,
)
from kortty_rag.app_id import APP_ID, DESKTOP_FILE, ICON_SIZES, ICON_SVG, METAINFO_FILE, icon_png
from kortty_rag.errors import DamagedFileError
from kortty_rag.resource_files import read_resource

#: every file an install writes, relative to the data folder
EXPECTED = sorted(
    [
        f"applications/{APP_ID}.desktop",
        *(f"icons/hicolor/{n}x{n}/apps/{APP_ID}.png" for n in (16, 24, 32, 48, 64, 128, 256, 512)),
        f"icons/hicolor/scalable/apps/{APP_ID}.svg",
        f"metainfo/{APP_ID}.metainfo.xml",
    ]
)

Tree = dict[str, tuple[str, str]]


def snapshot(root: Path) -> Tree:
    """Every entry below ``root`` (os.walk, links not followed): kind and content (a file's
    SHA-256, a link's target)."""
    entries: Tree = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            key = path.relative_to(root).as_posix()
            if path.is_symlink():
                entries[key] = ("link", os.readlink(path))
            elif path.is_dir():
                entries[key] = ("folder", "")
            else:
                entries[key] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    return entries


def files_of(tree: Tree) -> list[str]:
    return sorted(name for name, (kind, _) in tree.items() if kind == "file")


@pytest.fixture
def launcher(tmp_path: Path) -> Path:
    """A Python with an installed ``kortty-rag`` console script beside it."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text("")
    script = bin_dir / "kortty-rag"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    return script


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An explicit ``XDG_DATA_HOME`` that already holds some files of other applications."""
    root = tmp_path / "xdg-data"
    (root / "applications").mkdir(parents=True)
    (root / "applications" / "other.desktop").write_text("[Desktop Entry]\nName=Other\n")
    (root / "icons" / "hicolor" / "48x48" / "apps").mkdir(parents=True)
    (root / "icons" / "hicolor" / "48x48" / "apps" / "other.png").write_bytes(b"png")
    monkeypatch.setenv("XDG_DATA_HOME", str(root))
    return root


def run_install(launcher: Path) -> desktop_entry.InstallResult:
    return install(executable=str(launcher.with_name("python")))


# -- where ----------------------------------------------------------------------------------------


def test_xdg_data_home_is_used_when_absolute() -> None:
    found = data_home({"HOME": "/home/ann", "XDG_DATA_HOME": "/data/ann/share"})
    assert found.path == Path("/data/ann/share") and found.explicit and not found.ignored


@pytest.mark.parametrize("value", [None, "", "relative/share", "./share", "~/share"])
def test_unset_empty_or_relative_xdg_data_home_means_local_share(value: str | None) -> None:
    env = {"HOME": "/home/ann"} | ({} if value is None else {"XDG_DATA_HOME": value})
    found = data_home(env)
    assert found.path == Path("/home/ann/.local/share") and not found.explicit
    assert found.ignored == (value or "")


def test_without_home_the_account_home_is_used() -> None:
    import pwd

    account = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert data_home({"HOME": "not/absolute"}).path == account / ".local" / "share"


def test_xdg_data_dirs_are_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launcher: Path
) -> None:
    system = tmp_path / "system-share"
    system.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_DIRS", f"{system}:/usr/share")
    result = run_install(launcher)
    assert result.data_home.path == home / ".local" / "share"
    assert files_of(snapshot(home / ".local" / "share")) == EXPECTED
    assert snapshot(system) == {}
    # named explicitly, a folder of XDG_DATA_DIRS (or any system folder) is still refused
    for target in (system, Path("/usr/share"), Path("/usr/local/share/x"), Path("/")):
        monkeypatch.setenv("XDG_DATA_HOME", str(target))
        with pytest.raises(DesktopTargetError, match="system folder"):
            run_install(launcher)
    assert snapshot(system) == {}


def test_a_data_folder_resolving_outside_home_is_refused_unless_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launcher: Path
) -> None:
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere"
    (home / ".local").mkdir(parents=True)
    elsewhere.mkdir()
    (home / ".local" / "share").symlink_to(elsewhere)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    with pytest.raises(DesktopTargetError, match="outside your home folder") as caught:
        run_install(launcher)
    assert "XDG_DATA_HOME" in caught.value.hint
    assert caught.value.user_error
    assert snapshot(elsewhere) == {}
    assert not desktop_entry.record_file().exists()

    monkeypatch.setenv("XDG_DATA_HOME", str(elsewhere))  # named: the user's choice
    run_install(launcher)
    assert files_of(snapshot(elsewhere)) == EXPECTED


# -- what install writes ---------------------------------------------------------------------------


def test_install_writes_the_entry_icons_and_metainfo(xdg: Path, launcher: Path) -> None:
    before = snapshot(xdg)
    result = run_install(launcher)
    after = snapshot(xdg)
    new = sorted(set(after) - set(before))
    assert files_of({k: after[k] for k in new}) == EXPECTED
    assert {k: after[k] for k in before} == before  # nothing else changed
    assert sorted(str(w.path.relative_to(xdg)) for w in result.written) == EXPECTED
    assert not any(w.replaced for w in result.written)

    desktop = (xdg / "applications" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    assert f"Exec={launcher}\n" in desktop
    shipped = read_resource(DESKTOP_FILE).decode("utf-8")
    assert desktop == shipped.replace("Exec=kortty-rag\n", f"Exec={launcher}\n")
    assert (xdg / "metainfo" / METAINFO_FILE).read_bytes() == read_resource(METAINFO_FILE)
    for size in ICON_SIZES:
        assert (xdg / icon_png(size)).read_bytes() == read_resource(icon_png(size))
    assert (xdg / ICON_SVG).read_bytes() == read_resource(ICON_SVG)
    for name in EXPECTED:
        assert stat.S_IMODE((xdg / name).stat().st_mode) == 0o644

    record = json.loads(desktop_entry.record_file().read_text(encoding="utf-8"))
    assert record["data_home"] == str(xdg) and record["product"] == "kortty-rag"
    assert {e["path"]: e["sha256"] for e in record["files"]} == {
        str(xdg / name): after[name][1] for name in EXPECTED
    }
    created = {Path(p).relative_to(xdg).as_posix() for p in record["created_folders"]}
    assert created == {k for k in new if after[k][0] == "folder"}
    assert "applications" not in created and "icons/hicolor/48x48/apps" not in created
    assert "metainfo" in created and "icons/hicolor/16x16/apps" in created


def test_without_a_launcher_the_entry_runs_python_m(xdg: Path, tmp_path: Path) -> None:
    python = tmp_path / "a python" / "bin" / "python3"
    python.parent.mkdir(parents=True)
    result = install(executable=str(python))
    assert result.exec_line == f'"{python}" -m kortty_rag'
    desktop = (xdg / "applications" / DESKTOP_FILE).read_text(encoding="utf-8")
    assert f'Exec="{python}" -m kortty_rag\n' in desktop


def test_exec_arguments_are_quoted_as_the_desktop_entry_spec_asks() -> None:
    assert exec_argument("/usr/bin/kortty-rag") == "/usr/bin/kortty-rag"
    assert exec_argument("/opt/my apps/kortty-rag") == '"/opt/my apps/kortty-rag"'
    # inside quotes ", `, $ and \ get a backslash; then every backslash is escaped for the string
    assert exec_argument('/a b/"x"') == '"/a b/\\\\"x\\\\""'
    assert exec_argument("/a$b") == '"/a\\\\$b"'
    assert exec_argument("/a\\b") == '"/a\\\\\\\\b"'
    assert exec_argument("/100%/k") == "/100%%/k"
    with pytest.raises(desktop_entry.DesktopEntryError, match="cannot hold"):
        exec_argument("/a\nb")


def test_the_data_folder_and_its_parents_are_made_and_removed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launcher: Path
) -> None:
    base = tmp_path / "base"
    base.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "a" / "share"))
    result = run_install(launcher)
    assert result.created_folders[:2] == (base / "a", base / "a" / "share")
    uninstall()
    assert snapshot(base) == {}


# -- uninstall ------------------------------------------------------------------------------------


def test_uninstall_removes_exactly_what_install_wrote(xdg: Path, launcher: Path) -> None:
    before = snapshot(xdg)
    run_install(launcher)
    result = uninstall()
    assert snapshot(xdg) == before
    assert sorted(p.relative_to(xdg).as_posix() for p in result.removed) == EXPECTED
    assert not result.kept and not result.missing and not result.kept_folders
    assert "applications" not in {p.name for p in result.removed_folders}
    assert not desktop_entry.record_file().exists()
    again = uninstall()  # nothing recorded: nothing touched
    assert not again.installed and snapshot(xdg) == before


def test_a_file_changed_since_is_kept_and_reported(xdg: Path, launcher: Path) -> None:
    before = snapshot(xdg)
    run_install(launcher)
    metainfo = xdg / "metainfo" / METAINFO_FILE
    metainfo.write_text("<component/>\n")
    extra = xdg / "icons" / "hicolor" / "16x16" / "apps" / "someone-else.png"
    extra.write_bytes(b"png")  # put into a folder the install created
    result = uninstall()
    assert [k.path for k in result.kept] == [metainfo]
    assert "changed since it was installed" in result.kept[0].reason
    assert set(result.kept_folders) == {
        xdg / "metainfo",
        extra.parent,
        extra.parent.parent,  # 16x16 holds apps/, which is not empty
    }
    after = snapshot(xdg)
    assert set(after) - set(before) == {
        "metainfo",
        f"metainfo/{METAINFO_FILE}",
        "icons/hicolor/16x16",
        "icons/hicolor/16x16/apps",
        "icons/hicolor/16x16/apps/someone-else.png",
    }
    assert metainfo.read_text() == "<component/>\n"
    assert {k: after[k] for k in before} == before
    assert not desktop_entry.record_file().exists()


def test_a_file_already_gone_is_reported(xdg: Path, launcher: Path) -> None:
    before = snapshot(xdg)
    run_install(launcher)
    gone = xdg / "applications" / DESKTOP_FILE
    gone.unlink()
    result = uninstall()
    assert result.missing == (gone,)
    assert snapshot(xdg) == before


def test_installing_twice_replaces_the_same_files(xdg: Path, launcher: Path) -> None:
    before = snapshot(xdg)
    first = run_install(launcher)
    tree = snapshot(xdg)
    record = desktop_entry.record_file().read_bytes()
    second = run_install(launcher)
    assert snapshot(xdg) == tree
    assert desktop_entry.record_file().read_bytes() == record  # the first install's folders too
    assert [w.path for w in second.written] == [w.path for w in first.written]
    assert all(w.replaced for w in second.written) and second.created_folders == ()
    (xdg / "applications" / DESKTOP_FILE).write_text("edited")
    run_install(launcher)  # an edited entry is written again
    assert snapshot(xdg) == tree
    uninstall()
    assert snapshot(xdg) == before


def test_a_planted_folder_link_is_refused_before_anything_is_written(
    xdg: Path, tmp_path: Path, launcher: Path
) -> None:
    target = tmp_path / "victim"
    target.mkdir()
    (xdg / "metainfo").symlink_to(target)
    before, victim = snapshot(xdg), snapshot(target)
    with pytest.raises(DesktopLinkError, match="a symbolic link") as caught:
        run_install(launcher)
    assert caught.value.path == xdg / "metainfo"
    assert "nothing was written" in caught.value.message
    assert snapshot(xdg) == before and snapshot(target) == victim
    assert not desktop_entry.record_file().exists()


def test_a_planted_file_link_is_refused(xdg: Path, tmp_path: Path, launcher: Path) -> None:
    target = tmp_path / "victim.txt"
    target.write_text("keep me")
    (xdg / "applications" / DESKTOP_FILE).symlink_to(target)
    before = snapshot(xdg)
    with pytest.raises(DesktopLinkError) as caught:
        run_install(launcher)
    assert caught.value.path == xdg / "applications" / DESKTOP_FILE
    assert snapshot(xdg) == before and target.read_text() == "keep me"


def test_uninstall_refuses_a_link_planted_since_and_removes_nothing(
    xdg: Path, tmp_path: Path, launcher: Path
) -> None:
    run_install(launcher)
    target = tmp_path / "victim"
    target.mkdir()
    (target / f"{APP_ID}.png").write_bytes(read_resource(icon_png(32)))
    apps = xdg / "icons" / "hicolor" / "32x32" / "apps"
    for entry in apps.iterdir():
        entry.unlink()
    apps.rmdir()
    apps.symlink_to(target)
    planted = snapshot(xdg)
    with pytest.raises(DesktopLinkError) as caught:
        uninstall()
    assert caught.value.path == apps
    assert snapshot(xdg) == planted and (target / f"{APP_ID}.png").exists()
    assert desktop_entry.record_file().exists()  # kept: nothing was removed


def test_a_record_naming_another_file_is_damaged_and_nothing_is_removed(
    xdg: Path, launcher: Path
) -> None:
    run_install(launcher)
    path = desktop_entry.record_file()
    record = json.loads(path.read_text(encoding="utf-8"))
    other = xdg / "applications" / "other.desktop"
    record["files"].append(
        {"path": str(other), "sha256": hashlib.sha256(other.read_bytes()).hexdigest()}
    )
    path.write_text(json.dumps(record), encoding="utf-8")
    tree = snapshot(xdg)
    with pytest.raises(DamagedFileError, match=r"files\[11\]"):
        uninstall()
    assert snapshot(xdg) == tree


def test_an_install_elsewhere_must_be_removed_first(
    xdg: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launcher: Path
) -> None:
    before = snapshot(xdg)
    run_install(launcher)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "other-share"))
    with pytest.raises(InstalledElsewhereError, match="already installed in"):
        run_install(launcher)
    assert not (tmp_path / "other-share").exists()
    uninstall()  # the recorded folder, whatever XDG_DATA_HOME says now
    assert snapshot(xdg) == before

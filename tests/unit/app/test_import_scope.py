"""Which roots an imported store definition may propose (docs/DESIGN.md §14): judged on the path as
written and on its real path, so no spelling or link reaches a hidden, outside or system folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kortty_rag.app.import_scope import admit
from kortty_rag.models import Source, SourceKind, SourceStatus, StoreRoles, SyncMode
from kortty_rag.sources.imported_roots import refusal


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "docs" / "notes").mkdir(parents=True)
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / "link-to-ssh").symlink_to(home / ".ssh")
    (home / "link-to-etc").symlink_to("/etc")
    (tmp_path / "outside").mkdir()
    (home / "link-to-outside").symlink_to(tmp_path / "outside")
    (home / "link-to-docs").symlink_to(home / "docs")
    return home


def test_ordinary_folders_inside_the_home_may_be_proposed(home: Path) -> None:
    for path in (home / "docs", home / "docs" / "notes", home / "docs" / "not-here-yet"):
        assert refusal(str(path), home=home) is None, path
    assert refusal(f"{home}//docs/./notes", home=home) is None


@pytest.mark.parametrize(
    ("spelled", "words"),
    [
        (".config/gh", "hidden file or folder (.config)"),
        (".ssh", "hidden file or folder (.ssh)"),
        ("docs/../.ssh", "hidden file or folder (.ssh)"),
        ("docs/.secret-notes", "hidden file or folder (.secret-notes)"),
        ("link-to-ssh", "hidden file or folder (.ssh)"),  # by its real path
        ("link-to-ssh/keys", "hidden file or folder (.ssh)"),
        ("link-to-etc", "system folder (/etc)"),
        ("link-to-outside", "outside your home folder"),
        ("link-to-docs/notes", "runs through the symbolic link"),  # pinned to real paths only
        ("link-to-docs/not-yet", "runs through the symbolic link"),
        ("", "your whole home folder"),
    ],
)
def test_refused_inside_the_home(home: Path, spelled: str, words: str) -> None:
    reason = refusal(str(home / spelled) if spelled else str(home), home=home)
    assert reason is not None and words in reason


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/etc", "system folder (/etc)"),
        ("/etc/ssh", "system folder (/etc)"),
        ("/proc/self/root/etc", "system folder (/proc)"),  # a link to / on the way
        ("/proc/self/cwd/docs", "system folder (/proc)"),  # a different folder in every process
        ("/usr/share/doc", "system folder (/usr)"),
        ("/var/log", "system folder (/var)"),
        ("/dev/shm", "system folder (/dev)"),
        ("/", "system folder (/)"),
        ("relative/path", "not absolute"),
    ],
)
def test_refused_system_folders(home: Path, path: str, words: str) -> None:
    reason = refusal(path, home=home)
    assert reason is not None and words in reason


def test_outside_the_home_and_the_products_own_data(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = refusal(str(tmp_path / "outside"), home=home)
    assert outside is not None and "outside your home folder" in outside
    own = home / "kortty-data"
    (own / "rag").mkdir(parents=True)
    monkeypatch.setenv("KORTTY_HOME", str(own))
    for path in (own, own / "rag", home / "docs" / ".." / "kortty-data" / "rag"):
        reason = refusal(os.fspath(path), home=home)
        assert reason is not None and "this product's own data" in reason, path


def test_a_home_inside_a_system_folder_is_still_the_home(tmp_path: Path) -> None:
    """root's home is /root, Fedora Silverblue's /var/home/NAME: documents there may be proposed,
    and the rest of that system folder may not."""
    assert refusal("/root/docs", home=Path("/root")) is None
    reason = refusal("/root/../etc", home=Path("/root"))
    assert reason is not None and "/etc" in reason


def test_admission_refuses_resets_and_leaves_the_rest_for_review(home: Path) -> None:
    def source(path: Path, mode: SyncMode) -> Source:
        return Source(
            f"src-{path.name}", str(path), SourceKind.FOLDER, mode, status=SourceStatus.READY
        )

    roles = StoreRoles(text=True, coding=True, autonomous=True, mcp=True, mcp_roots=("/x",))
    admission = admit(
        [
            source(home / "docs", SyncMode.AUTO).evolve(path=f"{home}//docs/", real_path="/etc"),
            source(home / ".config" / "gh", SyncMode.AUTO),
        ],
        roles,
        home=home,
    )
    (kept,) = admission.sources
    assert kept.path == str(home / "docs") and kept.needs_review
    assert kept.real_path == os.path.realpath(home / "docs")  # pinned here, not taken from the file
    assert kept.sync_mode is SyncMode.MANUAL and kept.status is SourceStatus.READY
    assert [r.path for r in admission.refused] == [str(home / ".config" / "gh")]
    assert admission.roles == StoreRoles(text=True, coding=True)
    assert admission.reset == (
        "autonomous workflows",
        "access for other AI tools (MCP)",
        "the folders other AI tools may add",
        "automatic sync (sources: 1)",
    )
    notes = admission.notes("Team notes")
    assert "was not imported: it is or lies inside a hidden file or folder (.config)" in notes[0]
    assert "Switched off for the imported store: autonomous workflows;" in notes[1]
    assert "`kortty-rag source refresh 'Team notes'`" in notes[-1]
    assert len(admission.notes("Team notes", waiting=False)) == len(notes) - 1

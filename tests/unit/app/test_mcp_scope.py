"""What an MCP client may add as a root, decided on real paths (no server, no model).

The expected answers are written out per case from how the test builds the folders, not computed with
the module's own helpers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kortty_rag.app.mcp_scope import (
    McpStores,
    allowed_root,
    check_mcp_root,
    forget_allowed_root,
)
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.decoding import FieldError
from kortty_rag.errors import NotFoundError, SourceError
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType

IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "", "", 256, 38)


def store_with(*roots: Path) -> Store:
    roles = StoreRoles(mcp=True, mcp_roots=tuple(str(r) for r in roots))
    return Store("s-1", "Open", StoreType.LOCAL, IDENTITY, roles=roles)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home" / "user"
    for folder in ("docs/sub", ".ssh", "work/.git", "x"):
        (home / folder).mkdir(parents=True)
    (home / "docs" / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "etc").mkdir()
    (home / "etc-link").symlink_to(tmp_path / "etc")
    (home / "ssh-link").symlink_to(home / ".ssh")
    (home / "docs" / "up").symlink_to(home)
    return home


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        ("docs", "docs"),
        ("docs/sub", "docs/sub"),
        ("docs/a.txt", "docs/a.txt"),
        ("docs//sub/.", "docs/sub"),
        ("not-there-yet", "not-there-yet"),  # existence is the source rules' business
    ],
)
def test_plain_folders_inside_home_are_accepted_by_their_real_path(
    home: Path, relative: str, expected: str
) -> None:
    assert check_mcp_root(store_with(), f"{home}/{relative}", home=home) == home / expected


@pytest.mark.parametrize(
    ("spelled", "reason"),
    [
        ("{home}/.ssh", "hidden file or folder (.ssh)"),
        ("{home}/.ssh/id_rsa", "hidden file or folder (.ssh)"),
        ("{home}/work/.git", "hidden file or folder (.git)"),
        ("{home}/x/../.ssh", "contains '..'"),
        ("{home}/docs/../../user/.ssh", "contains '..'"),
        ("{home}/ssh-link", "symbolic link"),
        ("{home}/etc-link", "outside the user's home folder"),
        ("{home}/docs/up/.ssh", "symbolic link"),
        ("{home}/docs/up/docs", "symbolic link"),
        ("{home}", "whole home folder"),
        ("{home}/", "whole home folder"),
        ("{tmp}/etc", "outside the user's home folder"),
        ("/etc", "outside the user's home folder"),
        ("/", "outside the user's home folder"),
        ("~", "starts with '~'"),
        ("~/docs", "starts with '~'"),
        ("docs", "not an absolute path"),
        ("./docs", "not an absolute path"),
        ("", "not an absolute path"),
        ("{home}/docs\0", "not an absolute path"),
    ],
)
def test_roots_outside_the_users_scope_are_refused(
    home: Path, tmp_path: Path, spelled: str, reason: str
) -> None:
    path = spelled.format(home=home, tmp=tmp_path)
    with pytest.raises(SourceError) as refused:
        check_mcp_root(store_with(), path, home=home)
    assert reason in refused.value.message
    assert refused.value.hint


def test_the_products_own_folder_is_refused_even_inside_home(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KORTTY_HOME", str(home / "docs" / "sub"))
    for path in (home / "docs", home / "docs" / "sub", home / "docs" / "sub" / "rag"):
        with pytest.raises(SourceError, match="this product's own data"):
            check_mcp_root(store_with(), str(path), home=home)
    assert check_mcp_root(store_with(), str(home / "x"), home=home) == home / "x"


def test_a_root_the_user_allowed_is_accepted_with_the_folders_inside_it(
    home: Path, tmp_path: Path
) -> None:
    store = store_with(tmp_path / "etc", home / ".ssh")
    assert check_mcp_root(store, str(tmp_path / "etc"), home=home) == tmp_path / "etc"
    assert check_mcp_root(store, f"{tmp_path}/etc/sub", home=home) == tmp_path / "etc" / "sub"
    assert check_mcp_root(store, str(home / "etc-link"), home=home) == tmp_path / "etc"
    assert check_mcp_root(store, str(home / ".ssh"), home=home) == home / ".ssh"
    assert check_mcp_root(store, str(home / "ssh-link"), home=home) == home / ".ssh"
    with pytest.raises(SourceError, match=r"hidden folder \(\.cache\)"):
        check_mcp_root(store, f"{tmp_path}/etc/.cache", home=home)
    with pytest.raises(SourceError, match="outside"):  # the parent of an allowed root
        check_mcp_root(store_with(tmp_path / "etc" / "sub"), str(tmp_path / "etc"), home=home)


def test_allowed_roots_are_stored_real_and_can_be_withdrawn(home: Path, tmp_path: Path) -> None:
    assert allowed_root(home / "etc-link") == str(tmp_path / "etc")
    with pytest.raises(SourceError, match="does not exist"):
        allowed_root(home / "absent")
    roots = (str(tmp_path / "etc"), str(home / ".ssh"))
    assert forget_allowed_root(roots, home / "etc-link") == (str(home / ".ssh"),)
    assert forget_allowed_root(roots, str(home / ".ssh")) == (str(tmp_path / "etc"),)
    with pytest.raises(SourceError, match="not an allowed MCP root"):
        forget_allowed_root(roots, home / "docs")


def test_a_folder_inside_the_products_own_data_cannot_be_allowed(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No client could add it anyway; the user hears so when allowing it, not later. A folder that
    holds the product's folder (here the home folder) can still be allowed."""
    monkeypatch.setenv("KORTTY_HOME", str(home / "docs" / "sub"))
    (home / "docs" / "sub" / "rag").mkdir()
    (home / "rag-link").symlink_to(home / "docs" / "sub" / "rag")
    for path in (home / "docs" / "sub", home / "docs" / "sub" / "rag", home / "rag-link"):
        with pytest.raises(SourceError, match="inside this product's own data"):
            allowed_root(path)
    assert allowed_root(home) == str(home)
    assert allowed_root(home / "docs") == str(home / "docs")


def test_only_opted_in_stores_exist_for_mcp() -> None:
    registry = StoreRegistry()
    hidden = registry.create("Private", IDENTITY, roles=StoreRoles(text=False))
    visible = registry.create("Open", IDENTITY, roles=StoreRoles(mcp=True))
    assert McpStores().list() == [visible]
    assert McpStores().get("open") == visible
    answers = []
    for name in ("Private", hidden.id, "Nowhere"):
        with pytest.raises(NotFoundError) as missing:
            McpStores().get(name)
        answers.append((str(missing.value).replace(repr(name), "NAME"), type(missing.value)))
    assert answers[0] == answers[1] == answers[2]


def test_old_store_files_load_without_the_opt_in(kortty_home: Path) -> None:
    """A store.json written before the opt-in existed has roles without ``mcp``: it stays off."""
    store = StoreRegistry().create("Old", IDENTITY, roles=StoreRoles(text=True, autonomous=True))
    definition = kortty_home / "rag" / "stores" / store.id / "store.json"
    data = json.loads(definition.read_text(encoding="utf-8"))
    assert "mcp" in data["store"]["roles"]
    data["store"]["roles"] = {"text": True, "coding": False, "autonomous": True}
    definition.write_text(json.dumps(data), encoding="utf-8")
    loaded = StoreRegistry().get("Old")
    assert loaded.roles == StoreRoles(text=True, autonomous=True, mcp=False, mcp_roots=())
    assert McpStores().list() == []
    # Anything but JSON true/false is a damaged definition: never read as an opt-in, never served.
    for odd in ({"mcp": "yes"}, {"mcp": 1}, {"mcp": None}, {"mcp": True, "mcp_roots": "/etc"}):
        with pytest.raises(FieldError):
            StoreRoles.from_json(odd)
        data["store"]["roles"] = {"text": True, **odd}
        definition.write_text(json.dumps(data), encoding="utf-8")
        assert McpStores().list() == []
        with pytest.raises(NotFoundError):
            McpStores().get("Old")
        assert [broken.name for broken in StoreRegistry().damaged()] == ["Old"]


def test_the_home_folder_may_itself_be_reached_through_a_link(tmp_path: Path) -> None:
    """``/home`` → ``/usr/home`` style systems: the link above the home folder is not the root's."""
    real_home = tmp_path / "usr" / "home" / "user"
    (real_home / "docs").mkdir(parents=True)
    (tmp_path / "home").symlink_to(tmp_path / "usr" / "home")
    home = tmp_path / "home" / "user"
    assert os.path.realpath(home) == str(real_home)
    assert check_mcp_root(store_with(), f"{home}/docs", home=home) == real_home / "docs"
    assert check_mcp_root(store_with(), f"{real_home}/docs", home=home) == real_home / "docs"

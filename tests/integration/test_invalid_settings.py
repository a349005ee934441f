"""A hand-edited invalid value in a store's typed settings (issue 12): for each field of
``settings.retrieval`` and ``settings.qdrant``, the real CLI exits 2 with a message naming the file
and the field (no traceback), the other store keeps working, and the desktop app lists the store as
DAMAGED with that message in words (no command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from kortty_rag.config.registry import STORE_FILE, StoreRegistry
from kortty_rag.embedding.installed import InstalledModel

#: (field below settings, an invalid value written by hand)
INVALID: list[tuple[str, str, Any]] = [
    ("retrieval", "dense", "yes"),
    ("retrieval", "lexical", "no"),
    ("retrieval", "fusion", "magic"),
    ("retrieval", "dense_weight", 2.5),
    ("retrieval", "rrf_k", 0),
    ("retrieval", "min_relevance", "strict"),
    ("retrieval", "language", "klingon"),
    ("qdrant", "url", 5),
    ("qdrant", "collection", ["c"]),
]


def break_setting(store_id: str, section: str, key: str, value: Any) -> Path:
    path = StoreRegistry().folder(StoreRegistry().get(store_id)) / STORE_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["store"]["settings"].setdefault(section, {})[key] = value
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def stores(starter_model: InstalledModel) -> tuple[str, str]:
    registry = StoreRegistry()
    victim = registry.create("Victim", starter_model.identity())
    healthy = registry.create("Healthy", starter_model.identity())
    return victim.id, healthy.id


@pytest.mark.parametrize(
    ("section", "key", "value"), INVALID, ids=[f"{s}.{k}" for s, k, _ in INVALID]
)
def test_the_cli_names_the_file_and_the_field_and_exits_2(
    run_cli: Any, stores: tuple[str, str], section: str, key: str, value: Any
) -> None:
    path = break_setting(stores[0], section, key, value)
    result = run_cli("source", "list", "Victim")
    assert result.returncode == 2, result.stderr
    assert str(path) in result.stderr
    assert f"field store.settings.{section}.{key} " in result.stderr
    assert "Traceback" not in result.stderr
    assert "Correct that value in the file" in result.stderr
    listed = run_cli("store", "list")
    assert listed.returncode == 0 and "Healthy" in listed.stdout and "DAMAGED" in listed.stdout
    assert run_cli("source", "list", "Healthy").returncode == 0


def test_both_parts_switched_off_by_hand_is_named_too(
    run_cli: Any, stores: tuple[str, str]
) -> None:
    break_setting(stores[0], "retrieval", "dense", False)
    break_setting(stores[0], "retrieval", "lexical", False)
    result = run_cli("search", "Victim", "anything")
    assert result.returncode == 2 and "store.settings.retrieval" in result.stderr
    assert "dense and lexical" in result.stderr


def test_the_desktop_app_lists_it_as_damaged_in_words(
    qtbot: QtBot, stores: tuple[str, str]
) -> None:
    from kortty_rag.gui.main_window import MainWindow
    from kortty_rag.gui.stores_state import DAMAGE_ROLE

    break_setting(stores[0], "retrieval", "dense_weight", 2.5)
    window = MainWindow(watch=False)
    qtbot.addWidget(window)
    try:
        tab = window.stores_tab
        items = [tab.store_list.item(i) for i in range(tab.store_list.count())]
        damaged = next(i for i in items if i.data(DAMAGE_ROLE))
        assert damaged.text().startswith("Victim") and "DAMAGED" in damaged.text()
        message = damaged.toolTip()
        assert "field store.settings.retrieval.dense_weight" in message
        assert "kortty-rag" not in message.replace("kortty-rag-settings", "")
        tab.store_list.setCurrentItem(damaged)
        assert "store.settings.retrieval.dense_weight" in tab.store_header.text()
        assert any(i.text().startswith("Healthy") and not i.data(DAMAGE_ROLE) for i in items)
    finally:
        window.shutdown()

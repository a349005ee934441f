"""Links between notes in Test search, with real widgets, the real core and the real starter model:
an excerpt a link brought in says so in its path cell and tooltip; *Follow links* (Alt+K) searches
again without them, and *Use for this store* keeps that choice in the store's definition."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from tests.helpers.search_dialog import SEARCH_MSECS, active_test_search, run_query
from tests.integration.test_note_links import QUESTION, write_vault

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.models import Store
from kortty_rag.retrieval.search import RetrievalResult
from kortty_rag.sync.session import StoreSession

DECISION = "Vector store choice.md"


@pytest.fixture
def store(tmp_path: Path, starter_model: object) -> Store:
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import get_model

    registry = StoreRegistry()
    created = registry.create("Vault", get_model(STARTER_ID).identity())
    with StoreSession(created, registry=registry) as job:
        job.apply(job.review_new_sources([write_vault(tmp_path / "vault")]))
    return registry.get("Vault")


@pytest.fixture
def dialog(qtbot: QtBot, store: Store) -> Iterator[TestSearchDialog]:
    with active_test_search(qtbot, store) as opened:
        yield opened


def path_cells(dialog: TestSearchDialog) -> dict[str, tuple[str, str]]:
    """Each result row's path cell and the tooltips of all its cells, by the file's name."""
    table, cells = dialog.results_table, {}
    for row in range(table.rowCount()):
        items = [table.item(row, column) for column in range(table.columnCount())]
        path = items[1]
        assert path is not None
        name = next((n for n in ("Project Alpha.md", DECISION) if n in path.text()), path.text())
        cells[name] = (path.text(), "\n".join(i.toolTip() for i in items if i is not None))
    return cells


def test_a_linked_excerpt_says_why_and_the_choice_is_kept(
    qtbot: QtBot, dialog: TestSearchDialog, store: Store
) -> None:
    assert dialog.links_check.isChecked() and dialog.links_check.isEnabled()  # on by default
    run_query(qtbot, dialog, QUESTION)
    text, tip = path_cells(dialog)[DECISION]
    assert "linked from Project Alpha" in text
    assert "Link: linked from Project Alpha, bonus" in tip
    assert "[[" not in dialog.block_view.toPlainText()

    # Alt+K unticks Follow links and searches again: no excerpt carries a link reason
    assert not dialog.use_relevance_button.isEnabled()
    with qtbot.waitSignal(dialog.searched, timeout=SEARCH_MSECS) as blocker:
        qtbot.keyClick(dialog, Qt.Key.Key_K, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: not dialog.busy, timeout=SEARCH_MSECS)
    assert not dialog.links_check.isChecked()
    plain = blocker.args[0]
    assert isinstance(plain, RetrievalResult)
    assert all(e.candidate.linked is None for e in plain.excerpts)
    assert all("linked from" not in text for text, _ in path_cells(dialog).values())

    # kept for the store: every later search and prompt leaves the links alone
    assert dialog.use_relevance_button.isEnabled()
    qtbot.mouseClick(dialog.use_relevance_button, Qt.MouseButton.LeftButton)
    assert "does not follow links" in dialog.status_label.text()
    assert StoreRegistry().get(store.id).options.retrieval.graph is False
    assert not dialog.use_relevance_button.isEnabled()

"""The desktop app as a first-time user meets it (issue 13): keyboard, the status area, cancel
feedback, "already covered", the first screen. Real widgets, the real core and the starter model."""

from __future__ import annotations

import itertools
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import (
    Outcome,
    assert_completion_notice,
    message_box,
    press,
    tab_with_store,
)

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.status_area import REFRESH_MS, progress_words, time_left
from kortty_rag.progress import ProgressState


@pytest.fixture
def window(qtbot: QtBot, chooser: FixedChooser) -> Iterator[MainWindow]:
    win = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    yield win
    win.shutdown()


def notes(root: Path, files: int = 3, paragraphs: int = 2) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        text = "\n\n".join(
            f"Note {i}, part {p}: the harbour tides rise and fall twice a day. " * 8
            for p in range(paragraphs)
        )
        (root / f"note{i}.md").write_text(text, encoding="utf-8")
    return root


def index_folder(qtbot: QtBot, window: MainWindow, chooser: FixedChooser, folder: Path) -> object:
    tab = window.stores_tab
    chooser.next_folder = str(folder)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    assert tab.review_dialog is not None
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()
    return outcome.wait()


def focusable(root: QWidget) -> list[QWidget]:
    """What Tab should reach under ``root``: visible, enabled widgets that take focus by Tab."""
    found = []
    for widget in root.findChildren(QWidget):
        if (
            widget.isVisibleTo(root)
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.focusProxy() is None
            and not isinstance(widget.parentWidget(), QTabBar)  # the tab bar's scroll buttons
        ):
            found.append(widget)
    return found


def tab_through(start: QWidget, presses: int) -> list[QWidget]:
    start.setFocus(Qt.FocusReason.TabFocusReason)
    visited = [QApplication.focusWidget()]
    for _ in range(presses):
        focused = QApplication.focusWidget()
        assert focused is not None, f"the focus left the window after {names(visited)}"
        QTest.keyClick(focused, Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    return visited


def names(widgets: list[QWidget | None]) -> list[str]:
    return [w.objectName() or type(w).__name__ if w is not None else "None" for w in widgets]


def activate(qtbot: QtBot, window: QWidget) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def assert_mnemonics(root: QWidget) -> None:
    """Every visible button under ``root`` has an Alt shortcut, and no two controls share one. A
    dialog's standard buttons keep Qt's own (translated) text: Escape and Enter are theirs."""
    buttons = [b for b in root.findChildren(QAbstractButton) if b.isVisibleTo(root) and b.text()]

    def standard(button: QAbstractButton) -> bool:
        box = button.parentWidget()
        return isinstance(box, QDialogButtonBox) and (
            box.standardButton(button) != QDialogButtonBox.StandardButton.NoButton
        )

    without = [
        b.text()
        for b in buttons
        if isinstance(b, QPushButton)
        and b.isEnabled()  # a disabled one ("Starter model installed") cannot be pressed
        and not standard(b)
        and mnemonic(b.text()) is None
    ]
    assert without == [], f"{root.objectName()}: no mnemonic on {without}"
    texts = [b.text() for b in buttons]
    texts += [label.text() for label in root.findChildren(QLabel) if label.isVisibleTo(root)]
    letters = [m for m in map(mnemonic, texts) if m is not None]
    doubled = {letter for letter in letters if letters.count(letter) > 1}
    assert doubled == set(), f"{root.objectName()}: Alt+{doubled} is ambiguous in {texts}"


def assert_tab_reaches_everything(qtbot: QtBot, root: QWidget, start: QWidget) -> None:
    """Tab visits every control under ``root`` and never stays on one (a table's cells are not a
    trap): each press moves the focus."""
    activate(qtbot, root.window())
    expected = focusable(root)
    visited = tab_through(start, 2 * len(expected) + 2)
    stuck = [a for a, b in itertools.pairwise(visited) if a is b]
    assert stuck == [], f"Tab stays on {names(stuck)} in {names(visited)}"
    missed = [w for w in expected if w not in visited]
    assert missed == [], f"Tab never reaches {names(missed)} in {names(visited)}"


def mnemonic(text: str) -> str | None:
    match = re.search(r"&([^&])", text.replace("&&", ""))
    return match.group(1).lower() if match else None


def test_tab_moves_through_every_tab_of_the_window_and_out_of_its_tables(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    index_folder(qtbot, window, chooser, notes(tmp_path / "notes"))
    tab.select_source(str(tmp_path / "notes"))
    # from the source table, one Tab moves on (it used to walk its cells forever)
    activate(qtbot, window)
    tab.source_view.setFocus(Qt.FocusReason.TabFocusReason)
    assert QApplication.focusWidget() is tab.source_view
    QTest.keyClick(tab.source_view, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not tab.source_view
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        page = window.tabs.currentWidget()
        assert_tab_reaches_everything(qtbot, page, focusable(page)[0])


def test_enter_presses_the_focused_button_of_the_main_window(
    qtbot: QtBot, window: MainWindow, starter_model: InstalledModel
) -> None:
    tab = tab_with_store(window, starter_model)
    tab.search_button.setFocus(Qt.FocusReason.TabFocusReason)
    assert QApplication.focusWidget() is tab.search_button
    QTest.keyClick(tab.search_button, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: any(
            w.objectName() == "testSearchDialog" and w.isVisible()
            for w in QApplication.topLevelWidgets()
        )
    )
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "testSearchDialog")
    assert_tab_reaches_everything(qtbot, dialog, dialog.query_edit)
    assert_mnemonics(dialog)
    dialog.close()


def test_every_button_has_a_mnemonic_of_its_own_on_each_tab(
    window: MainWindow, starter_model: InstalledModel
) -> None:
    tab_with_store(window, starter_model)
    always = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    always += [action.text() for action in window.menuBar().actions()]
    always += [window.status.summary_button.text(), window.status.cancel_button.text()]
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        page = window.tabs.currentWidget()
        buttons = [
            b
            for b in page.findChildren(QAbstractButton)
            if isinstance(b, QPushButton) and b.isVisibleTo(page)
        ]
        assert buttons
        without = [b.text() for b in buttons if mnemonic(b.text()) is None]
        assert without == [], f"{window.tabs.tabText(index)}: no mnemonic on {without}"
        letters = [mnemonic(text) for text in [*always, *(b.text() for b in buttons)]]
        doubled = {letter for letter in letters if letters.count(letter) > 1}
        assert doubled == set(), f"{window.tabs.tabText(index)}: Alt+{doubled} is ambiguous"


def test_the_menu_bar_quits_with_ctrl_q_and_tells_the_versions(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert [a.text() for a in window.menuBar().actions()] == ["&File", "&Help"]
    assert window.quit_action.shortcut() == QKeySequence("Ctrl+Q")
    window.show_about()
    box = window.about_box
    assert box is not None and box.isVisible()
    about = box.informativeText()
    assert "llama-cpp-python 0." in about and "Qt 6." in about and "PySide6 6." in about
    box.done(0)
    QTest.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible())


def test_the_first_screen_explains_and_leads_to_the_first_store(
    qtbot: QtBot, starter_model: InstalledModel, window: MainWindow
) -> None:
    tab = window.stores_tab
    assert tab.pages.currentWidget() is tab.welcome
    text = tab.welcome.findChild(QWidget, "welcomeText")
    assert "only read, never changed" in text.text() and "on this computer" in text.text()
    assert not tab.starter_button.isVisible()  # a model is installed: nothing to install
    assert window.findChild(QWidget, "aiHeading") is None  # the stray "AI" caption is gone
    tab.first_store_button.click()
    assert tab.create_dialog is not None and tab.create_dialog.isVisible()
    tab.create_dialog.reject()


def test_status_stages_a_sane_rate_timed_updates_and_cancel_feedback(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    index_folder(qtbot, window, chooser, notes(tmp_path / "first", files=1))
    many = notes(tmp_path / "many", files=200, paragraphs=6)  # minutes of embedding
    chooser.next_folder = str(many)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    seen: list[tuple[float, str]] = []
    window.status.changed.connect(lambda text: seen.append((time.monotonic(), text)))
    window.tabs.setCurrentIndex(1)  # the status area stays in view on another tab
    assert tab.review_dialog is not None
    started = time.monotonic()
    tab.review_dialog.index_button.click()
    qtbot.waitUntil(lambda: "chunks/s" in window.status.message.text(), timeout=120_000)
    qtbot.wait(3 * REFRESH_MS)
    assert window.status.isVisible() and window.status.cancel_button.isVisible()
    texts = [text for _, text in seen]
    assert any("Loading the embedding model…" in t for t in texts)
    embedding = [(at, t) for at, t in seen if "Embedding…" in t]
    assert embedding
    # the rate is real: about the chunks counted over the time they took
    last = embedding[-1][1]
    rate = float(re.search(r"([\d.]+) chunks/s", last).group(1))  # type: ignore[union-attr]
    chunks = int(re.search(r"(\d+) chunks?,", last).group(1))  # type: ignore[union-attr]
    assert 0 < rate < 10 * chunks / (time.monotonic() - started) + 1
    # redrawn on a timer, not only after a batch: at least twice a second once embedding runs
    times = [at for at, _ in embedding]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps and max(gaps) < 1.0, f"the status waited {max(gaps):.2f} s"
    assert not re.search(r"(?<![\d.])1 (documents|chunks|issues)\b", " ".join(texts))
    # Cancel answers at once, and the end is said in plain words
    clicked = time.monotonic()
    window.status.cancel_button.click()
    assert window.status.message.text() == "Cancelling…"
    assert not window.status.cancel_button.isEnabled()
    assert time.monotonic() - clicked < 0.2
    with qtbot.waitSignal(tab.job_cancelled, timeout=120_000):
        pass
    assert window.status.message.text() == (
        "Cancelled. Docs still answers from its last completed index; the new folder was not added."
    )
    assert [s.path for s in StoreRegistry().get("Docs").sources] == [str(tmp_path / "first")]


def test_completion_is_a_notice_with_a_summary_that_blocks_nothing(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    window.tabs.setCurrentIndex(2)  # the user looks at another tab meanwhile
    folder = notes(tmp_path / "notes")
    (folder / "photo.bin").write_bytes(bytes(range(256)) * 8)  # left out: not a text format
    index_folder(qtbot, window, chooser, folder)
    assert_completion_notice(tab)
    assert window.tabs.currentIndex() == 2
    assert "3 new or changed" in window.status.message.text()
    window.status.summary_button.click()
    box = window.status.summary_box
    assert isinstance(box, QMessageBox) and box.isVisible() and not box.isModal()
    assert "Docs: 3 new or changed" in box.text()
    assert "it took " in box.text() and " s." in box.text()  # how long (issue 29, point 7)
    # what was left out, and why, with where the whole list is
    assert box.informativeText().startswith("Skipped:\n1 × ")
    assert "Skipped count" in box.informativeText()
    box.close()


def test_adding_a_folder_already_covered_is_information(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
    starter_model: InstalledModel,
) -> None:
    tab = tab_with_store(window, starter_model)
    folder = notes(tmp_path / "notes")
    index_folder(qtbot, window, chooser, folder)
    (folder / "inner").mkdir()
    chooser.next_folder = str(folder / "inner")
    tab.add_folder_button.click()
    qtbot.waitUntil(lambda: message_box("infoBox") is not None, timeout=60_000)
    box = message_box("infoBox")
    assert box is not None and box.windowTitle() == "Already in this store"
    assert f"already covered by the source {folder}" in box.text()
    assert "failed" not in window.status.message.text().lower()
    assert window.status.message.text().startswith("Nothing was added:")
    press(qtbot, "infoBox", "OK")
    assert message_box("errorBox") is None


def test_plurals_and_time_left_read_naturally() -> None:
    counts = progress_words(
        ProgressState(
            stage="index",
            percent=50.0,
            documents=1,
            chunks=0,
            issues=2,
            chunks_per_second=0.0,
            eta_seconds=None,
        )
    )
    assert "1 document, 0 chunks, 2 issues" in counts
    assert time_left(4) == "a few seconds left"
    assert time_left(42) == "about 40 s left"
    assert time_left(170) == "about 3 min left"
    assert time_left(3 * 3600 + 5 * 60) == "about 3 h 05 min left"


def test_tab_reaches_every_control_of_the_dialogs_of_the_main_flows(
    qtbot: QtBot,
    starter_model: InstalledModel,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
) -> None:
    tab = tab_with_store(window, starter_model)
    tab.create_store()
    create = tab.create_dialog
    assert create is not None
    qtbot.waitExposed(create)
    assert_tab_reaches_everything(qtbot, create, create.name_edit)
    assert_mnemonics(create)
    create.advanced_toggle.setChecked(True)
    assert_mnemonics(create)
    create.reject()

    chooser.next_folder = str(notes(tmp_path / "notes"))
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    review = tab.review_dialog
    assert review is not None
    qtbot.waitExposed(review)
    assert_tab_reaches_everything(qtbot, review, review.table)
    assert_mnemonics(review)
    review.reject()

    window.models_tab.open_wizard()
    wizard = window.models_tab.wizard
    assert wizard is not None
    qtbot.waitExposed(wizard)
    assert_tab_reaches_everything(qtbot, wizard, wizard.role_combo)
    assert_mnemonics(wizard)
    wizard.reject()

    window.tabs.setCurrentWidget(window.profiles_tab)
    window.profiles_tab.add_profile()
    editor = window.profiles_tab.editor
    assert editor is not None
    qtbot.waitExposed(editor)
    assert_tab_reaches_everything(qtbot, editor, editor.name_edit)
    assert_mnemonics(editor)
    editor.reject()


def test_skips_are_not_issues_and_both_counts_open_the_last_scan_report(
    qtbot: QtBot,
    starter_model: InstalledModel,
    window: MainWindow,
    chooser: FixedChooser,
    tmp_path: Path,
) -> None:
    tab = tab_with_store(window, starter_model)
    folder = notes(tmp_path / "notes", files=2)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "empty.md").write_text("")
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(64))
    (folder / "broken.txt").write_bytes(b"text with a \x00 byte inside")  # a real problem
    chooser.next_folder = str(folder)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    review = tab.review_dialog
    assert review is not None
    order = [
        (review.proxy.index(r, 3).data(), review.proxy.index(r, 0).data())
        for r in range(review.proxy.rowCount())
    ]  # what changes first, then issues, then skips; by name within each
    assert order == [
        ("index", "note0.md"),
        ("index", "note1.md"),
        ("issue", "broken.txt"),
        ("skipped", ".git"),
        ("skipped", "empty.md"),
        ("skipped", "photo.jpg"),
    ]
    assert review.proxy.index(3, 2).data() == "—"  # a folder has no size
    assert review.proxy.index(4, 2).data() == "0 B"  # an empty file has
    outcome = Outcome(qtbot, tab, "index_finished")
    review.index_button.click()
    outcome.wait()
    source = StoreRegistry().get("Docs").sources[0]
    assert (source.counts.skipped, source.counts.issues) == (3, 1)
    row = next(
        r for r in range(tab.proxy.rowCount()) if tab.proxy.index(r, 0).data() == str(folder)
    )
    issues = tab.proxy.index(row, 6)
    assert issues.data() == "1" and "could not be read" in issues.data(Qt.ItemDataRole.ToolTipRole)
    assert tab.proxy.index(row, 5).data() == "3"
    tab.source_view.selectRow(row)
    tab.source_view.activated.emit(issues)  # what Enter or a double-click on the count does
    dialog = tab.report_dialog
    assert dialog is not None and dialog.isVisible()
    first = [dialog.proxy.index(0, c).data() for c in (0, 3, 4)]
    assert first[0] == "broken.txt" and first[1] == "issue"
    shown = {
        dialog.proxy.index(r, 0).data(): dialog.proxy.index(r, 3).data()
        for r in range(dialog.proxy.rowCount())
    }
    assert shown == {
        "broken.txt": "issue",
        ".git": "skipped",
        "empty.md": "skipped",
        "photo.jpg": "skipped",
    }
    assert (
        "1 issue" in dialog.summary.text() and "3 files left out by a rule" in dialog.summary.text()
    )
    dialog.reject()
    # kept across a restart of the app
    again = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(again)
    try:
        report = again.workspace.scan_report(StoreRegistry().get("Docs"), source)
        assert report is not None and [r.rel_path for r in report.problems] == ["broken.txt"]
    finally:
        again.shutdown()


def test_the_first_screen_shows_its_whole_text(qtbot: QtBot, window: MainWindow) -> None:
    tab = window.stores_tab
    window.resize(800, 600)
    QApplication.processEvents()
    for name in ("welcomeTitle", "welcomeText", "welcomeStarterNote"):
        label = tab.welcome.findChild(QWidget, name)
        assert label is not None and label.isVisible()
        needed = label.heightForWidth(label.width())  # type: ignore[attr-defined]
        assert label.height() >= max(needed, label.sizeHint().height() if needed < 0 else 0), name


@pytest.mark.slow
def test_the_first_screen_installs_the_offline_starter_model(
    qtbot: QtBot, window: MainWindow
) -> None:
    from kortty_rag.embedding.installed import list_models

    tab = window.stores_tab
    assert list_models() == [] and tab.starter_button.isVisible()
    assert window.models_tab.models() == []
    with qtbot.waitSignal(tab.models_changed, timeout=600_000):
        qtbot.mouseClick(tab.starter_button, Qt.MouseButton.LeftButton)
        assert not tab.starter_button.isEnabled()
        assert window.status.message.text().startswith("Installing the offline starter model")
    assert [m.origin for m in list_models()] == ["starter"]
    assert window.status.message.text().startswith("The embedding model all-minilm-l6-v2-starter")
    assert not tab.starter_button.isVisible() and tab.first_store_button.isVisible()
    assert [m.id for m in window.models_tab.models()] == ["all-minilm-l6-v2-starter"]


def test_a_model_installed_from_create_updates_the_first_screen_even_if_create_is_cancelled(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    starter_cache: Path,
    tmp_path: Path,
) -> None:
    """Create… without a model opens the model wizard first; what it installs is known at once to
    the first screen (no more "install the starter model" offer) and to the Models tab, even when
    the Create dialog that follows is cancelled."""
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import list_models

    tab = window.stores_tab
    assert list_models() == [] and tab.starter_button.isVisible()
    own = tmp_path / "My MiniLM.gguf"
    shutil.copyfile(starter_cache / "models" / STARTER_ID / "model.gguf", own)
    tab.first_store_button.click()
    wizard = tab.model_wizard
    assert wizard is not None and wizard.isVisible()
    chooser.next_gguf = str(own)
    with qtbot.waitSignal(wizard.installed, timeout=300_000):
        wizard.import_button.click()
    qtbot.waitUntil(lambda: tab.create_dialog is not None and tab.create_dialog.isVisible())
    assert tab.create_dialog is not None
    tab.create_dialog.reject()
    assert not tab.starter_button.isVisible() and not tab.starter_note.isVisible()
    assert [m.id for m in window.models_tab.models()] == ["my-minilm"]

"""The desktop app in German (KORTTY_LANG=de): every window of the main flows, every text they show —
labels, buttons, tabs, menus, table headers and cells, tooltips, accessible names — and none of it
left in English.

The judge is independent of the product's translation: a word counts as English when
pyspellchecker's English word list has it and its German one does not (tests/helpers/ui_text.py).
Proper names, units and the loanwords of korTTY's German documentation are allowed; data the test
itself put there (the store's name, file names, paths, the question asked) is left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.main_flows import (
    STORE,
    german_main_window,  # noqa: F401 (the fixture "window")
    walk_main_flows,
)
from tests.gui.test_first_use import assert_mnemonics
from tests.gui.test_first_use import (
    test_every_button_has_a_mnemonic_of_its_own_on_each_tab as mnemonics_unique_on_each_tab,
)
from tests.helpers.ui_text import english_words, visible_texts

from kortty_rag.embedding.catalog import CATALOG
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui import i18n
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.messages import msg


def test_the_tabs_and_menus_speak_german(window: MainWindow) -> None:
    tabs = [window.tabs.tabText(i).replace("&&", "&").replace("&", "", 1) for i in range(3)]
    assert tabs == ["Wissensspeicher", "KI-Profile & Rollen", "Modelle"]
    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus == ["Datei", "Hilfe"]


def test_no_english_is_left_in_the_main_flows(
    qtbot: QtBot, window: MainWindow, starter_model: InstalledModel, tmp_path: Path
) -> None:
    chooser = window.chooser
    assert isinstance(chooser, FixedChooser)
    folder = tmp_path / "notizen"
    data = {
        STORE,
        starter_model.id,
        str(tmp_path),
        "Wann steht das Wasser im Hafen am höchsten?",
        "Rezept für Apfelkuchen",
    }
    seen: dict[str, int] = {}
    leftovers: list[str] = []

    ambiguous: list[str] = []

    # the catalog's model names are proper names (Qwen3-Embedding, Nomic Embed Text)
    data |= {entry.name for entry in CATALOG}
    # Qt's file dialog lists the folders of this machine: data, not words of the app
    folders = {"treeView", "listView", "sidebar", "fileNameEdit", "lookInCombo"}

    def visit(name: str, shown: QWidget) -> None:
        shows_data = {"contextBlock"} | (folders if isinstance(shown, QFileDialog) else set())
        texts = visible_texts(shown, data_views=shows_data)
        seen[name] = len(texts)
        for where, text in texts:
            words = english_words(text, data)
            if words:
                leftovers.append(f"{name} / {where}: {text!r} ({', '.join(words)})")
        if isinstance(shown, QDialog) and not isinstance(shown, (QMessageBox, QFileDialog)):
            try:  # the German mnemonics are as unique as the English ones
                assert_mnemonics(shown)
            except AssertionError as exc:
                ambiguous.append(f"{name}: {exc}")

    walk_main_flows(qtbot, window, chooser, folder, visit)
    # the walk reached every window with text in it (a check that cannot pass on an empty walk)
    assert len(seen) >= 20 and all(count > 0 for count in seen.values()), seen
    assert leftovers == [], "English left in the German app:\n" + "\n".join(leftovers)
    assert ambiguous == []


def test_every_button_has_a_german_mnemonic_of_its_own_on_each_tab(
    window: MainWindow, starter_model: InstalledModel
) -> None:
    mnemonics_unique_on_each_tab(window, starter_model)


def test_qt_own_buttons_are_german(qtbot: QtBot, german: i18n.Translations) -> None:
    box = QMessageBox(
        QMessageBox.Icon.Question,
        "x",
        "y",
        QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
    )
    qtbot.addWidget(box)
    texts = {b.text().replace("&", "") for b in box.buttons()}
    assert texts == {"OK", "Abbrechen"}


def test_core_messages_are_said_in_german(german: i18n.Translations) -> None:
    # a message of the core, by its template and values; a value that is itself a message too
    reason = msg("empty file (no text)")
    error = msg("Nothing to add: {path} is {reason}", path="/daten/a.md", reason=reason)
    said = core_words(error)
    assert said.startswith("Nichts hinzuzufügen: /daten/a.md")
    assert english_words(said, {"/daten/a.md"}) == []
    # the same English read back from a file (no template attached) is matched to its template
    assert core_words(str(error)) == said
    # text the core never wrote stays as it was
    assert core_words("frei erfundener Text 42") == "frei erfundener Text 42"


def test_numbers_follow_the_language(german: i18n.Translations) -> None:
    # a number in a core message is written the German way (also under a template nobody translated)
    assert (
        core_words(msg("{count:,} of {share:.1f} zz", count=12345, share=0.5)) == "12.345 of 0,5 zz"
    )
    assert core_words(msg("{share:.0%} zz", share=0.5)) == "50 % zz"
    assert core_words(msg("{seconds:g} zz", seconds=2.5)) == "2,5 zz"
    from kortty_rag.gui.status_area import progress_words
    from kortty_rag.progress import ProgressState

    words = progress_words(
        ProgressState(
            stage="index",
            documents=1,
            chunks=2,
            issues=0,
            percent=50.0,
            chunks_per_second=1.5,
            eta_seconds=None,
        )
    )
    assert "1 Dokument," in words and "2 Chunks" in words and "0 Probleme" in words
    assert "50 %" in words and "1,5 Chunks/s" in words


def test_kortty_lang_chooses_the_language() -> None:
    assert i18n.chosen_language({"KORTTY_LANG": "de"}) == "de"
    assert i18n.chosen_language({"KORTTY_LANG": "en"}) == "en"
    assert i18n.chosen_language({"KORTTY_LANG": "de_DE.UTF-8"}) == "de"


@pytest.mark.parametrize(("lang", "expected"), [("de", "Wissensspeicher"), ("en", "Knowledge")])
def test_the_app_follows_kortty_lang_and_the_system_locale(
    tmp_path: Path, lang: str, expected: str
) -> None:
    """The real start path (``run_gui``'s language choice) in a process of its own: KORTTY_LANG
    wins; without it, a German system locale (LANG/LC_ALL) gives German."""
    script = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from kortty_rag.gui import i18n\n"
        "app = QApplication(sys.argv)\n"
        "i18n.install(i18n.chosen_language())\n"
        "from kortty_rag.gui.main_window import MainWindow\n"
        "w = MainWindow(watch=False)\n"
        "print(w.tabs.tabText(0).replace('&', ''))\n"
        "w.shutdown()\n"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "KORTTY_LANG"))}
    base.update(QT_QPA_PLATFORM="offscreen", KORTTY_HOME=str(tmp_path))
    by_variable = subprocess.run(
        [sys.executable, "-c", script],
        env={**base, "KORTTY_LANG": lang, "LC_ALL": "C.UTF-8"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert by_variable.stdout.split()[0] == expected
    locale = "de_DE.UTF-8" if lang == "de" else "en_US.UTF-8"
    by_locale = subprocess.run(
        [sys.executable, "-c", script],
        env={**base, "LC_ALL": locale, "LANG": locale},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert by_locale.stdout.split()[0] == expected
    assert QApplication.instance() is not None


def test_a_reason_read_back_from_the_store_file_is_german(
    qtbot: QtBot, window: MainWindow, starter_model: InstalledModel, tmp_path: Path
) -> None:
    """A MISSING source's reason is kept in store.json as English text (no template travels
    with it): after a restart the German app still says it in German, buttons included."""
    from tests.gui.main_flows import german_notes
    from tests.gui.test_first_use import index_folder
    from tests.gui.test_stores_tab import Outcome, tab_with_store

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.models import SourceStatus

    chooser = window.chooser
    assert isinstance(chooser, FixedChooser)
    tab = tab_with_store(window, starter_model)
    folder = german_notes(tmp_path / "notizen")
    index_folder(qtbot, window, chooser, folder)
    folder.rename(tmp_path / "anderswo")
    tab.select_source(str(folder))
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.refresh_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    outcome = Outcome(qtbot, tab, "index_finished")
    tab.review_dialog.index_button.click()  # type: ignore[union-attr]
    outcome.wait()
    (source,) = StoreRegistry().get("Docs").sources
    assert source.status is SourceStatus.MISSING and "no longer exists" in source.status_reason
    window.close()

    again = MainWindow(chooser=chooser, watch=False)  # a restart: the reason comes from the file
    qtbot.addWidget(again)
    again.show()
    try:
        again.stores_tab.select_source(str(folder))
        status = again.stores_tab.sources.index(0, 3).data()
        assert status.startswith("FEHLEND: ")
        assert "Speicherort ändern" in status  # the command became the button
        assert english_words(status, {str(folder)}) == [], status
    finally:
        again.shutdown()


def test_every_part_of_a_split_widget_finds_its_german_words(window: MainWindow) -> None:
    """A widget split over several classes (the Knowledge Stores tab: state, indexing, actions, the
    tab) keeps each string under the class that defines it, as lupdate files it; ``tr()`` called on
    the tab must find every one of them through the class hierarchy. Read from the .ts file with
    ElementTree, asked of the running widget."""
    import xml.etree.ElementTree as ET

    from kortty_rag.gui.stores_tab import StoresTab

    tab = window.stores_tab
    assert isinstance(tab, StoresTab)
    parts = {cls.__name__ for cls in type(tab).__mro__ if cls.__module__.startswith("kortty_rag")}
    assert {"StoresTab", "StoresActions", "StoresIndexing", "StoresState"} <= parts
    root = ET.parse(Path(__file__).parents[2] / "resources/translations/kortty_rag_de.ts")
    checked: dict[str, int] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        if name not in parts:
            continue
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            assert translation is not None
            if message.get("numerus") == "yes":
                # PySide6 looks through the hierarchy only without a count: a part words its
                # plurals with translate() in its own context (test_a_part_counts_with_its_own_context)
                forms = [form.text or "" for form in translation.iter("numerusform")]
                assert translate(name, source, None, 1) == forms[0].replace("%n", "1")
            else:
                assert tab.tr(source) == translation.text, (name, source)
            checked[name] = checked.get(name, 0) + 1
    assert set(checked) == parts, checked  # every part has strings, and every one was found


def test_a_part_counts_with_its_own_context() -> None:
    """``self.tr(text, "", n)`` finds a plural only in the runtime class's own context, not in a
    base class's: in a class another class of the app derives from, a count must go through
    ``translate("<that class>", text, None, n)``. Read from the source with ``ast``."""
    import ast

    package = Path(__file__).parents[2] / "src" / "kortty_rag" / "gui"
    classes: dict[str, ast.ClassDef] = {}
    bases: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = node
                bases.update(b.id for b in node.bases if isinstance(b, ast.Name))
    wrong = [
        f"{name}: line {call.lineno}"
        for name in sorted(bases & set(classes))
        for call in ast.walk(classes[name])
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "tr"
        and len(call.args) >= 3
    ]
    assert "StoresState" in bases and "StoresIndexing" in bases  # the check sees the parts
    assert wrong == []

"""What a screen reader gets from the desktop app (issue 15): every control a person operates in
the windows of the main flows has a name and a description, as Qt's accessibility layer reports
them (``QAccessible``, which a screen reader reads, not the widgets' own properties); every label
that names a field is its buddy; and no state is told by colour or boldness alone."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QTabBar,
    QTableView,
    QWidget,
)
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.main_flows import (
    german_main_window,  # noqa: F401 (the fixture "window")
    walk_main_flows,
)
from tests.helpers.ui_text import interactive_widgets, spoken

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow


def unnamed(root: QWidget) -> list[str]:
    """Controls a screen reader could not name or describe; combo boxes must have a name of their
    own (Qt's fallback for them is the chosen value, which says nothing about what they choose)."""
    found = []
    for widget in interactive_widgets(root):
        name, description = spoken(widget)
        what = f"{type(widget).__name__} {widget.objectName()!r} ({name!r})"
        if not name:
            found.append(f"{what}: no name")
        if isinstance(widget, QTabBar) and not description:
            # Qt reports a description for each tab, never for the bar: every tab must have one
            found += [f"{what}: tab {tab!r} has no description" for tab in undescribed_tabs(widget)]
        elif not description:
            found.append(f"{what}: no description")
        if isinstance(widget, QComboBox) and not widget.accessibleName():
            found.append(f"{what}: a combo box named only by its value")
    return found


def undescribed_tabs(bar: QTabBar) -> list[str]:
    interface = QAccessible.queryAccessibleInterface(bar)
    tabs = [interface.child(i) for i in range(interface.childCount())]
    return [
        tab.text(QAccessible.Text.Name)
        for tab in tabs
        if tab is not None
        and tab.role() == QAccessible.Role.PageTab
        and not tab.text(QAccessible.Text.Description).strip()
    ]


def unbuddied(root: QWidget) -> list[str]:
    """Labels that name a field (the label column of a form, or text ending in a colon) but are
    not buddied to one."""
    found = []
    for form in root.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            label = item.widget() if item is not None else None
            if (
                isinstance(label, QLabel)
                and label.isVisible()
                and label.text()
                and label.buddy() is None
            ):
                found.append(f"form label {label.text()!r}")
    for label in root.findChildren(QLabel):
        text = label.text().strip()
        if label.isVisible() and text.endswith(":") and label.buddy() is None:
            found.append(f"label {text!r}")
    return found


def colour_only(root: QWidget) -> list[str]:
    """Table rows styled (colour or font) unlike the others whose words do not differ: the style
    would be the only carrier of what it means."""
    found = []
    for view in root.findChildren(QTableView):
        model = view.model()
        if model is None or not view.isVisible():
            continue
        styled: dict[bool, set[tuple[str, ...]]] = {True: set(), False: set()}
        for row in range(model.rowCount()):
            cells = [model.index(row, c) for c in range(model.columnCount())]
            looks = any(
                cell.data(role) is not None
                for cell in cells
                for role in (
                    Qt.ItemDataRole.ForegroundRole,
                    Qt.ItemDataRole.BackgroundRole,
                    Qt.ItemDataRole.FontRole,
                )
            )
            words = tuple(
                str(cell.data(Qt.ItemDataRole.DisplayRole) or "")
                for cell in cells
                if not view.isColumnHidden(cell.column())
                and model.headerData(cell.column(), Qt.Orientation.Horizontal)
                not in ("Pfad", "Path", "Größe", "Size", "Text", "Format")
            )
            styled[looks].add(words)
        if styled[True] and styled[False] and styled[True] & styled[False]:
            found.append(f"{view.objectName()}: {sorted(styled[True] & styled[False])[:3]}")
    return found


def test_every_control_of_the_main_flows_is_named_and_described(
    qtbot: QtBot, window: MainWindow, starter_model: InstalledModel, tmp_path: Path
) -> None:
    chooser = window.chooser
    assert isinstance(chooser, FixedChooser)
    problems: list[str] = []
    controls: dict[str, int] = {}

    def visit(name: str, shown: QWidget) -> None:
        if isinstance(shown, QFileDialog):
            return  # Qt's (or the platform's) own dialog, not the app's
        controls[name] = len(interactive_widgets(shown))
        problems.extend(f"{name}: {p}" for p in unnamed(shown))
        problems.extend(f"{name}: {p}" for p in unbuddied(shown))
        problems.extend(f"{name}: {p}" for p in colour_only(shown))

    walk_main_flows(qtbot, window, chooser, tmp_path / "notizen", visit)
    assert sum(controls.values()) > 100, controls  # the walk saw the controls it checked
    assert problems == [], "\n".join(sorted(set(problems)))


def test_the_judges_catch_what_they_look_for(qtbot: QtBot) -> None:
    """Each check above fails on the mistake it is for (it is not one that cannot fail)."""
    from PySide6.QtWidgets import QDialog, QLineEdit, QPushButton

    dialog = QDialog()
    qtbot.addWidget(dialog)
    form = QFormLayout(dialog)
    combo = QComboBox(dialog)
    combo.addItems(["eins", "zwei"])
    form.addRow("Auswahl", combo)  # buddied by the form, yet no name of its own
    loose = QLabel("Pfad:", dialog)
    form.addRow(loose)
    edit = QLineEdit(dialog)
    form.addRow(edit)
    button = QPushButton("Los", dialog)
    form.addRow(button)
    dialog.show()
    qtbot.waitExposed(dialog)
    problems = unnamed(dialog)
    assert any("QLineEdit" in p and "no name" in p for p in problems)
    assert any("QPushButton" in p and "no description" in p for p in problems)
    assert any("combo box named only by its value" in p for p in problems)
    assert unbuddied(dialog) == ["label 'Pfad:'"]

    from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel

    model = QStandardItemModel(2, 2)
    model.setHorizontalHeaderLabels(["Pfad", "Status"])
    for row, path in enumerate(("a.md", "b.md")):
        model.setItem(row, 0, QStandardItem(path))
        model.setItem(row, 1, QStandardItem("BEREIT"))
    model.item(1, 1).setForeground(QColor("red"))  # red, but the words say the same
    table = QTableView(dialog)
    table.setObjectName("redTable")
    table.setModel(model)
    form.addRow(table)
    table.show()
    assert colour_only(dialog) == ["redTable: [('BEREIT',)]"]
    model.item(1, 1).setText("FEHLER")
    assert colour_only(dialog) == []

    from PySide6.QtWidgets import QTabWidget

    tabs = QTabWidget(dialog)
    tabs.addTab(QWidget(), "Eins")
    tabs.addTab(QWidget(), "Zwei")
    tabs.setTabToolTip(0, "Die erste Seite")
    form.addRow(tabs)
    tabs.show()
    assert undescribed_tabs(tabs.tabBar()) == ["Zwei"]

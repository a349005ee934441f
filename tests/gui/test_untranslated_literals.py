"""No text of the desktop app bypasses translation: in every module of ``kortty_rag.gui``, a call
that puts text on screen (a label, a button, a title, a tooltip, a message box, a combo item …)
gets it from ``tr()`` / ``translate()`` (or from a function that does), never as a string literal
or an f-string written in place. Read with ``ast`` from the source, independent of lupdate.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "src" / "kortty_rag" / "gui"

#: callee name → the positions of its text arguments (keyword names for those passed by name)
TEXT_ARGUMENTS: dict[str, tuple[int | str, ...]] = {
    "setText": (0,),
    "setWindowTitle": (0,),
    "setToolTip": (0,),
    "setStatusTip": (0,),
    "setWhatsThis": (0,),
    "setPlaceholderText": (0,),
    "setAccessibleName": (0,),
    "setAccessibleDescription": (0,),
    "setInformativeText": (0,),
    "setDetailedText": (0,),
    "setLabelText": (0,),
    "setTitle": (0,),
    "setTabText": (1,),
    "setTabToolTip": (1,),
    "addTab": (1,),
    "addItem": (0,),
    "addMenu": (0,),
    "addRow": (0,),
    "addButton": (0,),
    "setHorizontalHeaderLabels": (0,),
    "setHeaderLabels": (0,),
    "QLabel": (0,),
    "QPushButton": (0,),
    "QCheckBox": (0,),
    "QRadioButton": (0,),
    "QGroupBox": (0,),
    "QAction": (0,),
    "QMessageBox": (1, 2),
    "show_error": (1,),
    "show_info": (1, 2, 3),
    "confirm": (1, 2, 3, "yes_text"),
    "describe": (1, "name"),
    "finish": (0, "title", "summary"),
    "set_status": (0,),
    "set_text": (0,),
    "track": (1,),
}


def _words(text: str) -> bool:
    """Whether ``text`` has words in it: letters, beyond the product's name, markup tags and a
    URL (an example in a placeholder)."""
    if "://" in text:
        return False
    text = re.sub(r"</?[a-z]+>", "", text.replace("kortty-rag", ""))
    return any(ch.isalpha() for ch in text)


def _is_words(node: ast.expr) -> bool:
    """A literal a person would read: a str, or the fixed parts of an f-string, with words."""
    if isinstance(node, ast.JoinedStr):
        return _words("".join(p.value for p in node.values if isinstance(p, ast.Constant)))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _words(node.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_is_words(item) for item in node.elts)
    if isinstance(node, ast.IfExp):
        return _is_words(node.body) or _is_words(node.orelse)
    if isinstance(node, ast.BinOp):  # "a" + tr("b")
        return _is_words(node.left) or _is_words(node.right)
    return False


def _callee(call: ast.Call) -> str:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return ""


def untranslated(source: str, filename: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        positions = TEXT_ARGUMENTS.get(_callee(node), ())
        for position in positions:
            if isinstance(position, int):
                argument = node.args[position] if position < len(node.args) else None
            else:
                argument = next((k.value for k in node.keywords if k.arg == position), None)
            if argument is not None and _is_words(argument):
                text = ast.unparse(argument)
                found.append(f"{filename}:{node.lineno}: {_callee(node)}({text[:70]})")
    return found


def test_no_gui_text_is_written_in_place() -> None:
    found = []
    for path in sorted(GUI.rglob("*.py")):
        found += untranslated(path.read_text(encoding="utf-8"), str(path.relative_to(GUI)))
    assert found == []


def test_the_check_finds_text_written_in_place() -> None:
    source = (
        "def build(self, n):\n"
        "    QLabel('Knowledge stores', self)\n"
        "    self.button.setToolTip(f'{n} files')\n"
        "    self.title.setText(f'<b>{name}</b> — {words}')\n"
        "    edit.setPlaceholderText('https://example.com')\n"
        "    edit.setPlaceholderText('/path/to/x.gguf' if local else self.tr('name'))\n"
        "    self.tr('Fine')\n"
        "    QPushButton(self.tr('&Create…'), self)\n"
        "    confirm(self, self.tr('Remove'), 'Really?', detail, go, yes_text='Remove')\n"
        "    table.setHorizontalHeaderLabels(['Path', self.tr('Size')])\n"
        "    self.setObjectName('storesTab')\n"
    )
    assert [line.split(": ", 1)[1] for line in untranslated(source, "x.py")] == [
        "QLabel('Knowledge stores')",
        "setToolTip(f'{n} files')",
        "setPlaceholderText('/path/to/x.gguf' if local else self.tr('name'))",
        "confirm('Really?')",
        "confirm('Remove')",
        "setHorizontalHeaderLabels(['Path', self.tr('Size')])",
    ]

"""File and folder choosers: the platform's dialog where it has one, else Qt's own in the app's
language and formats.

Qt's own file dialog (the one a desktop without a platform dialog gets) writes a file's date and
size in the system's locale — ``QFileSystemModel`` asks ``QLocale.system()`` — so with the app in
German on a system without a German locale the dates read "7 12 2026" beside German words, and its
Type column cut "Verzeichnis" to "Ver…nis". :class:`AppLocaleFiles` writes them in the app's locale
(``QLocale()``, which :mod:`kortty_rag.gui.i18n` sets), and :func:`file_dialog` lets the columns
share the width (:class:`~kortty_rag.gui.shared_columns.SharedColumns`). The platform's own
dialog, where there is one, is used as before (it follows the desktop's settings, and a proxy model
does not apply to it).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QDateTime,
    QIdentityProxyModel,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFileSystemModel,
    QTreeView,
    QWidget,
)

from kortty_rag.gui.i18n import translate
from kortty_rag.gui.shared_columns import SharedColumns

# the columns of QFileSystemModel
SIZE_COLUMN, TYPE_COLUMN, DATE_COLUMN = 1, 2, 3


class AppLocaleFiles(QIdentityProxyModel):
    """A file dialog's files with their size and date in the app's locale (see the module)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def data(
        self,
        index: QModelIndex | QPersistentModelIndex,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        files = self.sourceModel()
        column = index.column()
        if (
            role == Qt.ItemDataRole.DisplayRole
            and column in (SIZE_COLUMN, DATE_COLUMN)
            and isinstance(files, QFileSystemModel)
        ):
            info = files.fileInfo(self.mapToSource(index))
            locale = QLocale()
            if column == DATE_COLUMN:
                modified: QDateTime = info.lastModified()
                return locale.toString(modified, QLocale.FormatType.ShortFormat)
            return locale.formattedDataSize(info.size()) if info.isFile() else ""
        return super().data(index, role)


def file_dialog(
    parent: QWidget,
    title: str,
    mode: QFileDialog.FileMode,
    *,
    directory: str = "",
    filters: str = "",
    save_as: str = "",
) -> QFileDialog:
    """A file dialog set up as the choosers use it (not yet shown): ``save_as`` a suggested name
    to save under, else one to open; Qt's own dialog with :class:`AppLocaleFiles`."""
    dialog = QFileDialog(parent, title, directory, filters)
    dialog.setObjectName("fileDialog")
    dialog.setFileMode(mode)
    if mode is QFileDialog.FileMode.Directory:
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
    if save_as:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.selectFile(save_as)
    dialog.setProxyModel(AppLocaleFiles(dialog))
    details = dialog.findChild(QTreeView, "treeView")
    if details is not None:  # Qt's own dialog: the columns share its width, the name gives way
        header = details.header()
        # Qt keeps its dialog's header for every program that uses the dialog: it gets it back
        # as it was before it is saved
        kept = header.saveState()
        SharedColumns(details, grow=(0,))
        dialog.finished.connect(lambda _result: header.restoreState(kept))
    return dialog


def _chosen(dialog: QFileDialog) -> list[str]:
    """What the person chose in ``dialog`` (shown modally), nothing when they cancelled."""
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return []
        return list(dialog.selectedFiles())
    finally:
        dialog.deleteLater()


class PathChooser:
    """File and folder choosers; a test replaces these with fixed answers."""

    def files(self, parent: QWidget) -> list[str]:
        title = translate("PathChooser", "Add files")
        return _chosen(file_dialog(parent, title, QFileDialog.FileMode.ExistingFiles))

    def folder(self, parent: QWidget) -> str | None:
        return _one(_folder_dialog(parent, translate("PathChooser", "Add folder")))

    def new_location(self, parent: QWidget, old: str, *, folder: bool) -> str | None:
        """Where a source's folder (or file) is now."""
        title = translate("PathChooser", "New location of {path}").format(path=old)
        return _one(_folder_dialog(parent, title) if folder else _file_dialog(parent, title))

    def save_archive(self, parent: QWidget, suggested: str) -> str | None:
        """Where an exported store goes."""
        dialog = file_dialog(
            parent,
            translate("PathChooser", "Export store"),
            QFileDialog.FileMode.AnyFile,
            directory=str(Path(suggested).parent) if Path(suggested).is_absolute() else "",
            filters=_archives(),
            save_as=suggested,
        )
        return _one(dialog)

    def archive(self, parent: QWidget) -> str | None:
        """An exported store to import."""
        filters = _archives() + ";;" + translate("PathChooser", "All files (*)")
        return _one(_file_dialog(parent, translate("PathChooser", "Import store"), filters))

    def kortty_folder(self, parent: QWidget) -> str | None:
        """korTTY's data folder (the one holding rag/stores.json), ~/.kortty by default."""
        title = translate("PathChooser", "korTTY's data folder")
        return _one(_folder_dialog(parent, title, directory=str(Path.home() / ".kortty")))

    def gguf(self, parent: QWidget) -> str | None:
        filters = translate("PathChooser", "GGUF models (*.gguf)")
        return _one(_file_dialog(parent, translate("PathChooser", "Import GGUF file"), filters))


def _folder_dialog(parent: QWidget, title: str, *, directory: str = "") -> QFileDialog:
    return file_dialog(parent, title, QFileDialog.FileMode.Directory, directory=directory)


def _file_dialog(parent: QWidget, title: str, filters: str = "") -> QFileDialog:
    """A dialog that opens one existing file."""
    return file_dialog(parent, title, QFileDialog.FileMode.ExistingFile, filters=filters)


def _one(dialog: QFileDialog) -> str | None:
    """The one file or folder the person chose in ``dialog``, None when they cancelled."""
    names = _chosen(dialog)
    return names[0] if names else None


def _archives() -> str:
    """The file dialogs' filter of exported stores."""
    return translate("PathChooser", "kortty-rag archives (*.tar)")

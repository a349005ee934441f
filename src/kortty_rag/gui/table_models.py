"""Table models: the source table (docs/DESIGN.md §5 columns) and the review table (path, format, size, status,
reason, extracted text). Both are read-only views over frozen core dataclasses; sorting goes through a proxy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from kortty_rag.models import Source, SourceStatus
from kortty_rag.sources.review import ReviewRow
from kortty_rag.sources.scan import human_size

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex
#: (header, display text, sort key)
Column = tuple[str, Callable[[Any], str], Callable[[Any], Any]]


class RowsModel(QAbstractTableModel, Generic[T]):
    columns: Sequence[Column] = ()

    def __init__(self, rows: Sequence[T] = ()) -> None:
        super().__init__()
        self._rows = list(rows)

    def set_rows(self, rows: Sequence[T]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row(self, index: int) -> T:
        return self._rows[index]

    @property
    def rows(self) -> list[T]:
        return list(self._rows)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section][0]
        return None

    def data(self, index: Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        item = self._rows[index.row()]
        _, text, key = self.columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return text(item)
        if role == Qt.ItemDataRole.UserRole:
            return key(item)
        return self.extra(item, index.column(), role)

    def extra(self, item: T, column: int, role: int) -> Any:
        return None


def local_time(iso: str | None) -> str:
    """An ISO timestamp (UTC) as local "YYYY-MM-DD HH:MM"; "never" when missing."""
    if not iso:
        return "never"
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _status(source: Source) -> str:
    text = source.status.value
    if not source.enabled:
        text += " (disabled)"
    if source.limited_watching:
        text += " — limited watching"
    if source.status_reason and source.status in (SourceStatus.MISSING, SourceStatus.ERROR):
        text += f": {source.status_reason}"
    return text


class SourceTableModel(RowsModel[Source]):
    columns = (
        ("Path", lambda s: s.path, lambda s: s.path.lower()),
        ("Type", lambda s: s.kind.value, lambda s: s.kind.value),
        ("Sync", lambda s: s.sync_mode.value, lambda s: s.sync_mode.value),
        ("Status", _status, _status),
        (
            "Files/Chunks",
            lambda s: f"{s.counts.files} / {s.counts.chunks}",
            lambda s: s.counts.files,
        ),
        ("Issues", lambda s: str(s.counts.issues), lambda s: s.counts.issues),
        (
            "Last successful index",
            lambda s: s.last_indexed_at or "never",
            lambda s: s.last_indexed_at or "",
        ),
    )

    def extra(self, item: Source, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and item.status in (
            SourceStatus.MISSING,
            SourceStatus.ERROR,
        ):
            from PySide6.QtGui import QColor

            return QColor("#b3261e")
        return None


class ReviewTableModel(RowsModel[ReviewRow]):
    columns = (
        ("Path", lambda r: r.path, lambda r: r.path.lower()),
        ("Format", lambda r: r.format or "—", lambda r: r.format),
        ("Size", lambda r: human_size(r.size) if r.size else "—", lambda r: r.size),
        ("Status", lambda r: r.status.value, lambda r: r.status.value),
        ("Reason", lambda r: r.shown_reason, lambda r: r.reason),
        ("Text", lambda r: r.text_size or "—", lambda r: r.characters),
    )

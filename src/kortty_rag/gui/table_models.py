"""Table models: the source table (docs/DESIGN.md §5 columns) and the review table (path, format, size, status,
reason, extracted text). Both are read-only views over frozen core dataclasses; sorting goes through a proxy."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from kortty_rag.gui.hints import gui_hint
from kortty_rag.models import Source, SourceStatus
from kortty_rag.sources.review import ReviewRow
from kortty_rag.sources.scan import human_size

if TYPE_CHECKING:
    from kortty_rag.app.workspace import PreparedReview

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex
#: (header, display text, sort key)
Column = tuple[str, Callable[[Any], str], Callable[[Any], Any]]
#: tooltips that say more than the cell (a full path, a full date), by column; else the cell text
Tooltips = dict[int, Callable[[Any], str]]


class RowsModel(QAbstractTableModel, Generic[T]):
    columns: Sequence[Column] = ()
    tooltips: Tooltips = {}  # noqa: RUF012 (class constants)

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
        if role == Qt.ItemDataRole.DisplayRole:
            return text(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tooltips.get(index.column())
            return tip(item) if tip is not None else text(item)
        if role == Qt.ItemDataRole.UserRole:
            return key(item)
        return self.extra(item, index.column(), role)

    def extra(self, item: T, column: int, role: int) -> Any:
        return None


def readable_time(iso: str | None, now: datetime | None = None) -> str:
    """A stored (UTC, ISO) timestamp in local time as people say it: "today 07:02", "yesterday
    18:30", "3 Nov 09:15" this year, "2025-11-03" before; "never" when missing."""
    if not iso:
        return "never"
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    today = (now or datetime.now().astimezone()).date()
    if when.date() == today:
        return f"today {when:%H:%M}"
    if when.date() == today - timedelta(days=1):
        return f"yesterday {when:%H:%M}"
    if when.year == today.year:
        return f"{when.day} {when:%b %H:%M}"
    return f"{when:%Y-%m-%d}"


def full_time(iso: str | None) -> str:
    """The whole local date and time, with its offset from UTC (a tooltip)."""
    if not iso:
        return "Not indexed yet"
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    return f"{when:%A, %d %B %Y, %H:%M:%S} (UTC{when:%z})"


def _status(source: Source) -> str:
    text = source.status.value
    if not source.enabled:
        text += " (disabled)"
    if source.limited_watching:
        text += " — limited watching"
    if source.status_reason and source.status in (SourceStatus.MISSING, SourceStatus.ERROR):
        text += f": {gui_hint(source.status_reason)}"
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
        ("Skipped", lambda s: str(s.counts.skipped), lambda s: s.counts.skipped),
        ("Issues", lambda s: str(s.counts.issues), lambda s: s.counts.issues),
        (
            "Last index",
            lambda s: readable_time(s.last_indexed_at),
            lambda s: s.last_indexed_at or "",
        ),
    )
    #: the count columns that open the source's last scan report
    SKIPPED, ISSUES = 5, 6
    #: the columns a narrow table hides (the path's tooltip names both)
    TYPE, SYNC = 1, 2
    tooltips = {  # noqa: RUF012
        0: lambda s: f"{s.path}\n{s.kind.value} source, syncs {s.sync_mode.value}",
        3: _status,
        5: lambda s: (
            f"{s.counts.skipped} files left out by a rule (hidden, ignored, unsupported, "
            "empty, too large) — double-click for the list"
        ),
        6: lambda s: (
            f"{s.counts.issues} files that could not be read or extracted — "
            "double-click for the list"
        ),
        7: lambda s: full_time(s.last_indexed_at),
    }

    def extra(self, item: Source, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and item.status in (
            SourceStatus.MISSING,
            SourceStatus.ERROR,
        ):
            from PySide6.QtGui import QColor

            return QColor("#b3261e")
        return None


@dataclass(frozen=True)
class RemovedRow:
    """A document of the index that a refresh no longer finds: its chunks go (shown in the review
    beside the files, which the core lists separately)."""

    path: str
    rel_path: str
    status: str = "remove"
    format: str = ""
    size: int | None = None
    shown_reason: str = "deleted since the last index: its chunks are removed"
    reason: str = "removed"
    text_size: str = ""
    characters: int = 0


#: review rows by what happens to them: what changes comes first, then what is skipped, then the rest
RANK = {"index": 0, "remove": 0, "issue": 1, "skipped": 2, "unchanged": 3}


def _status_of(row: ReviewRow | RemovedRow) -> str:
    """ "issue" for a file that could not be read; "skipped" only for a rule's choice."""
    if isinstance(row, RemovedRow):
        return row.status
    return "issue" if row.problem else row.status.value


def changes(row: ReviewRow | RemovedRow) -> bool:
    """Whether indexing this review changes the row's document (new, changed or removed)."""
    return RANK.get(_status_of(row), 3) == 0


def review_rows(review: PreparedReview) -> list[ReviewRow | RemovedRow]:
    """The review's files, plus a row for each document it removes."""
    rows: list[ReviewRow | RemovedRow] = list(review.rows)
    for source_review in review.report.sources:
        root = source_review.source.path
        for rel in source_review.removed:
            rows.append(RemovedRow(os.path.join(root, rel), rel))
    return rows


class ReviewTableModel(RowsModel[ReviewRow | RemovedRow]):
    columns = (
        ("Path", lambda r: r.rel_path or r.path, lambda r: r.path.lower()),
        ("Format", lambda r: r.format or "—", lambda r: r.format),
        (
            "Size",
            lambda r: "—" if r.size is None or r.format == "folder" else human_size(r.size),
            lambda r: r.size or 0,
        ),
        (
            "Status",
            _status_of,
            # one string: Qt's sort compares it, not a Python tuple
            lambda r: f"{RANK.get(_status_of(r), 3)}:{r.rel_path.lower()}",
        ),
        ("Reason", lambda r: r.shown_reason, lambda r: r.reason),
        ("Text", lambda r: r.text_size or "—", lambda r: r.characters),
    )
    tooltips = {0: lambda r: r.path}  # noqa: RUF012
    #: the column whose order puts what changes first
    CHANGES_FIRST = 3

    def extra(self, item: ReviewRow | RemovedRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.FontRole and changes(item):
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)  # and the status says it in words: not by looks alone
            return font
        return None

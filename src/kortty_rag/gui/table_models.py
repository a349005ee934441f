"""Table models: the source table (docs/DESIGN.md §5 columns) and the review table (path, format, size, status,
reason, extracted text). Both are read-only views over frozen core dataclasses; sorting goes through a proxy."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QDate,
    QDateTime,
    QLocale,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTime,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from kortty_rag.app.workspace import ReviewRow
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.shared_columns import SharedColumns
from kortty_rag.messages import human_size
from kortty_rag.models import Source, SourceKind, SourceStatus, SyncMode

if TYPE_CHECKING:
    from kortty_rag.app.workspace import PreparedReview

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex
#: (header, display text, sort key); the header is a function that says it in the app's language
#: when the table shows it (or a fixed text)
Column = tuple[str | Callable[[], str], Callable[[Any], str], Callable[[Any], Any]]
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
            header = self.columns[section][0]
            return header() if callable(header) else header
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


def natural_key(text: str) -> str:
    """A sort key that puts doc2 before doc10 (digit runs padded) and ignores case; one string,
    which Qt's sort compares."""
    return re.sub(r"\d+", lambda digits: digits.group().zfill(20), text.casefold())


def readable_time(iso: str | None, now: datetime | None = None) -> str:
    """A stored (UTC, ISO) timestamp in local time as people say it: "today 07:02", "yesterday
    18:30", "3 Nov 09:15" this year, "2025-11-03" before; "never" when missing (in German "heute
    07:02", "gestern 18:30", "3. Nov. 09:15", "03.11.2025", the month named by the locale)."""
    if not iso:
        return translate("TableModels", "never")
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    today = (now or datetime.now().astimezone()).date()
    clock = f"{when:%H:%M}"
    if when.date() == today:
        return translate("TableModels", "today {time}").format(time=clock)
    if when.date() == today - timedelta(days=1):
        return translate("TableModels", "yesterday {time}").format(time=clock)
    if when.year == today.year:
        month = QLocale().monthName(when.month, QLocale.FormatType.ShortFormat)
        return translate("TableModels", "{day} {month} {time}").format(
            day=when.day, month=month, time=clock
        )
    return translate("TableModels", "{year}-{month}-{day}").format(
        year=f"{when.year:04d}", month=f"{when.month:02d}", day=f"{when.day:02d}"
    )


def full_time(iso: str | None) -> str:
    """The whole local date and time, with its offset from UTC (a tooltip)."""
    if not iso:
        return translate("TableModels", "Not indexed yet")
    try:
        when = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    moment = QDateTime(
        QDate(when.year, when.month, when.day), QTime(when.hour, when.minute, when.second)
    )
    pattern = translate("TableModels", "dddd, dd MMMM yyyy, HH:mm:ss", "Qt date and time format")
    return f"{QLocale().toString(moment, pattern)} (UTC{when:%z})"


def count_words(count: int) -> str:
    """A count as the locale writes it (``1,234`` in English, ``1.234`` in German)."""
    return QLocale().toString(count)


def source_status_words(status: SourceStatus) -> str:
    """A source's status as the table shows it (READY, MISSING …, in capitals)."""
    words = {
        SourceStatus.PENDING: translate("SourceTableModel", "PENDING"),
        SourceStatus.READY: translate("SourceTableModel", "READY"),
        SourceStatus.MISSING: translate("SourceTableModel", "MISSING"),
        SourceStatus.ERROR: translate("SourceTableModel", "ERROR"),
    }
    return words.get(status, str(status))


def kind_words(kind: SourceKind) -> str:
    """What a source is: a file or a folder."""
    if kind is SourceKind.FOLDER:
        return translate("SourceTableModel", "folder")
    return translate("SourceTableModel", "file")


def sync_words(mode: SyncMode) -> str:
    """How a source is kept current: automatically (watched) or manually."""
    if mode is SyncMode.AUTO:
        return translate("SourceTableModel", "auto")
    return translate("SourceTableModel", "manual")


def status_text(source: Source) -> str:
    """The source table's status: whether it waits for its first review here, the status, whether
    it is disabled or watched in a limited way, and the reason of a missing or failed source."""
    text = source_status_words(source.status)
    if source.needs_review:  # said first: it is why nothing is read from it
        if source.status in (SourceStatus.READY, SourceStatus.PENDING):
            # not read here yet: READY (and the last index) came with the import
            text = translate("SourceTableModel", "NEEDS REVIEW")
        else:  # its review found the root missing or refused
            text = translate("SourceTableModel", "NEEDS REVIEW ({status})").format(status=text)
    if not source.enabled:
        text = translate("SourceTableModel", "{status} (disabled)").format(status=text)
    if source.limited_watching:
        text = translate("SourceTableModel", "{status} — limited watching").format(status=text)
    if source.status_reason and source.status in (SourceStatus.MISSING, SourceStatus.ERROR):
        text = translate("SourceTableModel", "{status}: {reason}").format(
            status=text, reason=core_words(source.status_reason)
        )
    return text


class ElideRightDelegate(QStyledItemDelegate):
    """Cells cut at the right (the start of a status, its word, stays) in a view that cuts its
    other cells in the middle (paths)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class SourceTableModel(RowsModel[Source]):
    columns = (
        (lambda: translate("SourceTableModel", "Path"), lambda s: s.path, lambda s: s.path.lower()),
        (
            lambda: translate("SourceTableModel", "Type"),
            lambda s: kind_words(s.kind),
            lambda s: s.kind.value,
        ),
        (
            lambda: translate("SourceTableModel", "Sync"),
            lambda s: sync_words(s.sync_mode),
            lambda s: s.sync_mode.value,
        ),
        (lambda: translate("SourceTableModel", "Status"), status_text, status_text),
        (
            lambda: translate("SourceTableModel", "Files/Chunks"),
            lambda s: f"{count_words(s.counts.files)} / {count_words(s.counts.chunks)}",
            lambda s: s.counts.files,
        ),
        (
            lambda: translate("SourceTableModel", "Skipped"),
            lambda s: count_words(s.counts.skipped),
            lambda s: s.counts.skipped,
        ),
        (
            lambda: translate("SourceTableModel", "Issues"),
            lambda s: count_words(s.counts.issues),
            lambda s: s.counts.issues,
        ),
        (
            lambda: translate("SourceTableModel", "Last index"),
            lambda s: readable_time(s.last_indexed_at),
            lambda s: s.last_indexed_at or "",
        ),
    )
    #: the count columns that open the source's last scan report
    SKIPPED, ISSUES = 5, 6
    #: the columns a narrow table hides (the path's tooltip names both)
    TYPE, SYNC = 1, 2
    tooltips = {  # noqa: RUF012
        0: lambda s: translate("SourceTableModel", "{path}\n{kind} source, syncs {mode}").format(
            path=s.path, kind=kind_words(s.kind), mode=sync_words(s.sync_mode)
        ),
        3: status_text,
        4: lambda s: translate(
            "SourceTableModel",
            "Files indexed: {files}. Chunks: {chunks} — the pieces of text the files were cut into; "
            "a search finds chunks and gives the best of them to an AI profile.",
        ).format(files=count_words(s.counts.files), chunks=count_words(s.counts.chunks)),
        5: lambda s: translate(
            "SourceTableModel",
            "%n file(s) left out by a rule (hidden, ignored, unsupported, empty, too large) — "
            "double-click for the list",
            None,
            s.counts.skipped,
        ),
        6: lambda s: translate(
            "SourceTableModel",
            "%n file(s) that could not be read or extracted — double-click for the list",
            None,
            s.counts.issues,
        ),
        7: lambda s: full_time(s.last_indexed_at),
    }

    def extra(self, item: Source, column: int, role: int) -> Any:
        # red, and the status says it in words too (MISSING, ERROR): not by colour alone
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
    reason: str = "removed"
    text_size: str = ""
    characters: int = 0

    @property
    def shown_reason(self) -> str:
        """The reason column, in the app's language."""
        return translate("ReviewTableModel", "deleted since the last index: its chunks are removed")


#: review rows by what happens to them: what changes comes first, then what is skipped, then the rest
RANK = {"index": 0, "remove": 0, "issue": 1, "skipped": 2, "unchanged": 3}


def review_status_words(status: str) -> str:
    """What happens to a review row (one of :data:`RANK`'s keys), in words."""
    words = {
        "index": translate("ReviewTableModel", "index"),
        "remove": translate("ReviewTableModel", "remove"),
        "issue": translate("ReviewTableModel", "issue"),
        "skipped": translate("ReviewTableModel", "skipped"),
        "unchanged": translate("ReviewTableModel", "unchanged"),
    }
    return words.get(status, status)


def format_words(fmt: str) -> str:
    """A review row's format: the name of a file format (a proper name), or "folder"."""
    if fmt == "folder":
        return translate("ReviewTableModel", "folder")
    return fmt


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


def _reason(row: ReviewRow | RemovedRow) -> str:
    if isinstance(row, RemovedRow):
        return row.shown_reason
    return core_words(row.shown_reason)


class ReviewTableModel(RowsModel[ReviewRow | RemovedRow]):
    columns = (
        (
            lambda: translate("ReviewTableModel", "Path"),
            lambda r: r.rel_path or r.path,
            lambda r: natural_key(r.path),
        ),
        (
            lambda: translate("ReviewTableModel", "Format"),
            lambda r: format_words(r.format) or "—",
            lambda r: r.format,
        ),
        (
            lambda: translate("ReviewTableModel", "Size"),
            lambda r: (
                "—" if r.size is None or r.format == "folder" else core_words(human_size(r.size))
            ),
            lambda r: r.size or 0,
        ),
        (
            lambda: translate("ReviewTableModel", "Status"),
            lambda r: review_status_words(_status_of(r)),
            # one string: Qt's sort compares it, not a Python tuple
            lambda r: f"{RANK.get(_status_of(r), 3)}:{natural_key(r.rel_path)}",
        ),
        (lambda: translate("ReviewTableModel", "Reason"), _reason, lambda r: r.reason),
        (
            lambda: translate("ReviewTableModel", "Text"),
            lambda r: core_words(r.text_size) or "—",
            lambda r: r.characters,
        ),
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


def review_table(
    parent: QWidget, model: ReviewTableModel, name: str
) -> tuple[QSortFilterProxyModel, QTableView]:
    """The table a review or a scan report shows ``model`` in: sortable, what changes first, the
    path and the reason taking the spare width, format, size and status as wide as their words
    (German ones are longer). ``name`` is its object name."""
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(Qt.ItemDataRole.UserRole)
    table = QTableView(parent)
    table.setObjectName(name)
    table.setModel(proxy)
    table.setSortingEnabled(True)
    # what changes (new, changed, removed) first, in bold; then skipped, then unchanged
    table.sortByColumn(ReviewTableModel.CHANGES_FIRST, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    SharedColumns(table, grow=(0, 4))  # the path and the reason share what the rest leave
    return proxy, table

"""The last scan report of each source: which files its last indexing skipped or could not read,
and why (docs/DESIGN.md §5), so a person can open a source's Skipped and Issues counts later — after
the review is closed, and after a restart.

Reports live beside the stores, not in them (``$KORTTY_HOME/rag/reports/<store-id>/<source-id>.json``):
they are a convenience, not part of an index, and a store folder holds only what its activation
protocol knows. A report is written atomically after each successful indexing of its source, holds
at most :data:`MAX_ROWS` rows, and a missing or unreadable one is simply no report.
"""

from __future__ import annotations

import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.config import atomic
from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.paths import rag_dir
from kortty_rag.models import FileStatus
from kortty_rag.sources.review import ReviewRow

_log = logging.getLogger(__name__)

#: rows kept per source (the skipped ones; problems first)
MAX_ROWS = 5_000
SCHEMA = 1


@dataclass(frozen=True)
class ScanReport:
    source_id: str
    scanned_at: str
    rows: tuple[ReviewRow, ...]
    #: skipped rows left out beyond :data:`MAX_ROWS`
    left_out: int = 0

    @property
    def problems(self) -> tuple[ReviewRow, ...]:
        return tuple(row for row in self.rows if row.problem)

    @property
    def skipped(self) -> tuple[ReviewRow, ...]:
        return tuple(row for row in self.rows if not row.problem)


def report_path(store_id: str, source_id: str) -> Path:
    return rag_dir() / "reports" / store_id / f"{source_id}.json"


def save_report(store_id: str, source_id: str, rows: list[ReviewRow], scanned_at: str) -> None:
    """Keep the skipped rows of a source's last scan (problems first); a failure to write is logged,
    never raised: the indexing it follows has already succeeded."""
    skipped = sorted(
        (row for row in rows if row.status is FileStatus.SKIPPED),
        key=lambda row: (not row.problem, row.rel_path),
    )
    data = {
        "product": "kortty-rag",
        "schema": SCHEMA,
        "source_id": source_id,
        "scanned_at": scanned_at,
        "left_out": max(0, len(skipped) - MAX_ROWS),
        "rows": [
            {
                "path": row.path,
                "rel_path": row.rel_path,
                "format": row.format,
                "size": row.size,
                "reason": row.reason,
                "problem": row.problem,
            }
            for row in skipped[:MAX_ROWS]
        ],
    }
    try:
        write_json_atomic(report_path(store_id, source_id), data)
    except OSError as exc:
        _log.warning("the scan report of source %s was not kept: %s", source_id, exc)


def load_report(store_id: str, source_id: str) -> ScanReport | None:
    """The source's last report; ``None`` when there is none or it cannot be read as one."""
    path = report_path(store_id, source_id)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("product") != "kortty-rag" or data.get("schema") != SCHEMA:
            return None
        rows = tuple(
            ReviewRow(
                source_id,
                str(row["path"]),
                str(row["rel_path"]),
                str(row["format"]),
                int(row["size"]),
                FileStatus.SKIPPED,
                str(row["reason"]),
                problem=bool(row["problem"]),
            )
            for row in data["rows"][:MAX_ROWS]
        )
        return ScanReport(source_id, str(data["scanned_at"]), rows, int(data.get("left_out", 0)))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        _log.warning("the scan report %s cannot be read: %s", path, exc)
        return None


def delete_reports(store_id: str, source_id: str | None = None) -> None:
    """Forget the reports of a deleted store, or of one removed source."""
    folder = rag_dir() / "reports" / store_id
    try:
        if source_id is not None:
            report_path(store_id, source_id).unlink(missing_ok=True)
            atomic.checkpoint(f"report {source_id}: removed")  # the crash tests' seam
        elif folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
            atomic.checkpoint(f"reports of {store_id}: removed")
    except OSError as exc:  # a report left behind is harmless: the next indexing replaces it
        _log.warning("the scan report(s) of %s were not removed: %s", store_id, exc)

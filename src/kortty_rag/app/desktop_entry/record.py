"""The record of what an install wrote (``desktop-entry.json``) and what install and uninstall
report (:mod:`kortty_rag.app.desktop_entry`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kortty_rag.app.desktop_entry.contents import relative_files, relative_folders
from kortty_rag.app.desktop_entry.where import DataHome
from kortty_rag.app_id import APP_ID
from kortty_rag.config.definitions import damaged, read_definition
from kortty_rag.config.paths import rag_dir
from kortty_rag.decoding import FieldError, decode
from kortty_rag.messages import msg

#: the record of what ``desktop install`` wrote, in ``$KORTTY_HOME/rag/``
RECORD_NAME = "desktop-entry.json"
PRODUCT = "kortty-rag"
SCHEMA = 1


# -- the record ---------------------------------------------------------------------------------


def _absolute(value: str) -> str | None:
    return None if os.path.isabs(value) else msg("must be an absolute path")


def _sha256(value: str) -> str | None:
    return None if re.fullmatch(r"[0-9a-f]{64}", value) else msg("must be 64 hex digits")


@dataclass(frozen=True)
class InstalledFile:
    path: str = field(metadata={"check": _absolute})
    sha256: str = field(metadata={"check": _sha256})


@dataclass(frozen=True)
class DesktopRecord:
    """``desktop-entry.json``: what an install wrote into ``data_home``."""

    product: str
    data_home: str = field(metadata={"check": _absolute})
    files: tuple[InstalledFile, ...]
    created_folders: tuple[str, ...]
    app_id: str = APP_ID
    schema: int = field(default=SCHEMA, metadata={"min": 1, "max": SCHEMA})

    def to_json(self) -> dict[str, Any]:
        return {
            "product": self.product,
            "schema": self.schema,
            "app_id": self.app_id,
            "data_home": self.data_home,
            "files": [{"path": f.path, "sha256": f.sha256} for f in self.files],
            "created_folders": list(self.created_folders),
        }


def record_file() -> Path:
    return rag_dir() / RECORD_NAME


_RECORD_HINT = msg(
    "Move the file away and remove the desktop entry and icons it names by hand (the files "
    "called io.github.korttyrag.KorttyRag.* in your data folder); `kortty-rag desktop install` "
    "then writes a new record."
)


def read_record() -> DesktopRecord | None:
    """The record of the last install, or ``None``; :class:`DamagedFileError` when it cannot be
    used, including when it names a path that an install never writes."""
    path = record_file()
    label = msg("The desktop install record")
    data = read_definition(path, label, _RECORD_HINT)
    if data is None:
        return None
    try:
        record = decode(DesktopRecord, data)
        _check_record(record)
    except FieldError as exc:
        raise damaged(label, path, exc, _RECORD_HINT) from None
    return record


def _check_record(record: DesktopRecord) -> None:
    if record.product != PRODUCT:
        raise FieldError("product", msg("is not kortty-rag's"))
    if record.app_id != APP_ID:
        raise FieldError("app_id", msg("is not {app_id}", app_id=APP_ID))
    home = Path(record.data_home)
    allowed = set(relative_files())
    for index, entry in enumerate(record.files):
        relative = relative_to_home(Path(entry.path), home)
        if relative not in allowed:
            raise FieldError(f"files[{index}].path", msg("is not a file kortty-rag installs"))
    folders = relative_folders()
    ancestors = {home, *home.parents}
    for index, folder in enumerate(record.created_folders):
        path = Path(folder)
        if not path.is_absolute() or (
            path not in ancestors and relative_to_home(path, home) not in folders
        ):
            raise FieldError(
                f"created_folders[{index}]", msg("is not a folder kortty-rag installs")
            )


def relative_to_home(path: Path, home: Path) -> str | None:
    """``path`` relative to the data folder ``home``, or ``None`` when it is not inside it."""
    if ".." in path.parts or not path.is_relative_to(home):
        return None
    return path.relative_to(home).as_posix()


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WrittenFile:
    path: Path
    sha256: str
    replaced: bool  # a file of that name was there before (an earlier install)


@dataclass(frozen=True)
class InstallResult:
    data_home: DataHome
    exec_line: str
    written: tuple[WrittenFile, ...]
    created_folders: tuple[Path, ...]
    record: Path

    def to_json(self) -> dict[str, Any]:
        return {
            "data_home": str(self.data_home.path),
            "xdg_data_home": self.data_home.explicit,
            "ignored_xdg_data_home": self.data_home.ignored or None,
            "exec": self.exec_line,
            "written": [
                {"path": str(f.path), "sha256": f.sha256, "replaced": f.replaced}
                for f in self.written
            ],
            "created_folders": [str(p) for p in self.created_folders],
            "record": str(self.record),
        }


@dataclass(frozen=True)
class KeptFile:
    path: Path
    reason: str


@dataclass(frozen=True)
class UninstallResult:
    installed: bool  # False: there was no record, nothing was touched
    data_home: Path | None = None
    removed: tuple[Path, ...] = ()
    kept: tuple[KeptFile, ...] = ()
    missing: tuple[Path, ...] = ()
    removed_folders: tuple[Path, ...] = ()
    kept_folders: tuple[Path, ...] = ()
    record: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "installed": self.installed,
            "data_home": str(self.data_home) if self.data_home else None,
            "removed": [str(p) for p in self.removed],
            "kept": [{"path": str(k.path), "reason": k.reason} for k in self.kept],
            "missing": [str(p) for p in self.missing],
            "removed_folders": [str(p) for p in self.removed_folders],
            "kept_folders": [str(p) for p in self.kept_folders],
            "record": str(self.record) if self.record else None,
        }

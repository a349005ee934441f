"""Turning "Add files" / "Add folder" selections into new sources (docs/DESIGN.md §5, §7).

Rules: a root must exist and no component of its path may be a symbolic link (its resolved path is
recorded in the source, and a refresh refuses the root once it resolves elsewhere); folders become recursive folder sources and
regular files single-file sources. A folder that is, contains or lies inside an existing folder source
is refused naming that source. A file already covered by a folder source (or already a source) is not
added twice: it is reported as a skipped row instead.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.errors import NothingToAddError, SourceError, SourceOverlapError
from kortty_rag.extract.formats import detect_format
from kortty_rag.extract.safe_open import kind_of
from kortty_rag.messages import msg
from kortty_rag.models import (
    MAX_MAX_FILE_SIZE,
    MIN_MAX_FILE_SIZE,
    FileStatus,
    Source,
    SourceKind,
    SourceOptions,
    SyncMode,
)
from kortty_rag.sources.review import ReviewRow
from kortty_rag.sources.rootpath import link_target, symlink_on_path


@dataclass(frozen=True)
class Selection:
    """New sources to scan, plus rows for selected paths that are not added (and why)."""

    sources: tuple[Source, ...]
    rejected: tuple[ReviewRow, ...]


def new_source_id() -> str:
    return f"src-{secrets.token_hex(6)}"


def absolute(path: Path | str) -> Path:
    """Absolute and normalised, without resolving the last component (a symlinked root stays visible)."""
    return Path(os.path.abspath(os.path.expanduser(os.fspath(path))))


def real(path: Path | str) -> str:
    return os.path.realpath(path)


def _inside(child: str, parent: str) -> bool:
    return child == parent or child.startswith(parent.rstrip(os.sep) + os.sep)


def check_options(options: SourceOptions) -> SourceOptions:
    if not MIN_MAX_FILE_SIZE <= options.max_file_size <= MAX_MAX_FILE_SIZE:
        raise SourceError(
            msg(
                "Maximum file size must be between 1 MiB and 1 GiB (got {size} bytes)",
                size=options.max_file_size,
            )
        )
    return options


def select_sources(
    existing: Sequence[Source],
    paths: Sequence[Path | str],
    *,
    options: SourceOptions | None = None,
    sync_mode: SyncMode = SyncMode.MANUAL,
) -> Selection:
    """Validate ``paths`` against the store's ``existing`` sources; raise :class:`SourceError` for a
    root that cannot be a source at all."""
    options = check_options(options or SourceOptions())
    folders = [(real(s.path), s) for s in existing if s.kind is SourceKind.FOLDER]
    files = {real(s.path): s for s in existing if s.kind is SourceKind.FILE}
    chosen: list[Source] = []
    chosen_folders: list[tuple[str, Source]] = []
    chosen_files: dict[str, Source] = {}
    rejected: list[ReviewRow] = []

    for raw in paths:
        path = absolute(raw)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            raise SourceError(msg("{path} does not exist", path=path), path=path) from None
        except OSError as exc:
            raise SourceError(
                msg("Cannot access {path} ({error})", path=path, error=exc.strerror), path=path
            ) from None
        if stat.S_ISLNK(info.st_mode):
            raise SourceError(
                msg("{path} is a symbolic link; links are never followed", path=path),
                path=path,
                hint=msg("Add the link's target instead: {target}", target=real(path)),
            )
        link = symlink_on_path(path)
        if link is not None:
            raise SourceError(
                msg(
                    "{path} lies under the symbolic link {link} (pointing to {target}); links are "
                    "never followed, and whoever can re-point it could make a later refresh index "
                    "another folder",
                    path=path,
                    link=link,
                    target=link_target(link),
                ),
                path=path,
                hint=msg("Add the real path instead: {path}", path=real(path)),
            )
        resolved = real(path)
        if stat.S_ISDIR(info.st_mode):
            for other, source in folders + chosen_folders:
                if _inside(resolved, other) or _inside(other, resolved):
                    covered = _inside(resolved, other)
                    raise SourceOverlapError(path, Path(source.path), covered=covered)
            source = Source(
                id=new_source_id(),
                path=str(path),
                kind=SourceKind.FOLDER,
                sync_mode=sync_mode,
                options=options,
                real_path=resolved,
            )
            chosen_folders.append((resolved, source))
            chosen.append(source)
        elif stat.S_ISREG(info.st_mode):

            def reject(reason: str, path: Path = path, size: int = info.st_size) -> None:
                rejected.append(
                    ReviewRow(
                        "",
                        str(path),
                        path.name,
                        detect_format(path.name) or "",
                        size,
                        FileStatus.SKIPPED,
                        reason,
                    )
                )

            if resolved in files or resolved in chosen_files:
                reject(msg("already a source of this store"))
                continue
            owner = next(
                (s for other, s in folders + chosen_folders if _inside(resolved, other)), None
            )
            if owner is not None:
                reject(msg("already covered by the folder source {path}", path=owner.path))
                continue
            source = Source(
                id=new_source_id(),
                path=str(path),
                kind=SourceKind.FILE,
                sync_mode=sync_mode,
                options=options,
                real_path=resolved,
            )
            chosen_files[resolved] = source
            chosen.append(source)
        else:
            raise SourceError(
                msg(
                    "{path} is a {kind}; only regular files and folders can be sources",
                    path=path,
                    kind=kind_of(info.st_mode),
                ),
                path=path,
            )
    # a file chosen together with a folder that contains it
    kept: list[Source] = []
    for source in chosen:
        if source.kind is SourceKind.FILE:
            owner = next(
                (s for other, s in chosen_folders if _inside(real(source.path), other)), None
            )
            if owner is not None:
                rejected.append(
                    ReviewRow(
                        "",
                        source.path,
                        Path(source.path).name,
                        detect_format(source.path) or "",
                        0,
                        FileStatus.SKIPPED,
                        msg("already covered by the selected folder {path}", path=owner.path),
                    )
                )
                continue
        kept.append(source)
    if not kept and rejected:
        raise NothingToAddError(Path(rejected[0].path), rejected[0].reason)
    return Selection(tuple(kept), tuple(rejected))


def file_source_index(sources: Sequence[Source]) -> dict[str, str]:
    """Real paths of single-file sources → configured path (a folder scan skips these files)."""
    return {real(s.path): s.path for s in sources if s.kind is SourceKind.FILE}

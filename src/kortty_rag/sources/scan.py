"""The safe scan (docs/DESIGN.md §6, §7): walk sources without following links or opening special files, check every
candidate's content, and produce the review report.

The walk is iterative (an explicit stack), so a 1,100-level-deep tree cannot exhaust Python's recursion
limit; entries are visited in sorted order, so two scans of the same tree give the same report.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kortty_rag.errors import ExtractionError
from kortty_rag.extract.document import ExtractionCache
from kortty_rag.extract.formats import (
    READ_AGAIN,
    detect_format,
    is_compressed,
    is_extracted,
    is_paged,
)
from kortty_rag.extract.limits import max_characters, too_much_text
from kortty_rag.extract.pdf import PdfExtractor
from kortty_rag.extract.safe_open import NotRegularFile, kind_of, read_regular_file
from kortty_rag.extract.text import TextInspector, TextRejected
from kortty_rag.messages import human_size, msg
from kortty_rag.models import FileStatus, MiB, Source, SourceKind
from kortty_rag.progress import CancelToken, NullProgress, Progress
from kortty_rag.sources.review import (
    READ_AGAIN_REASON,
    ReviewReport,
    ReviewRow,
    RootState,
    SourceReview,
)
from kortty_rag.sources.rootpath import root_moved
from kortty_rag.sources.rules import GITIGNORE, GitignoreRules, PathRules

SCAN_MESSAGE = msg("Checking selected files and folders…")
_BLOCK = 1 << 20


def changed_reason(known_hash: str | None) -> str:
    """Why a file is indexed: new, changed, or read again (``extract.formats.READ_AGAIN``)."""
    if known_hash is None:
        return msg("new")
    return READ_AGAIN_REASON if known_hash == READ_AGAIN else msg("changed")


@dataclass(frozen=True)
class ScanLimits:
    """The caps of one preview (docs/DESIGN.md §6); reaching one ends the walk and is stated in the review."""

    max_visited_files: int = 5000
    max_accepted_bytes: int = 500 * MiB
    max_extracted_characters: int = 100 * MiB


@dataclass
class _Budget:
    limits: ScanLimits
    visited: int = 0
    accepted_bytes: int = 0
    characters: int = 0
    reached: list[str] = field(default_factory=list)

    def visit(self) -> bool:
        """Count one visited file; False when the visited-files cap is already used up."""
        if self.reached:
            return False
        if self.visited >= self.limits.max_visited_files:
            self.reached.append(msg("{count:,} visited files", count=self.limits.max_visited_files))
            return False
        self.visited += 1
        return True

    def accept(self, size: int, characters: int) -> bool:
        """Account one accepted file; False (and the cap noted) when it does not fit any more."""
        if self.accepted_bytes + size > self.limits.max_accepted_bytes:
            self.reached.append(
                msg("{size} of accepted data", size=human_size(self.limits.max_accepted_bytes))
            )
            return False
        if self.characters + characters > self.limits.max_extracted_characters:
            self.reached.append(
                msg(
                    "{count:g} Mi characters of extracted text",
                    count=self.limits.max_extracted_characters / MiB,
                )
            )
            return False
        self.accepted_bytes += size
        self.characters += characters
        return True


def _is_utf8(name: str) -> bool:
    """Whether a file name decoded by Python (``surrogateescape``) was valid UTF-8 on disk."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _displayable(name: str) -> str:
    """A name with undecodable bytes shown as U+FFFD, safe to print, store and send anywhere."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _error_text(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))


class Scanner:
    """Scans sources of one store. ``known`` maps source id → rel path → SHA-256 in the active snapshot;
    ``file_sources`` maps the real paths of the store's single-file sources to their configured path."""

    def __init__(
        self,
        *,
        known: Mapping[str, Mapping[str, str]] | None = None,
        file_sources: Mapping[str, str] | None = None,
        limits: ScanLimits | None = None,
        pdf: PdfExtractor,
        cache: ExtractionCache | None = None,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        self.known = known or {}
        self.file_sources = file_sources or {}
        self.budget = _Budget(limits or ScanLimits())
        self.pdf = pdf
        self.cache = cache
        self.progress = progress or NullProgress()
        self.cancel = cancel or CancelToken()

    def scan(self, sources: Sequence[Source]) -> ReviewReport:
        self.progress.stage("scan")
        self.progress.message(SCAN_MESSAGE)
        reviews = [self._scan_source(source) for source in sources]
        return ReviewReport(tuple(reviews), tuple(dict.fromkeys(self.budget.reached)))

    # -- one source ---------------------------------------------------------------------------------

    def _scan_source(self, source: Source) -> SourceReview:
        root = Path(source.path)
        known = self.known.get(source.id, {})
        moved = root_moved(source)
        if moved:
            return self._root_error(source, moved)
        resolved = os.path.realpath(root)
        try:
            info = os.lstat(root)
        except FileNotFoundError:
            return SourceReview(
                source,
                (),
                tuple(sorted(known)),
                RootState.MISSING,
                msg("{path} no longer exists", path=root),
            )
        except OSError as exc:
            return self._root_error(
                source, msg("cannot access {path} ({error})", path=root, error=_error_text(exc))
            )
        if stat.S_ISLNK(info.st_mode):
            return self._root_error(
                source,
                msg(
                    "{path} is a symbolic link; links are never followed — add its target instead",
                    path=root,
                ),
            )
        expected = stat.S_ISDIR if source.kind is SourceKind.FOLDER else stat.S_ISREG
        if not expected(info.st_mode):
            kind = kind_of(info.st_mode) if not stat.S_ISREG(info.st_mode) else msg("file")
            return self._root_error(
                source,
                msg("{path} is a {kind}, but the source is a folder", path=root, kind=kind)
                if source.kind is SourceKind.FOLDER
                else msg("{path} is a {kind}, but the source is a file", path=root, kind=kind),
            )
        walk = _Walk(self, source, known)
        if source.kind is SourceKind.FILE:
            walk.file(root, root.name, info, explicit=True)
        else:
            try:
                walk.folder_tree(root)
            except PermissionError as exc:
                return self._root_error(
                    source,
                    msg("cannot read folder {path} ({error})", path=root, error=_error_text(exc)),
                )
        if os.path.realpath(root) != resolved:  # a parent was swapped while the walk ran
            return self._root_error(
                source,
                msg(
                    "{path} led to {before} when the scan started but to {after} when it ended (a "
                    "folder on its path was moved or re-linked); nothing of it was indexed — "
                    "refresh again once the path is stable",
                    path=root,
                    before=resolved,
                    after=os.path.realpath(root),
                ),
            )
        return walk.review()

    @staticmethod
    def _root_error(source: Source, message: str) -> SourceReview:
        return SourceReview(source, (), (), RootState.ERROR, message)


class _Walk:
    """The state of scanning one source: rows so far, folders that could not be read."""

    def __init__(self, scanner: Scanner, source: Source, known: Mapping[str, str]) -> None:
        self.s = scanner
        self.source = source
        self.known = known
        self.rules = PathRules(source.options)
        self.gitignore = GitignoreRules()
        self.rows: list[ReviewRow] = []
        self.unchecked: list[str] = []
        self.complete = True

    def review(self) -> SourceReview:
        self.rows.sort(key=lambda row: row.rel_path)
        present = {
            row.rel_path
            for row in self.rows
            if row.status is not FileStatus.SKIPPED or row.keeps_previous
        }
        removed: tuple[str, ...] = ()
        if self.complete:
            removed = tuple(
                rel
                for rel in sorted(self.known)
                if rel not in present and not any(rel.startswith(f + "/") for f in self.unchecked)
            )
        return SourceReview(
            self.source,
            tuple(self.rows),
            removed,
            complete=self.complete,
            unchecked_folders=tuple(self.unchecked),
        )

    def row(
        self,
        path: Path,
        rel: str,
        status: FileStatus,
        reason: str,
        *,
        fmt: str = "",
        size: int = 0,
        sha256: str = "",
        characters: int = 0,
        pages: int | None = None,
        keeps_previous: bool = False,
        problem: bool = False,
    ) -> None:
        """One file of the review: where it is, what happens to it and why."""
        self.rows.append(
            ReviewRow(
                self.source.id,
                str(path),
                rel,
                fmt,
                size,
                status,
                reason,
                sha256,
                characters,
                pages,
                keeps_previous=keeps_previous,
                problem=problem,
            )
        )

    def skip(
        self,
        path: Path,
        rel: str,
        reason: str,
        *,
        fmt: str = "",
        size: int = 0,
        keeps_previous: bool = False,
        problem: bool = False,
    ) -> None:
        """A skipped row; ``problem`` when something went wrong rather than a rule deciding it."""
        self.row(
            path,
            rel,
            FileStatus.SKIPPED,
            reason,
            fmt=fmt,
            size=size,
            keeps_previous=keeps_previous,
            problem=problem,
        )
        self.s.progress.count(issues=1)

    # -- folders ------------------------------------------------------------------------------------

    def folder_tree(self, root: Path) -> None:
        stack: list[tuple[Path, str]] = [(root, "")]
        first = True
        while stack:
            if self.s.budget.reached:
                self.complete = False
                return
            folder, rel = stack.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                if first:
                    raise PermissionError(exc.errno, exc.strerror) from None
                self.unchecked.append(rel)
                self.skip(
                    folder,
                    rel,
                    msg("cannot read folder ({error})", error=_error_text(exc)),
                    fmt="folder",
                    keeps_previous=True,
                    problem=True,
                )
                continue
            first = False
            if self.source.options.respect_gitignore:
                self._load_gitignore(entries, rel)
            subfolders: list[tuple[Path, str]] = []
            for entry in entries:
                self.s.cancel.raise_if_cancelled()
                child_rel = f"{rel}/{entry.name}" if rel else entry.name
                path = Path(entry.path)
                if not _is_utf8(entry.name):
                    # neither the chunk table, the review nor a model can carry such a name
                    self.skip(
                        Path(_displayable(entry.path)),
                        _displayable(child_rel),
                        msg("name is not valid UTF-8 (rename it to index it)"),
                        problem=True,
                    )
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError as exc:
                    self.skip(
                        path,
                        child_rel,
                        msg("cannot read entry ({error})", error=_error_text(exc)),
                        keeps_previous=child_rel in self.known,
                        problem=True,
                    )
                    continue
                if stat.S_ISDIR(info.st_mode):
                    reason = self.rules.folder_reason(child_rel)
                    if reason is None and self.gitignore.ignored(child_rel, is_dir=True):
                        reason = msg("ignored by .gitignore")
                    if reason:
                        self.skip(path, child_rel, reason, fmt="folder")
                    else:
                        subfolders.append((path, child_rel))
                    continue
                reason = self.rules.file_reason(child_rel)
                if reason is None and self.gitignore.ignored(child_rel, is_dir=False):
                    reason = msg("ignored by .gitignore")
                if reason is not None:
                    if not self.s.budget.visit():
                        self.complete = False
                        return
                    self.skip(
                        path,
                        child_rel,
                        reason,
                        fmt=detect_format(entry.name) or "",
                        size=info.st_size if stat.S_ISREG(info.st_mode) else 0,
                    )
                    continue
                if not self.file(path, child_rel, info, explicit=False):
                    self.complete = False
                    return
            stack.extend(reversed(subfolders))

    def _load_gitignore(self, entries: list[os.DirEntry[str]], rel: str) -> None:
        for entry in entries:
            if entry.name == GITIGNORE and entry.is_file(follow_symlinks=False):
                try:
                    data, _ = read_regular_file(entry.path, 1 * MiB)
                except OSError:
                    return
                self.gitignore.add(rel, data[: 1 * MiB].decode("utf-8", errors="replace"))
                return

    # -- files --------------------------------------------------------------------------------------

    def file(self, path: Path, rel: str, info: os.stat_result, *, explicit: bool) -> bool:
        """Classify one file; False when a preview cap ended the walk."""
        if not self.s.budget.visit():
            return False
        self.s.progress.advance()
        mode = info.st_mode
        fmt = detect_format(path.name)
        if stat.S_ISLNK(mode):
            self.skip(path, rel, msg("symbolic link (links are never followed)"))
            return True
        if not stat.S_ISREG(mode):
            self.skip(
                path, rel, msg("{kind} — not a regular file, never opened", kind=kind_of(mode))
            )
            return True
        if fmt is None:
            suffix = path.suffix.lower()
            what = (
                msg("unsupported format ({suffix})", suffix=suffix)
                if suffix
                else msg("unsupported file type (no known name or suffix)")
            )
            self.skip(path, rel, what, size=info.st_size)
            return True
        if not explicit and not self.rules.included(rel):
            self.skip(
                path,
                rel,
                msg("not matched by the include patterns"),
                fmt=fmt,
                size=info.st_size,
            )
            return True
        if not explicit:
            owner = self.s.file_sources.get(os.path.realpath(path))
            if owner is not None:
                self.skip(
                    path,
                    rel,
                    msg("already indexed as the file source {path}", path=owner),
                    fmt=fmt,
                    size=info.st_size,
                )
                return True
        limit = self.source.options.max_file_size
        if info.st_size > limit:
            self.skip(
                path,
                rel,
                msg(
                    "too large ({size}; limit {limit})",
                    size=human_size(info.st_size),
                    limit=human_size(limit),
                ),
                fmt=fmt,
                size=info.st_size,
            )
            return True
        if info.st_size == 0:
            self.skip(path, rel, msg("empty file (no text)"), fmt=fmt)
            return True
        return self._check_content(path, rel, fmt, limit, info.st_size)

    def _check_content(self, path: Path, rel: str, fmt: str, limit: int, listed_size: int) -> bool:
        known_hash = self.known.get(rel)
        try:
            if is_extracted(fmt):
                sha256, size, characters, pages = self._check_extracted(
                    path, fmt, limit, known_hash
                )
            else:
                sha256, size, characters = self._check_text(path, limit)
                pages = None
        except (TextRejected, ExtractionError) as exc:
            self.skip(path, rel, exc.reason, fmt=fmt, size=listed_size, problem=True)
            return True
        except NotRegularFile as exc:
            self.skip(
                path,
                rel,
                msg("{kind} — not a regular file, never opened", kind=exc.strerror),
                fmt=fmt,
            )
            return True
        except OSError as exc:
            self.skip(
                path,
                rel,
                msg("cannot read file ({error})", error=_error_text(exc)),
                fmt=fmt,
                keeps_previous=known_hash is not None,
                problem=True,
            )
            return True
        if size > limit:
            self.skip(
                path,
                rel,
                msg("too large (grew beyond the {limit} limit)", limit=human_size(limit)),
                fmt=fmt,
                size=size,
            )
            return True
        if characters > max_characters(limit, size, pdf=is_compressed(fmt)):
            self.skip(
                path, rel, too_much_text(limit, size, pdf=is_compressed(fmt)), fmt=fmt, size=size
            )
            return True
        if known_hash == sha256:
            self.row(
                path,
                rel,
                FileStatus.UNCHANGED,
                "",
                fmt=fmt,
                size=size,
                sha256=sha256,
                characters=characters,
                pages=pages,
            )
            return True
        if not self.s.budget.accept(size, characters):
            return False
        self.row(
            path,
            rel,
            FileStatus.INDEX,
            changed_reason(known_hash),
            fmt=fmt,
            size=size,
            sha256=sha256,
            characters=characters,
            pages=pages,
        )
        return True

    def _check_text(self, path: Path, limit: int) -> tuple[str, int, int]:
        inspector = TextInspector()
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise NotRegularFile(errno.EINVAL, kind_of(info.st_mode), str(path))
            read = 0
            while read <= limit:
                block = os.read(fd, _BLOCK)
                if not block:
                    break
                read += len(block)
                inspector.feed(block)
        finally:
            os.close(fd)
        facts = inspector.finish()
        return facts.sha256, facts.size, facts.characters

    def _check_extracted(
        self, path: Path, fmt: str, limit: int, known_hash: str | None
    ) -> tuple[str, int, int, int | None]:
        data, _ = read_regular_file(path, limit)
        sha256 = hashlib.sha256(data).hexdigest()
        if sha256 == known_hash:
            return sha256, len(data), 0, None
        text = self.s.pdf.extract(path, limit, sha256, fmt)
        if self.s.cache is not None:
            self.s.cache.put(sha256, text.pages)
        return sha256, len(data), text.characters, len(text.pages) if is_paged(fmt) else None

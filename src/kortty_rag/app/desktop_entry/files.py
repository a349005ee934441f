"""Writing and removing the desktop files below the data folder without following a link
(:mod:`kortty_rag.app.desktop_entry`)."""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path, PurePosixPath

from kortty_rag.app.desktop_entry.contents import exec_value, file_contents, launcher_command
from kortty_rag.app.desktop_entry.record import (
    PRODUCT,
    DesktopRecord,
    InstalledFile,
    InstallResult,
    KeptFile,
    UninstallResult,
    WrittenFile,
    read_record,
    record_file,
    relative_to_home,
)
from kortty_rag.app.desktop_entry.where import (
    DesktopEntryError,
    DesktopLinkError,
    InstalledElsewhereError,
    check_target,
    data_home,
)
from kortty_rag.config.atomic import write_atomic_in, write_json_atomic
from kortty_rag.config.open_folder import OpenFolder, describe
from kortty_rag.errors import StoreFolderChangedError
from kortty_rag.messages import Message, msg
from kortty_rag.remedies import Operation, place, run

#: the installed files are the user's, readable like the rest of a data folder
FILE_MODE = 0o644


# -- walking without following links ------------------------------------------------------------


class _Tree:
    """Folders below the data folder, each opened once ``O_NOFOLLOW`` relative to its parent."""

    def __init__(self, stack: ExitStack, root: OpenFolder) -> None:
        self.stack = stack
        self.root = root
        self.opened: dict[str, OpenFolder] = {"": root}

    def folder(
        self, relative: str, *, create: bool = False, created: list[Path] | None = None
    ) -> OpenFolder | None:
        """The folder at ``relative`` (made, and listed in ``created``, when missing and
        ``create``), or ``None`` when it is missing; a link or a file there is refused."""
        if relative in self.opened:
            return self.opened[relative]
        path = PurePosixPath(relative)
        parent = self.folder(
            "" if str(path.parent) == "." else str(path.parent), create=create, created=created
        )
        if parent is None:
            return None
        found = parent.lstat(path.name)
        if found is None and not create:
            return None
        if found is not None and not stat.S_ISDIR(found.st_mode):
            raise DesktopLinkError(parent.path / path.name, describe(found.st_mode))
        try:
            if found is None:
                parent.mkdir(path.name)
                if created is not None:
                    created.append(parent.path / path.name)
            child = parent.sub(path.name)
        except StoreFolderChangedError as exc:  # swapped for a link meanwhile
            found = parent.lstat(path.name)
            raise DesktopLinkError(
                exc.path, describe(found.st_mode) if found else msg("gone")
            ) from None
        self.stack.enter_context(child)
        self.opened[relative] = child
        return child


def _parent_and_name(relative: str) -> tuple[str, str]:
    path = PurePosixPath(relative)
    return ("" if str(path.parent) == "." else str(path.parent)), path.name


@contextmanager
def _failing_io(removing: bool = False) -> Iterator[None]:
    """An ``OSError`` as a :class:`DesktopEntryError` that says what could not be done where, and a
    link met by :class:`OpenFolder` as a :class:`DesktopLinkError`."""
    try:
        yield
    except StoreFolderChangedError as exc:
        raise DesktopLinkError(exc.path, describe(stat.S_IFLNK)) from None
    except OSError as exc:
        path = exc.filename if isinstance(exc.filename, str) else "?"
        reason = exc.strerror or str(exc)
        message: Message = (
            msg("Could not remove {path} ({reason}).", path=path, reason=reason)
            if removing
            else msg("Could not write {path} ({reason}).", path=path, reason=reason)
        )
        raise DesktopEntryError(
            message,
            hint=msg(
                "Check the folder's permissions and free space and try again; {how} removes "
                "whatever was written.",
                how=place(Operation.DESKTOP_UNINSTALL),
            ),
        ) from exc


# -- install ------------------------------------------------------------------------------------


def install(
    environ: Mapping[str, str] | None = None, *, executable: str | None = None
) -> InstallResult:
    """Write the desktop entry, the icons and the metainfo into the user's data folder and record
    what was written (see the module's documentation)."""
    if sys.platform == "win32":
        raise DesktopEntryError(
            msg("Desktop entries are for Linux and other freedesktop.org desktops."),
            hint=msg("Start kortty-rag from {how} instead.", how=place(Operation.DESKTOP_COMMAND)),
        )
    target = data_home(environ)
    check_target(target, environ)
    previous = read_record()
    if previous is not None and Path(previous.data_home) != target.path:
        raise InstalledElsewhereError(
            msg(
                "kortty-rag's desktop entry is already installed in {old}, not in {new}.",
                old=previous.data_home,
                new=target.path,
            ),
            hint=msg(
                "{do} with the XDG_DATA_HOME of that install first (it removes what was "
                "written there), then install again.",
                do=run(Operation.DESKTOP_UNINSTALL),
            ),
        )
    command = launcher_command(executable)
    contents = file_contents(command)
    created: list[Path] = []
    written: list[WrittenFile] = []
    try:
        with _failing_io():
            created.extend(_make_folder(target.path))
        with ExitStack() as stack, _failing_io():
            root = stack.enter_context(OpenFolder.open(target.path, nofollow=0))
            tree = _Tree(stack, root)
            _check_install_targets(tree, contents)
            for relative, data in contents.items():
                parent_name, name = _parent_and_name(relative)
                folder = tree.folder(parent_name, create=True, created=created)
                assert folder is not None
                written.append(_write_file(folder, name, data))
    finally:
        if written or created:
            _save_record(target.path, previous, written, created)
    return InstallResult(
        data_home=target,
        exec_line=exec_value(command),
        written=tuple(written),
        created_folders=tuple(created),
        record=record_file(),
    )


def _make_folder(path: Path) -> list[Path]:
    """Make ``path`` and any missing folder above it; the folders made, outermost first."""
    missing: list[Path] = []
    probe = path
    while not os.path.lexists(probe):
        missing.insert(0, probe)
        probe = probe.parent
    made = []
    for folder in missing:
        try:
            os.mkdir(folder)
        except FileExistsError:
            continue
        made.append(folder)
    return made


def _check_install_targets(tree: _Tree, contents: Mapping[str, bytes]) -> None:
    """Refuse, before anything is written, a link or another entry where a folder or file goes."""
    for relative in contents:
        parent_name, name = _parent_and_name(relative)
        folder = tree.folder(parent_name)
        if folder is None:
            continue
        found = folder.lstat(name)
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise DesktopLinkError(folder.path / name, describe(found.st_mode))


def _write_file(folder: OpenFolder, name: str, data: bytes) -> WrittenFile:
    found = folder.lstat(name)
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise DesktopLinkError(folder.path / name, describe(found.st_mode))
    write_atomic_in(folder, name, data)  # a link put there meanwhile is replaced, not followed
    fd = folder.open_file(name, os.O_RDONLY)
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return WrittenFile(folder.path / name, hashlib.sha256(data).hexdigest(), found is not None)


def _save_record(
    home: Path,
    previous: DesktopRecord | None,
    written: list[WrittenFile],
    created: list[Path],
) -> None:
    files = {str(f.path): f.sha256 for f in previous.files} if previous else {}
    files.update({str(f.path): f.sha256 for f in written})
    folders = list(previous.created_folders) if previous else []
    folders += [str(p) for p in created if str(p) not in folders]
    record = DesktopRecord(
        product=PRODUCT,
        data_home=str(home),
        files=tuple(InstalledFile(path, sha) for path, sha in files.items()),
        created_folders=tuple(folders),
    )
    write_json_atomic(record_file(), record.to_json())


# -- uninstall ----------------------------------------------------------------------------------


def uninstall() -> UninstallResult:
    """Remove what the recorded install wrote (see the module's documentation)."""
    record = read_record()
    if record is None:
        return UninstallResult(installed=False)
    home = Path(record.data_home)
    removed: list[Path] = []
    kept: list[KeptFile] = []
    missing: list[Path] = []
    removed_folders: list[Path] = []
    kept_folders: list[Path] = []
    changed = msg("changed since it was installed")
    with ExitStack() as stack, _failing_io(removing=True):
        try:
            root = stack.enter_context(OpenFolder.open(home, nofollow=0))
        except (FileNotFoundError, NotADirectoryError):
            root = None
        to_remove: list[tuple[OpenFolder, str, Path]] = []
        if root is None:
            missing.extend(Path(f.path) for f in record.files)
        else:
            tree = _Tree(stack, root)
            for entry in record.files:  # first look at everything: a link stops it all
                relative = relative_to_home(Path(entry.path), home)
                assert relative is not None  # read_record checked it
                parent_name, name = _parent_and_name(relative)
                folder = tree.folder(parent_name)
                found = folder.lstat(name) if folder is not None else None
                if folder is None or found is None:
                    missing.append(Path(entry.path))
                elif not stat.S_ISREG(found.st_mode):
                    raise DesktopLinkError(folder.path / name, describe(found.st_mode))
                elif folder.sha256(name) != entry.sha256:
                    kept.append(KeptFile(Path(entry.path), changed))
                else:
                    to_remove.append((folder, name, Path(entry.path)))
            for folder, name, path in to_remove:
                folder.unlink(name)
                removed.append(path)
            for folder in {f for f, _, _ in to_remove}:
                folder.fsync()
            for created in sorted(record.created_folders, key=lambda p: -len(Path(p).parts)):
                relative = relative_to_home(Path(created), home)
                if relative in (None, "."):
                    continue  # the data folder itself and above: after the tree is closed
                assert relative is not None
                parent_name, name = _parent_and_name(relative)
                parent = tree.folder(parent_name)
                if parent is None or not parent.is_folder(name):
                    continue
                tree.opened.pop(relative, None)  # (its descriptor closes with the stack)
                if _remove_empty(functools.partial(parent.rmdir, name)):
                    removed_folders.append(Path(created))
                else:
                    kept_folders.append(Path(created))
    for created in sorted(record.created_folders, key=lambda p: -len(Path(p).parts)):
        path = Path(created)
        if relative_to_home(path, home) not in (None, "."):
            continue
        if not os.path.isdir(path) or os.path.islink(path):
            continue
        with _failing_io(removing=True):
            empty = _remove_empty(functools.partial(os.rmdir, path))
        if empty:
            removed_folders.append(path)
        else:
            kept_folders.append(path)
    record_path = record_file()
    with _failing_io(removing=True):
        os.unlink(record_path)
    return UninstallResult(
        installed=True,
        data_home=home,
        removed=tuple(removed),
        kept=tuple(kept),
        missing=tuple(missing),
        removed_folders=tuple(removed_folders),
        kept_folders=tuple(kept_folders),
        record=record_path,
    )


def _remove_empty(remove: Callable[[], None]) -> bool:
    """Run ``remove`` (an ``rmdir``); ``False`` when the folder is not empty."""
    try:
        remove()
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            return False
        raise
    return True

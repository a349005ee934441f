"""The desktop integration: the desktop entry, the icons and the AppStream metainfo put into the
user's own data folder, and taken out again (docs/DESIGN.md §1; ``kortty-rag desktop install`` /
``desktop uninstall``).

Where (the XDG Base Directory specification): ``$XDG_DATA_HOME``, or ``~/.local/share`` when it is
unset, empty or relative — never a folder of ``$XDG_DATA_DIRS`` or any other system folder. Without
an explicit ``XDG_DATA_HOME`` the folder must also resolve inside the user's home.

What, below that folder (the files are the shipped resources, :mod:`kortty_rag.resource_files`):

- ``applications/<app id>.desktop`` with ``Exec=`` the absolute path of the installed ``kortty-rag``
  launcher (``<python> -m kortty_rag`` when there is none), quoted as the Desktop Entry
  specification asks;
- ``icons/hicolor/<n>x<n>/apps/<app id>.png`` for every rendered size and
  ``icons/hicolor/scalable/apps/<app id>.svg``;
- ``metainfo/<app id>.metainfo.xml``.

Each file is written atomically (``config.atomic.write_atomic_in``). Below the data folder nothing
is opened, written or deleted through a symbolic link: every folder is opened ``O_NOFOLLOW``
relative to its parent (``config.open_folder.OpenFolder``), and a link (or another kind of entry)
where a folder or one of the files belongs is refused before anything changes.

What an install wrote — each file with its SHA-256, and the folders it had to create — is kept in
``$KORTTY_HOME/rag/desktop-entry.json`` (:data:`RECORD_NAME`). Uninstall removes exactly those
files, keeps (and reports) one that changed since, removes the folders it created when they are
empty, and then the record; nothing else. A record can only name the paths an install writes: one
that names anything else is damaged and nothing is removed. Installing again replaces the same files
and keeps the folders of the first install in the record.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from kortty_rag.app_id import APP_ID, DESKTOP_FILE, ICON_SIZES, ICON_SVG, METAINFO_FILE, icon_png
from kortty_rag.config.atomic import write_atomic_in, write_json_atomic
from kortty_rag.config.definitions import damaged, read_definition
from kortty_rag.config.open_folder import OpenFolder, describe
from kortty_rag.config.paths import rag_dir
from kortty_rag.decoding import FieldError, decode
from kortty_rag.errors import KorttyRagError, StoreFolderChangedError
from kortty_rag.messages import Message, msg
from kortty_rag.resource_files import read_resource

#: the record of what ``desktop install`` wrote, in ``$KORTTY_HOME/rag/``
RECORD_NAME = "desktop-entry.json"
PRODUCT = "kortty-rag"
SCHEMA = 1
#: the installed files are the user's, readable like the rest of a data folder
FILE_MODE = 0o644
LAUNCHER = "kortty-rag"

#: folders that are the system's, whatever ``XDG_DATA_HOME`` says (besides ``$XDG_DATA_DIRS``)
SYSTEM_FOLDERS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/proc", "/sys")
DEFAULT_DATA_DIRS = "/usr/local/share/:/usr/share/"

#: characters that make an ``Exec`` argument need quotes (Desktop Entry spec, "The Exec key")
_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")
_QUOTED_ESCAPES = re.compile(r'(["`$\\])')
_EXEC_LINE = re.compile(r"^Exec=.*$", re.M)


# -- errors -------------------------------------------------------------------------------------


class DesktopEntryError(KorttyRagError):
    """The desktop entry could not be installed or removed."""


class DesktopTargetError(DesktopEntryError):
    """The folder to install into is not the user's own: outside the home folder, or a system
    folder."""

    user_error = True


class DesktopLinkError(DesktopEntryError):
    """A symbolic link (or another kind of entry) is where a folder or a file of the desktop entry
    belongs; it was not followed, and nothing was changed."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(
            msg(
                "{path} is {what}, not what kortty-rag installs there; nothing was written or "
                "deleted through it.",
                path=path,
                what=what,
            ),
            hint=msg(
                "Check what {path} is (and where it points), move it away, and try again.",
                path=path,
            ),
        )
        self.path = path


class InstalledElsewhereError(DesktopEntryError):
    """An earlier install went into another data folder (``XDG_DATA_HOME`` changed since)."""

    user_error = True


# -- where --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DataHome:
    """The user's data folder; ``explicit`` when ``XDG_DATA_HOME`` named it, ``ignored`` a relative
    ``XDG_DATA_HOME`` the specification says to ignore."""

    path: Path
    home: Path
    explicit: bool
    ignored: str = ""


def user_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$HOME`` when it is an absolute path, else the home folder of the user's account."""
    env = os.environ if environ is None else environ
    value = env.get("HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    import pwd  # POSIX only, like the desktop entry itself

    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def data_home(environ: Mapping[str, str] | None = None) -> DataHome:
    """``$XDG_DATA_HOME`` if it is an absolute path, else ``~/.local/share`` (XDG Base Directory
    specification: a relative path there is invalid and ignored)."""
    env = os.environ if environ is None else environ
    home = user_home(env)
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return DataHome(Path(value), home, explicit=True)
    return DataHome(home / ".local" / "share", home, explicit=False, ignored=value)


def check_target(target: DataHome, environ: Mapping[str, str] | None = None) -> None:
    """Refuse a data folder that is a system folder (the root, a folder of ``$XDG_DATA_DIRS``
    outside the home, anything below ``/usr``, ``/etc``, …), or — unless ``XDG_DATA_HOME`` named
    it — one that resolves outside the home."""
    env = os.environ if environ is None else environ
    real = Path(os.path.realpath(target.path))
    home = Path(os.path.realpath(target.home))
    listed = (env.get("XDG_DATA_DIRS") or DEFAULT_DATA_DIRS).split(":")
    system = {
        Path(os.path.realpath(folder))
        for folder in [*listed, *DEFAULT_DATA_DIRS.split(":"), *SYSTEM_FOLDERS]
        if folder and os.path.isabs(folder)
    }
    system = {folder for folder in system if not folder.is_relative_to(home)}
    if real == Path(real.anchor) or any(real.is_relative_to(folder) for folder in system):
        raise DesktopTargetError(
            msg(
                "{path} is a system folder; kortty-rag installs its desktop entry only into your "
                "own data folder.",
                path=target.path,
            ),
            hint=msg(
                "Set XDG_DATA_HOME to a folder of your own (or unset it to use ~/.local/share) "
                "and try again."
            ),
        )
    if not target.explicit and not real.is_relative_to(home):
        raise DesktopTargetError(
            msg(
                "{path} resolves to {real}, outside your home folder {home}; nothing was written.",
                path=target.path,
                real=real,
                home=home,
            ),
            hint=msg(
                "Set XDG_DATA_HOME to the folder you want the desktop entry in, if that folder "
                "is really yours, and try again."
            ),
        )


# -- what ---------------------------------------------------------------------------------------


def relative_files() -> tuple[str, ...]:
    """Every file an install writes, relative to the data folder (POSIX separators)."""
    return (
        f"applications/{DESKTOP_FILE}",
        *(icon_png(size) for size in ICON_SIZES),
        ICON_SVG,
        f"metainfo/{METAINFO_FILE}",
    )


def relative_folders() -> frozenset[str]:
    """Every folder below the data folder that an install may create."""
    folders: set[str] = set()
    for name in relative_files():
        parent = PurePosixPath(name).parent
        while str(parent) != ".":
            folders.add(str(parent))
            parent = parent.parent
    return frozenset(folders)


def launcher_command(executable: str | None = None) -> list[str]:
    """The command that starts the installed app: the ``kortty-rag`` console script beside the
    Python running now, else that Python with ``-m kortty_rag``; absolute paths."""
    python = executable if executable is not None else sys.executable
    if not python:
        raise DesktopEntryError(
            msg("The path of the running Python is unknown, so no launcher can be written."),
            hint=msg("Run kortty-rag through its installed `kortty-rag` command and try again."),
        )
    path = Path(os.path.abspath(python))
    script = path.parent / LAUNCHER
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(path), "-m", "kortty_rag"]


def exec_argument(argument: str) -> str:
    """One argument of an ``Exec`` value, written as the Desktop Entry specification asks: quoted
    when it has a reserved character (inside the quotes a backslash goes before each double quote,
    backtick, dollar sign and backslash), ``%`` doubled, then every backslash escaped once more for
    the string value."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in argument) or not _utf8(argument):
        raise DesktopEntryError(
            msg(
                "The path {path} has a character a desktop entry cannot hold.",
                path=argument.encode("utf-8", "backslashreplace").decode("ascii", "replace"),
            ),
            hint=msg("Install kortty-rag under a path without control characters and try again."),
        )
    text = argument
    if any(c in _RESERVED for c in text):
        text = '"' + _QUOTED_ESCAPES.sub(r"\\\1", text) + '"'
    return text.replace("%", "%%").replace("\\", "\\\\")


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def exec_value(command: list[str]) -> str:
    return " ".join(exec_argument(argument) for argument in command)


def desktop_text(command: list[str]) -> str:
    """The shipped desktop entry with ``Exec=`` the given command."""
    text = read_resource(DESKTOP_FILE).decode("utf-8")
    value = exec_value(command)
    replaced, count = _EXEC_LINE.subn(lambda _: f"Exec={value}", text)
    if count != 1:
        raise DesktopEntryError(
            msg("The shipped desktop entry has {count} Exec lines, not one.", count=count),
            hint=msg("Reinstall kortty-rag."),
        )
    return replaced


def file_contents(command: list[str]) -> dict[str, bytes]:
    """The bytes of every file an install writes, by relative path."""
    contents: dict[str, bytes] = {}
    for name in relative_files():
        if name.startswith("applications/"):
            contents[name] = desktop_text(command).encode("utf-8")
        elif name.startswith("metainfo/"):
            contents[name] = read_resource(METAINFO_FILE)
        else:
            contents[name] = read_resource(name)  # icons keep their shipped layout
    return contents


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
        relative = _relative(Path(entry.path), home)
        if relative not in allowed:
            raise FieldError(f"files[{index}].path", msg("is not a file kortty-rag installs"))
    folders = relative_folders()
    ancestors = {home, *home.parents}
    for index, folder in enumerate(record.created_folders):
        path = Path(folder)
        if not path.is_absolute() or (
            path not in ancestors and _relative(path, home) not in folders
        ):
            raise FieldError(
                f"created_folders[{index}]", msg("is not a folder kortty-rag installs")
            )


def _relative(path: Path, home: Path) -> str | None:
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
                "Check the folder's permissions and free space and try again; "
                "`kortty-rag desktop uninstall` removes whatever was written."
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
            hint=msg("Start kortty-rag from its `kortty-rag` command instead."),
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
                "Run `kortty-rag desktop uninstall` with the XDG_DATA_HOME of that install "
                "first (it removes what was written there), then install again."
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
                relative = _relative(Path(entry.path), home)
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
                relative = _relative(Path(created), home)
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
        if _relative(path, home) not in (None, "."):
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

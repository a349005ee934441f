"""Where the desktop files go: the user's own data folder, never a system folder, and the errors
that refuse anything else (:mod:`kortty_rag.app.desktop_entry`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import msg

#: folders that are the system's, whatever ``XDG_DATA_HOME`` says (besides ``$XDG_DATA_DIRS``)
SYSTEM_FOLDERS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/proc", "/sys")
DEFAULT_DATA_DIRS = "/usr/local/share/:/usr/share/"


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

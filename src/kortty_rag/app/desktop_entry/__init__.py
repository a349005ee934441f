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

from kortty_rag.app.desktop_entry.contents import (
    desktop_text,
    exec_argument,
    file_contents,
    launcher_command,
    relative_files,
)
from kortty_rag.app.desktop_entry.files import install, uninstall
from kortty_rag.app.desktop_entry.record import (
    RECORD_NAME,
    DesktopRecord,
    InstallResult,
    UninstallResult,
    read_record,
    record_file,
)
from kortty_rag.app.desktop_entry.where import (
    DesktopEntryError,
    DesktopLinkError,
    DesktopTargetError,
    InstalledElsewhereError,
    data_home,
)

__all__ = [
    "RECORD_NAME",
    "DesktopEntryError",
    "DesktopLinkError",
    "DesktopRecord",
    "DesktopTargetError",
    "InstallResult",
    "InstalledElsewhereError",
    "UninstallResult",
    "data_home",
    "desktop_text",
    "exec_argument",
    "file_contents",
    "install",
    "launcher_command",
    "read_record",
    "record_file",
    "relative_files",
    "uninstall",
]

"""Which roots a store definition from elsewhere (an archive, korTTY's registry) may propose here
(docs/DESIGN.md §14), checked when it is imported and again when its first review scans it.

A root is refused when it

- is ``/``, or is, holds or lies inside this product's own data (``KORTTY_HOME``);
- lies in a system folder (``/etc``, ``/proc``, ``/usr``, … — :data:`SYSTEM_FOLDERS`) as written or
  as resolved, unless it lies inside the home folder (``/root/docs`` for root, ``/var/home/NAME/…``);
  so ``/proc/self/cwd/docs`` and ``/proc/self/root/…`` are refused whatever they lead to;
- lies outside the home folder, or is the whole home folder;
- is or lies inside a hidden file or folder below the home;
- runs through a symbolic link (as a root added here may not: whoever re-points the link chooses what
  is read). A path that does not exist yet is checked as far as it exists, and again by its review.

Each rule is judged on the path as written and on its real (resolved) path, so ``~/x/../.ssh``, a link
to ``/etc`` or ``//`` spellings cannot slip through.
"""

from __future__ import annotations

import os
from pathlib import Path

from kortty_rag.config.paths import kortty_home
from kortty_rag.messages import msg
from kortty_rag.sources.rootpath import link_target, symlink_on_path

#: top-level folders of the operating system: never a root of an imported source (a home folder
#: inside one of them, such as ``/root`` or ``/var/home/NAME``, is still the home folder)
SYSTEM_FOLDERS = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/snap",
    "/srv",
    "/sys",
    "/usr",
    "/var",
)


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _below(path: Path, base: Path) -> tuple[str, ...] | None:
    return path.relative_to(base).parts if _inside(path, base) else None


def _system_folder(path: Path, home: Path) -> str | None:
    if _inside(path, home):
        return None
    return next((f for f in SYSTEM_FOLDERS if _inside(path, Path(f))), None)


def normalised(path: str) -> str:
    """``path`` as a root is kept: absolute and without ``//``, ``/./``, ``..`` or a trailing slash
    (``..`` is only taken away textually by a root that runs through no link, which
    :func:`refusal` requires)."""
    return os.path.normpath(path) if os.path.isabs(path) else path


def refusal(path: str, *, home: Path | None = None) -> str | None:
    """Why ``path`` cannot be the root of an imported source (``None`` when it may be proposed for a
    review). ``home`` is the user's home folder (default: ``$HOME``)."""
    if "\0" in path or not os.path.isabs(path):
        return msg("its path is not absolute")
    given = Path(os.path.normpath(path))
    real = Path(os.path.realpath(given))
    if Path("/") in (given, real):
        return msg("it is a system folder ({folder})", folder="/")
    own = Path(os.path.realpath(kortty_home()))
    for spelled in (given, real):
        if _inside(spelled, own) or _inside(own, spelled):
            return msg("it is, holds or lies inside this product's own data")
    home_given = Path(os.path.normpath(os.path.abspath(home or Path.home())))
    home_real = Path(os.path.realpath(home_given))
    system = _system_folder(given, home_given) or _system_folder(real, home_real)
    if system is not None:
        return msg("it is a system folder ({folder})", folder=system)
    below_real = _below(real, home_real)
    if below_real is None:
        return msg("it lies outside your home folder")
    if not below_real:
        return msg("it is your whole home folder")
    below_given = _below(given, home_given) or _below(given, home_real) or ()
    hidden = next((part for part in (*below_given, *below_real) if part.startswith(".")), None)
    if hidden is not None:
        return msg("it is or lies inside a hidden file or folder ({name})", name=hidden)
    link = symlink_on_path(given)
    if link is not None:
        return msg(
            "it runs through the symbolic link {link} (to {target}); an imported root is only "
            "taken at its real path",
            link=link,
            target=link_target(link),
        )
    return None

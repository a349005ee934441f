"""What an MCP client may see and change: the user's scope, never wider.

An MCP client is an agent. It sees only the stores the user opted in ("Available to other AI tools
(MCP)"); any other store answers exactly like a store that does not exist, so a client cannot even
learn which stores there are. A new root from a client must be a plain absolute path strictly inside
the user's home folder, with no hidden part and no symbolic link on the way, and never the product's
own folder; roots the user allowed for the store (``kortty-rag store roles NAME --mcp-allow-root
PATH``) and the folders inside them are accepted as well. Every decision is taken on real (resolved)
paths, so ``~/x/../.ssh`` or a link to ``/etc`` cannot slip through, and the root is added by its real
path, which no later change of a link can redirect.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from kortty_rag.config.paths import kortty_home
from kortty_rag.config.registry import StoreRegistry, StoreSurvey
from kortty_rag.errors import SourceError
from kortty_rag.messages import msg
from kortty_rag.models import Store
from kortty_rag.remedies import Operation, place


class McpStores(StoreRegistry):
    """The registry as an MCP client sees it: only the stores opted in for other AI tools. ``get``
    of any other store raises the same :class:`~kortty_rag.errors.NotFoundError` as an unknown name."""

    def survey(self) -> StoreSurvey:
        """Only opted-in stores; a damaged definition cannot show the opt-in, so it is not listed."""
        everything = super().survey()
        return StoreSurvey(tuple(store for store in everything.stores if store.roles.mcp), ())


def _allow_hint(store: Store, path: str) -> str:
    return msg(
        "Ask the user: only they can allow it, with {how}.",
        how=place(Operation.STORE_ALLOW_ROOT, store=store.name, path=path),
    )


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _below(path: Path, base: Path) -> tuple[str, ...] | None:
    """The parts of ``path`` below ``base``, or ``None`` when it is not inside it."""
    return path.relative_to(base).parts if _inside(path, base) else None


def allowed_root(path: str | Path) -> str:
    """The form in which the user's ``--mcp-allow-root PATH`` is stored: its real absolute path. A
    folder inside this product's own folder is refused at once: no client could ever add it (a
    folder that holds it, such as the home folder, is fine; only that part of it stays closed)."""
    target = Path(os.path.expanduser(os.fspath(path)))
    if not target.exists():
        raise SourceError(
            msg("{path} does not exist", path=target), path=target, hint=msg("Check the path.")
        )
    real = os.path.realpath(target)
    if _inside(Path(real), Path(os.path.realpath(kortty_home()))):
        raise SourceError(
            msg("{path} lies inside this product's own data", path=target),
            path=target,
            hint=msg("Allow a folder of documents instead."),
        )
    return real


def check_mcp_root(store: Store, path: str, *, home: Path | None = None) -> Path:
    """The real path under which an MCP client's ``path`` may become a root of ``store``; raise
    :class:`SourceError` saying why not. Existence is checked afterwards, by the usual source rules,
    so a refused path reveals nothing about what is there."""
    if path.startswith("~"):
        raise SourceError(
            msg("{path!r} starts with '~'", path=path),
            hint=msg("Pass the full absolute path: the server does not expand '~'."),
        )
    if "\0" in path or not os.path.isabs(path):
        raise SourceError(
            msg("{path!r} is not an absolute path", path=path),
            hint=msg(
                "Pass the full path of the file or folder; the server's working directory is "
                "not the caller's."
            ),
        )
    if ".." in Path(path).parts:
        raise SourceError(
            msg("{path!r} contains '..'", path=path), hint=msg("Pass the plain absolute path.")
        )
    given = Path(os.path.normpath(path))
    try:
        real = Path(os.path.realpath(given))
    except (OSError, ValueError) as exc:
        raise SourceError(
            msg("{path!r} cannot be resolved ({error})", path=path, error=str(exc)),
            hint=msg("Check the path."),
        ) from None

    for root in store.roles.mcp_roots:
        below = _below(real, Path(root))
        if below is not None:
            hidden = [part for part in below if part.startswith(".")]
            if hidden:
                raise SourceError(
                    msg("{path} is inside a hidden folder ({name})", path=path, name=hidden[0]),
                    hint=_allow_hint(store, path),
                )
            return _not_own(real, path)

    home_given = Path(os.path.normpath(os.path.abspath(home or Path.home())))
    home_real = Path(os.path.realpath(home_given))
    below_real = _below(real, home_real)
    if below_real is None:
        raise SourceError(
            msg("{path} is outside the user's home folder", path=path),
            hint=_allow_hint(store, path),
        )
    if not below_real:
        raise SourceError(
            msg("{path} is the whole home folder", path=path),
            hint=msg("Add a folder inside it. {hint}", hint=_allow_hint(store, path)),
        )
    below_given = _below(given, home_given)
    if below_given is None:
        below_given = _below(given, home_real)
    if below_given != below_real:
        raise SourceError(
            msg("{path} goes through a symbolic link", path=path), hint=_allow_hint(store, path)
        )
    hidden = [part for part in below_real if part.startswith(".")]
    if hidden:
        raise SourceError(
            msg(
                "{path} is or lies inside a hidden file or folder ({name})",
                path=path,
                name=hidden[0],
            ),
            hint=_allow_hint(store, path),
        )
    return _not_own(real, path)


def _not_own(real: Path, path: str) -> Path:
    """``real``, unless it is or holds this product's folder (indexes, settings, the call log)."""
    own = Path(os.path.realpath(kortty_home()))
    if _inside(real, own) or _inside(own, real):
        raise SourceError(
            msg("{path} holds this product's own data", path=path),
            hint=msg("Add a folder of documents instead."),
        )
    return real


def forget_allowed_root(roots: Sequence[str], path: str | Path) -> tuple[str, ...]:
    """``roots`` without ``path`` (as given, or by its real path)."""
    spelled = os.path.abspath(os.path.expanduser(os.fspath(path)))
    wanted = {os.fspath(path), spelled, os.path.realpath(spelled)}
    kept = tuple(root for root in roots if root not in wanted)
    if len(kept) == len(roots):
        raise SourceError(
            msg("{path} is not an allowed MCP root of this store", path=path),
            hint=msg("See them under mcp_roots in {how}.", how=place(Operation.STORE_ROOTS)),
        )
    return kept

"""API keys in the OS keyring (docs/DESIGN.md §10): never in a config file, a log, a message or ``--json``.

Two kinds are kept: a Qdrant store's key (user name ``qdrant-api-key:<store id>``) and an AI
profile's endpoint key (``chat-api-key:<profile name>``).

``keyring`` picks a backend by priority, and three outcomes of that choice must never pass silently:

* **no backend** — keyring's ``fail`` backend (``NoKeyringError`` on every call) or the ``null``
  backend (accepts and forgets everything): a :class:`SecretStoreError` that says how to get one;
* **a plain-text fallback** — with ``keyrings.alt`` installed, keyring quietly picks its
  ``PlaintextKeyring`` (a file readable by anyone who can read the home folder) when no real keyring
  is available. That is exactly the silent plain-text fallback the spec forbids, so it is accepted
  only when the user chose it explicitly (``PYTHON_KEYRING_BACKEND`` or ``keyringrc.cfg``);
* **a backend that drops secrets** — some (misconfigured or locked) backends accept
  ``set_password`` and keep nothing: every stored key is read back and compared.

Reading never fails loudly: a store without a key (a loopback Qdrant) must work on a machine
without any keyring, so :func:`read_api_key` answers ``None`` and the server's 401 says the rest.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import Any

from kortty_rag.errors import SecretStoreError, UsageError
from kortty_rag.messages import msg

log = logging.getLogger(__name__)

SERVICE = "kortty-rag"
#: keyring backends that keep secrets in a plain file (accepted only when configured explicitly)
PLAINTEXT_BACKENDS = frozenset({"keyrings.alt.file.PlaintextKeyring"})
NO_BACKENDS = frozenset({"keyring.backends.fail.Keyring", "keyring.backends.null.Keyring"})

_INSTALL_HINT = msg(
    "Install and unlock an OS keyring: on Linux a Secret Service provider (GNOME Keyring or "
    "KWallet, running in your session), on macOS the Keychain, on Windows the Credential Manager. "
    "On a headless machine you may choose a keyring backend explicitly with "
    "PYTHON_KEYRING_BACKEND (see https://pypi.org/project/keyring)."
)


def account(store_id: str) -> str:
    """The keyring user name under which a store's Qdrant API key is kept."""
    return f"qdrant-api-key:{store_id}"


def backend_name(backend: Any) -> str:
    kind = type(backend)
    return f"{kind.__module__}.{kind.__qualname__}"


def _keyring() -> ModuleType:
    try:
        import keyring
    except ImportError as exc:
        raise SecretStoreError(
            msg("The keyring package is not installed, so no API key can be kept"),
            hint=msg("Install kortty-rag with the qdrant extra: pip install 'kortty-rag[qdrant]'."),
        ) from exc
    return keyring


def _explicitly_chosen(backend: Any) -> bool:
    """Whether the user configured this backend (environment variable or keyring config file)."""
    import keyring.core

    for loader in (keyring.core.load_env, keyring.core.load_config):
        try:
            chosen = loader()
        except Exception:  # a broken keyring config is no explicit choice
            continue
        if chosen is not None and type(chosen) is type(backend):
            return True
    return False


def usable_backend(backend: Any | None = None) -> Any:
    """The keyring backend to use, or :class:`SecretStoreError` saying why there is none."""
    keyring = _keyring()
    if backend is None:
        try:
            backend = keyring.get_keyring()
        except Exception as exc:
            raise SecretStoreError(
                msg("The OS keyring could not be loaded ({error})", error=type(exc).__name__),
                hint=_INSTALL_HINT,
            ) from exc
    name = backend_name(backend)
    if name in NO_BACKENDS or _empty_chain(backend):
        raise SecretStoreError(
            msg(
                "No OS keyring is available (keyring backend {backend}); the API key cannot be "
                "kept safely and is never written to a plain-text file instead",
                backend=name,
            ),
            hint=_INSTALL_HINT,
        )
    if name in PLAINTEXT_BACKENDS and not _explicitly_chosen(backend):
        raise SecretStoreError(
            msg(
                "The only keyring available is {backend}, which keeps secrets in a plain-text "
                "file; kortty-rag does not fall back to it silently",
                backend=name,
            ),
            hint=msg(
                "{hint} To accept the plain-text file anyway, set PYTHON_KEYRING_BACKEND={backend}.",
                hint=_INSTALL_HINT,
                backend=name,
            ),
        )
    return backend


def _empty_chain(backend: Any) -> bool:
    backends = getattr(backend, "backends", None)
    return backend_name(backend).endswith("ChainerBackend") and not backends


def _clean(text: str, secret: str) -> str:
    """``text`` without ``secret`` (a backend's error message should never echo it, but be sure)."""
    return text.replace(secret, "***") if secret else text


def store_api_key(store_id: str, key: str, *, backend: Any | None = None) -> str:
    """Keep ``key`` for ``store_id`` in the keyring, verified by reading it back.

    Returns the backend's name (for the user's information).
    """
    return store_secret(account(store_id), key, backend=backend)


def read_api_key(store_id: str, *, backend: Any | None = None) -> str | None:
    """The stored key, or ``None`` (no key stored, or no usable keyring: logged, not raised)."""
    return read_secret(account(store_id), backend=backend)


def delete_api_key(store_id: str, *, backend: Any | None = None) -> bool:
    """Forget the store's key; ``False`` if there was none or no usable keyring."""
    return delete_secret(account(store_id), backend=backend)


def profile_account(profile_name: str) -> str:
    """The keyring user name of an AI profile's endpoint key (profile names ignore case)."""
    return f"chat-api-key:{profile_name.lower()}"


def store_secret(user: str, key: str, *, backend: Any | None = None) -> str:
    """Keep ``key`` under the keyring user name ``user``, verified by reading it back.

    Returns the backend's name (for the user's information).
    """
    key = key.strip()
    if not key:
        raise UsageError(
            msg("The API key is empty"), hint=msg("Pipe the key itself on standard input.")
        )
    chosen = usable_backend(backend)
    name = backend_name(chosen)
    try:
        chosen.set_password(SERVICE, user, key)
        stored = chosen.get_password(SERVICE, user)
    except Exception as exc:
        raise SecretStoreError(
            msg(
                "The keyring ({backend}) refused to store the API key: {error}",
                backend=name,
                error=_clean(f"{type(exc).__name__}: {exc}", key),
            ),
            hint=msg(
                "Unlock the keyring (or fix its configuration) and try again. {hint}",
                hint=_INSTALL_HINT,
            ),
        ) from None
    if stored != key:
        _forget(chosen, user)
        raise SecretStoreError(
            msg(
                "The keyring ({backend}) accepted the API key but did not keep it (reading it "
                "back gave something else); the key was not stored",
                backend=name,
            ),
            hint=msg("Use a keyring that persists secrets. {hint}", hint=_INSTALL_HINT),
        )
    log.info("Stored the API key %s in the keyring (%s)", user, name)
    return name


def read_secret(user: str, *, backend: Any | None = None) -> str | None:
    """The key kept under ``user``, or ``None`` (none kept, or no usable keyring: logged)."""
    try:
        chosen = usable_backend(backend)
        value = chosen.get_password(SERVICE, user)
    except SecretStoreError as exc:
        log.debug("No API key %s read: %s", user, exc.message)
        return None
    except Exception as exc:
        log.warning("Could not read the API key %s from the keyring (%s)", user, type(exc).__name__)
        return None
    return str(value) if value else None


def delete_secret(user: str, *, backend: Any | None = None) -> bool:
    """Forget the key kept under ``user``; ``False`` if there was none or no usable keyring."""
    try:
        chosen = usable_backend(backend)
    except SecretStoreError:
        return False
    return _forget(chosen, user)


def _forget(backend: Any, user: str) -> bool:
    try:
        if backend.get_password(SERVICE, user) is None:
            return False
        backend.delete_password(SERVICE, user)
    except Exception as exc:
        log.warning("Could not delete the API key %s (%s)", user, type(exc).__name__)
        return False
    return True

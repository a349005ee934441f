"""The error hierarchy: one root, structured subclasses, and a message that says what to do next.

A bad *file* is never an error that aborts a job: it becomes a skip reason in the review report. These
exceptions are for the things a user must act on (a busy store, a corrupted snapshot, a missing model).
"""

from __future__ import annotations

from pathlib import Path

from kortty_rag.messages import msg
from kortty_rag.remedies import Operation, run_on


class KorttyRagError(Exception):
    """Root of every error the product raises on purpose.

    ``hint`` says what the user can do next; the CLI prints it and the GUI shows it in the error dialog.
    ``user_error`` separates mistakes in the request (exit code 2) from failures (exit code 1).
    """

    user_error = False

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class UsageError(KorttyRagError):
    """The request itself is wrong (unknown store, bad option value)."""

    user_error = True


class ConfigError(KorttyRagError):
    """A configuration file is unreadable, foreign, or written by a newer version."""


class NotFoundError(UsageError):
    """A named store, source, model or profile does not exist."""


class AlreadyExistsError(UsageError):
    """A store, profile or model with that name already exists."""


class SourceError(KorttyRagError):
    """A source cannot be added or scanned as a whole (symlinked root, overlap, missing root)."""

    user_error = True

    def __init__(self, message: str, *, path: Path | None = None, hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.path = path


class SourceOverlapError(SourceError):
    """A folder source would overlap a folder source that the store already has: ``covered`` when
    it is that folder or lies inside it, otherwise it contains it."""

    def __init__(self, path: Path, existing: Path, *, covered: bool = False) -> None:
        super().__init__(
            msg("{path} overlaps the existing source {existing}", path=path, existing=existing),
            path=path,
            hint=msg("Refresh or remove the existing source instead of adding an overlapping one."),
        )
        self.path = path
        self.existing = existing
        self.covered = covered


class NothingToAddError(SourceError):
    """Every selected file is already a source or covered by one; ``reason`` says which."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            msg("Nothing to add: {path} is {reason}", path=path, reason=reason),
            path=path,
            hint=msg("Refresh the existing source instead."),
        )
        self.path = path
        self.reason = reason


class ExtractionError(KorttyRagError):
    """Text could not be taken out of one file; ``reason`` is the skip reason shown in the review."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(msg("{path}: {reason}", path=path, reason=reason))
        self.path = path
        self.reason = reason


class ModelError(KorttyRagError):
    """An embedding model is missing, malformed, failed its checksum or its self-test."""


class DownloadUnreachableError(ModelError):
    """The server of a model download could not be reached (offline, name not found, refused);
    ``kept`` bytes of an earlier attempt stay for a resume, ``detail`` is the system's own words."""

    def __init__(self, host: str, detail: str, kept: int = 0) -> None:
        super().__init__(
            msg("No connection to {host} ({detail})", host=host, detail=detail),
            hint=msg(
                "Check the network connection and try again; the download continues where it stopped."
            )
            if kept
            else msg("Check the network connection and try again."),
        )
        self.host = host
        self.detail = detail
        self.kept = kept


class EmbeddingError(KorttyRagError):
    """The embedding runtime failed while embedding a batch."""


class SnapshotError(KorttyRagError):
    """A snapshot on disk is missing, truncated, corrupted or could not be written."""


class StoreFolderChangedError(SnapshotError):
    """Something other than kortty-rag put a symbolic link (or another kind of entry) where the store
    folder or a part of it should be; nothing was read, written or deleted through it."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(
            msg(
                "The store folder was changed by something else: {path} is {what}, not what "
                "kortty-rag created; nothing was read, written or deleted through it.",
                path=path,
                what=what,
            ),
            hint=msg(
                "Move {path} out of the store folder (check what it points to first), then "
                "{rebuild}; or delete the store (only kortty-rag's own files are removed).",
                path=path,
                rebuild=run_on(Operation.STORE_REBUILD),
            ),
        )
        self.path = path


class RemovalIncompleteError(SnapshotError):
    """A source was removed from the store definition, but deleting its chunks failed; they are no
    longer retrieved and the next index job on the store deletes them."""


class IncompatibleIndexError(SnapshotError):
    """The snapshot was built with another embedding model or configuration."""

    user_error = True


class StoreBusyError(KorttyRagError):
    """Another scan or indexing job holds the store's lock."""

    user_error = True


class Cancelled(KorttyRagError):
    """The user cancelled a job; nothing was activated."""

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message or msg("Cancelled; the store still answers from its last completed index.")
        )


class ChatError(KorttyRagError):
    """A chat model could not be loaded, or a chat endpoint refused, failed or timed out.

    Messages name the model file or endpoint and never contain an API key.
    """

    def __init__(self, message: str, *, endpoint: str = "", hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.endpoint = endpoint


class SecretStoreError(KorttyRagError):
    """The OS keyring is missing, refused a secret, or silently dropped it.

    Messages name the store and the keyring backend, never the secret itself.
    """


class RemoteStoreError(KorttyRagError):
    """A Qdrant service failed, refused a request, timed out or could not be reached.

    ``endpoint`` is the base URL (which never carries credentials: the endpoint rule refuses them);
    messages never contain the API key.
    """

    def __init__(
        self, message: str, *, endpoint: str = "", hint: str = "", status: int | None = None
    ) -> None:
        super().__init__(message, hint=hint)
        self.endpoint = endpoint
        self.status = status  # the HTTP status, when the service answered with an error


class IncompatibleCollectionError(RemoteStoreError):
    """An existing Qdrant collection does not fit the store (dimension, distance, vector names)."""

    user_error = True


class DamagedFileError(ConfigError):
    """A file the product wrote (a store definition, the settings file, a model record) exists but
    cannot be used: it is not UTF-8 JSON, or a field has the wrong type or value. ``field`` is the
    path of the wrong field inside the file (empty when the whole file is unreadable)."""

    def __init__(self, message: str, *, path: Path, field: str = "", hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.path = path
        self.field = field


class InvalidSettingError(DamagedFileError):
    """A store's settings (``store.settings.…``) hold a value the typed settings refuse — a value a
    person wrote there by hand, so a mistake in the request (exit 2) rather than a failure; the
    store is listed as DAMAGED like any other damaged definition."""

    user_error = True

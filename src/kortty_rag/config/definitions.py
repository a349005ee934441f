"""Reading one of the product's own JSON files (a store definition, the settings file, a model record)
with errors that name the file and the wrong field, and say what to do next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kortty_rag.decoding import FieldError, expect_object, parse
from kortty_rag.errors import ConfigError, DamagedFileError, InvalidSettingError
from kortty_rag.messages import msg

#: the fields of a store definition that are its typed settings (retrieval, Qdrant)
SETTINGS_FIELDS = "store.settings."
SETTINGS_HINT = msg(
    "Correct that value in the file, or delete it to use the default. Until then this store is "
    "listed as DAMAGED and every other store keeps working."
)


def damaged(label: str, path: Path, error: FieldError, hint: str) -> DamagedFileError:
    """The user-facing error for a file that exists but cannot be used: file, field, what was found.
    A refused value of a store's typed settings is :class:`InvalidSettingError` (exit 2)."""
    if error.field.startswith(SETTINGS_FIELDS):
        return InvalidSettingError(
            msg("{label} {path} is damaged: {error}", label=label, path=path, error=error.message),
            path=path,
            field=error.field,
            hint=SETTINGS_HINT,
        )
    return DamagedFileError(
        msg("{label} {path} is damaged: {error}", label=label, path=path, error=error.message),
        path=path,
        field=error.field,
        hint=hint,
    )


def read_definition(path: Path, label: str, hint: str) -> dict[str, Any] | None:
    """The top-level object of one of our JSON files; ``None`` when the file does not exist.

    Raises :class:`DamagedFileError` when it cannot be read, is not UTF-8 JSON or not an object.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(
            msg(
                "{label} {path} cannot be read ({reason})",
                label=label,
                path=path,
                reason=exc.strerror or exc,
            ),
            hint=msg("Fix the file's permissions (or the I/O error) and try again."),
        ) from exc
    try:
        return expect_object(parse(raw))
    except FieldError as exc:
        raise damaged(label, path, exc, hint) from None

"""Errors about one input of a request, named by field, so each front end can point at its own control
(the CLI at an option, the GUI at a form row) without the application layer naming either."""

from __future__ import annotations

from enum import StrEnum

from kortty_rag.errors import UsageError


class ProfileField(StrEnum):
    """The inputs of an AI profile."""

    NAME = "name"
    MODEL = "model"
    ENDPOINT = "endpoint"
    KEY_VARIABLE = "key_variable"
    KEY_SOURCE = "key_source"  # a variable or the keyring, not both
    BACKEND_OPTIONS = "backend_options"  # endpoint/key given for a local model


class ProfileFieldError(UsageError):
    """A :class:`UsageError` about one input; ``missing`` when the input was left empty. ``hint``
    is neutral; front ends may replace it with one that names their own control."""

    def __init__(
        self, field: ProfileField, message: str, *, hint: str = "", missing: bool = False
    ) -> None:
        super().__init__(message, hint=hint)
        self.field = field
        self.missing = missing

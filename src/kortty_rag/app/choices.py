"""The fixed choices a front end offers before it does anything — the presets and backends of an AI
profile, the kinds of request, the watcher's quiet time — for the CLI's argument parser, which must
stay quick to import (``kortty-rag --help``): this module loads nothing else of the application."""

from __future__ import annotations

from kortty_rag.models import DEFAULT_DEBOUNCE_SECONDS
from kortty_rag.profiles.kinds import PRESET_FAMILIES, Backend
from kortty_rag.profiles.roles import RequestKind

__all__ = ["DEFAULT_DEBOUNCE_SECONDS", "PRESET_FAMILIES", "Backend", "RequestKind"]

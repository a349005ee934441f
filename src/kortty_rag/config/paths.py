"""The product's folders (docs/DESIGN.md §1). ``KORTTY_HOME`` replaces ``~/.kortty``; every test sets it."""

from __future__ import annotations

import os
from pathlib import Path

ENV_HOME = "KORTTY_HOME"


def kortty_home() -> Path:
    """``$KORTTY_HOME`` if set, else ``~/.kortty``; always absolute."""
    value = os.environ.get(ENV_HOME)
    base = Path(value).expanduser() if value else Path.home() / ".kortty"
    return base.absolute()


def rag_dir() -> Path:
    return kortty_home() / "rag"


def stores_dir() -> Path:
    return rag_dir() / "stores"


def store_dir(store_id: str) -> Path:
    return stores_dir() / store_id


def models_dir() -> Path:
    return kortty_home() / "models"


def settings_file() -> Path:
    """Profiles, roles and other app-wide settings of this product.

    Not ``stores.json``: another application may already keep that name under ``~/.kortty/rag/``.
    """
    return rag_dir() / "kortty-rag-settings.json"

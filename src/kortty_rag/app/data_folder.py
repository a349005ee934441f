"""The product's data folder below ``KORTTY_HOME`` (stores, models, logs) and the small state files
a front end keeps there (docs/DESIGN.md §1: the product writes only below ``KORTTY_HOME``, never in a
system-wide settings location)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.paths import rag_dir

#: marks a state file as this product's (another program's file of the same name is ignored)
_PRODUCT = "kortty-rag"


def data_folder() -> Path:
    """The folder everything of this ``KORTTY_HOME`` lives in (what *Open data folder* opens)."""
    return rag_dir()


def log_folder() -> Path:
    return rag_dir() / "logs"


def load_state(file_name: str) -> dict[str, Any]:
    """A front end's saved state (``{}`` when there is none or it cannot be read)."""
    try:
        data = json.loads((rag_dir() / file_name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("product") == _PRODUCT else {}


def save_state(file_name: str, values: dict[str, Any]) -> None:
    """Replace a front end's saved state atomically."""
    write_json_atomic(rag_dir() / file_name, {"product": _PRODUCT} | values)

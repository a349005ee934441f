"""Window state that survives restarts, kept beside the stores (never in a system-wide QSettings
location: the product writes only below KORTTY_HOME)."""

from __future__ import annotations

import base64
from typing import Any

from kortty_rag.app import data_folder

STATE_FILE = "kortty-rag-gui.json"


def load_state() -> dict[str, Any]:
    return data_folder.load_state(STATE_FILE)


def save_state(values: dict[str, Any]) -> None:
    data_folder.save_state(STATE_FILE, values)


def encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decode(text: object) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        return base64.b64decode(text)
    except ValueError:
        return None

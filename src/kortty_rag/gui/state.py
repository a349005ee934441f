"""Window state that survives restarts, kept beside the stores (never in a system-wide QSettings
location: the product writes only below KORTTY_HOME)."""

from __future__ import annotations

import base64
import json
from typing import Any

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.paths import rag_dir

STATE_FILE = "kortty-rag-gui.json"


def load_state() -> dict[str, Any]:
    try:
        data = json.loads((rag_dir() / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("product") == "kortty-rag" else {}


def save_state(values: dict[str, Any]) -> None:
    write_json_atomic(rag_dir() / STATE_FILE, {"product": "kortty-rag"} | values)


def encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decode(text: object) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        return base64.b64decode(text)
    except ValueError:
        return None

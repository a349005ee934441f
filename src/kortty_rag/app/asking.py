"""Asking an AI profile a question with the retrieved context of its role's stores (docs/DESIGN.md
§12): the front ends' door to :mod:`kortty_rag.profiles.ask`."""

from __future__ import annotations

from kortty_rag.profiles.ask import Answer, ask
from kortty_rag.profiles.chat import GenerationOptions

__all__ = ["Answer", "GenerationOptions", "ask"]

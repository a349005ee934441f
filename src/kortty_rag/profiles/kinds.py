"""What an AI profile can be: its backend and its chat-template family (no I/O, imported by the
CLI's argument declarations, which must stay light)."""

from __future__ import annotations

from enum import StrEnum

PRESET_FAMILIES = ("generic", "chatml", "llama3", "gemma", "mistral", "qwen", "phi")


class Backend(StrEnum):
    LLAMA_CPP = "llama.cpp"
    OPENAI = "openai"

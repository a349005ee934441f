"""Prompt assembly: action contract, AI capabilities, retrieved context, model-family preset (docs/DESIGN.md §12).

The retrieved block goes after the action contract and the capabilities and before the model-family
prompt preset, so the rules come first and the preset's formatting guidance stays closest to the
request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kortty_rag.models import Role

ACTION_CONTRACT = {
    Role.TEXT: (
        "You are the Text assistant of korTTY. Answer the user's request accurately and concisely. "
        "If you do not know something, say so instead of guessing."
    ),
    Role.CODING: (
        "You are the Coding assistant of korTTY. Answer programming questions with correct, "
        "runnable code and short explanations. If you are unsure, say so instead of guessing."
    ),
}
CAPABILITIES = (
    "Capabilities: you can read the messages of this conversation and the retrieved context below. "
    "You cannot run commands, open files, browse the web or call tools in this conversation."
)
PRESETS = {
    "generic": "Format: plain text; use short paragraphs and lists where they help.",
    "chatml": "Format: Markdown; keep answers focused.",
    "llama3": "Format: Markdown; keep answers focused.",
    "gemma": "Format: plain text with short paragraphs.",
    "mistral": "Format: Markdown; keep answers focused.",
    "qwen": "Format: Markdown; keep answers focused.",
    "phi": "Format: plain text with short paragraphs.",
}


@dataclass(frozen=True)
class PromptParts:
    contract: str
    capabilities: str
    context_block: str
    preset: str

    def system(self) -> str:
        return "\n\n".join(
            part
            for part in (self.contract, self.capabilities, self.context_block, self.preset)
            if part
        )


def prompt_parts(role: Role, preset: str, context_block: str) -> PromptParts:
    return PromptParts(
        ACTION_CONTRACT[role], CAPABILITIES, context_block, PRESETS.get(preset, PRESETS["generic"])
    )


def build_messages(parts: PromptParts, request: str) -> list[dict[str, str]]:
    """Chat messages for an OpenAI-style API or llama.cpp's chat completion."""
    return [{"role": "system", "content": parts.system()}, {"role": "user", "content": request}]


_CITATION = re.compile(r"\[([^\[\]]{1,80})\]")
_MARKER = re.compile(r"\bR\d+\b")


def cited_markers(answer: str, markers: Sequence[str]) -> list[str]:
    """The markers of ``markers`` that ``answer`` cites (``[R1]``, ``[R1, R2]``, ``[R1][R3]``), in
    the order given."""
    cited = {m for group in _CITATION.findall(answer) for m in _MARKER.findall(group)}
    return [m for m in markers if m in cited]

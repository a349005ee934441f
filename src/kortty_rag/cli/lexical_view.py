"""What the CLI says about a store's lexical language (:mod:`kortty_rag.app.lexical_state`)."""

from __future__ import annotations

from kortty_rag import languages
from kortty_rag.app.lexical_state import LexicalState


def describe(state: LexicalState, store_name: str) -> str:
    """One sentence for people."""
    text = f"Lexical language: {languages.describe(state.setting)}"
    if state.error is not None:
        return f"{text}; the index's language could not be read ({state.error})."
    if state.language is None:
        first = "detects it" if state.setting == languages.AUTO else "uses it"
        return f"{text}; the store is not indexed yet (its first indexing {first})."
    used = languages.describe(state.language)
    if state.rebuild_needed:
        return (
            f"{text}; its points are analysed in {used} and keep their terms until "
            f"`kortty-rag store rebuild {store_name!r}` re-indexes them."
        )
    if state.reanalysed:
        return f"{text}; re-analysed {state.reanalysed} chunks in {used}, nothing re-embedded."
    return f"{text}; the index is analysed in {used}."

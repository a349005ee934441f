"""The lexical language of a store (``settings.retrieval.language``): its values and their names.

``auto`` (the default) detects the language once from the store's text; ``none`` uses no stemming
and no stopwords; any other value is the ISO 639-1 code of a language the lexical analyzer can stem
(:data:`kortty_rag.index.analysis.LANGUAGES`).
"""

from __future__ import annotations

from kortty_rag.index.analysis import LANGUAGES, NO_LANGUAGE

AUTO = "auto"
NONE = NO_LANGUAGE

#: English names of the languages the analyzer stems, by code
NAMES: dict[str, str] = {
    "ar": "Arabic",
    "ca": "Catalan",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "es": "Spanish",
    "fi": "Finnish",
    "fr": "French",
    "hi": "Hindi",
    "hu": "Hungarian",
    "id": "Indonesian",
    "it": "Italian",
    "nl": "Dutch",
    "no": "Norwegian",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sv": "Swedish",
    "tr": "Turkish",
}

#: every value the setting may have: ``auto``, ``none``, then the codes
CHOICES: tuple[str, ...] = (AUTO, NONE, *sorted(LANGUAGES))


def allowed() -> str:
    return ", ".join(CHOICES)


def check(value: str) -> str | None:
    """``None`` if ``value`` is a valid setting, else the problem (for the definition's decoder)."""
    return None if value in CHOICES else f"must be one of {allowed()}"


def describe(code: str | None) -> str:
    """A language for people: ``German (de)``, ``none (no stemming or stopwords)``."""
    if code is None:
        return "not decided yet"
    if code == AUTO:
        return "auto (detected from the text)"
    if code == NONE:
        return "none (no stemming or stopwords)"
    return f"{NAMES.get(code, code)} ({code})"

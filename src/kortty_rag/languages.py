"""The lexical language of a store (``settings.retrieval.language``): its values and their names.

``auto`` (the default) detects the language once from the store's text; ``none`` uses no stemming
and no stopwords; any other value is the ISO 639-1 code of a language the lexical analyzer can stem
(:data:`kortty_rag.index.analysis.LANGUAGES`).
"""

from __future__ import annotations

from kortty_rag.index.analysis import LANGUAGES, NO_LANGUAGE
from kortty_rag.messages import msg

AUTO = "auto"
NONE = NO_LANGUAGE

#: English names of the languages the analyzer stems, by code (translatable: ``msg``)
NAMES: dict[str, str] = {
    "ar": msg("Arabic"),
    "ca": msg("Catalan"),
    "da": msg("Danish"),
    "de": msg("German"),
    "el": msg("Greek"),
    "en": msg("English"),
    "es": msg("Spanish"),
    "fi": msg("Finnish"),
    "fr": msg("French"),
    "hi": msg("Hindi"),
    "hu": msg("Hungarian"),
    "id": msg("Indonesian"),
    "it": msg("Italian"),
    "nl": msg("Dutch"),
    "no": msg("Norwegian"),
    "pt": msg("Portuguese"),
    "ro": msg("Romanian"),
    "ru": msg("Russian"),
    "sv": msg("Swedish"),
    "tr": msg("Turkish"),
}

#: every value the setting may have: ``auto``, ``none``, then the codes
CHOICES: tuple[str, ...] = (AUTO, NONE, *sorted(LANGUAGES))


def allowed() -> str:
    return ", ".join(CHOICES)


def check(value: str) -> str | None:
    """``None`` if ``value`` is a valid setting, else the problem (for the definition's decoder)."""
    return None if value in CHOICES else msg("must be one of {choices}", choices=allowed())


def describe(code: str | None) -> str:
    """A language for people: ``German (de)``, ``none (no stemming or stopwords)``."""
    if code is None:
        return msg("not decided yet")
    if code == AUTO:
        return msg("auto (detected from the text)")
    if code == NONE:
        return msg("none (no stemming or stopwords)")
    return msg("{language} ({code})", language=NAMES.get(code, code), code=code)

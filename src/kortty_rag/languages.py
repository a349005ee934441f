"""The lexical language of a store (``settings.retrieval.language``): its values and their names.

``auto`` (the default) detects the language once from the store's text; ``none`` uses no stemming
and no stopwords; any other value is the ISO 639-1 code of a language the lexical analyzer
(:mod:`kortty_rag.index.analysis`) can stem: :data:`LANGUAGES`. A base module: it imports nothing of
the layers above.
"""

from __future__ import annotations

from kortty_rag.messages import msg

#: the value of "no language": no stemming, no stopwords
NO_LANGUAGE = "none"

#: ISO 639-1 code -> (Snowball stemmer, stopword list of the ``stop-words`` package). English uses the
#: Snowball project's own English stop list instead (``stopwords_english.txt``): the package's English
#: list has 1,333 words and drops words a notes or code store needs ("keys", "value", "system", "test").
LANGUAGES: dict[str, tuple[str, str]] = {
    "ar": ("arabic", "arabic"),
    "ca": ("catalan", "catalan"),
    "da": ("danish", "danish"),
    "de": ("german", "german"),
    "el": ("greek", "greek"),
    "en": ("english", "english"),
    "es": ("spanish", "spanish"),
    "fi": ("finnish", "finnish"),
    "fr": ("french", "french"),
    "hi": ("hindi", "hindi"),
    "hu": ("hungarian", "hungarian"),
    "id": ("indonesian", "indonesian"),
    "it": ("italian", "italian"),
    "nl": ("dutch", "dutch"),
    "no": ("norwegian", "norwegian"),
    "pt": ("portuguese", "portuguese"),
    "ro": ("romanian", "romanian"),
    "ru": ("russian", "russian"),
    "sv": ("swedish", "swedish"),
    "tr": ("turkish", "turkish"),
}

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

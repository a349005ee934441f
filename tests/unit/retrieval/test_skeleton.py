"""The skeleton is a fixed point of folding, and a character may have several readings (issue 23,
item 4): marks removed, NFKC, case folding, Unicode's confusables and the letter or digit a
character's name gives it, repeated until nothing changes."""

from __future__ import annotations

import unicodedata

import pytest

from kortty_rag.retrieval.skeleton import (
    BRACKET,
    UNKNOWN,
    fold,
    name_reading,
    placeholders,
    readings,
    skeleton_of,
)


@pytest.mark.parametrize(
    ("char", "expected"),
    [
        (
            "\u01a6",
            {"r"},
        ),  # LATIN LETTER YR: its prototype R, and its case fold ʀ, a small capital R
        ("\u0280", {"r"}),  # LATIN LETTER SMALL CAPITAL R
        ("\ua75a", {"2", "r"}),  # LATIN CAPITAL LETTER R ROTUNDA: confusable with 2, named an R
        ("\u1f18", {"c", "e"}),  # Ἐ: the prototype of Ε as written (E) and of ε case-folded
        ("\u277c", {"7", UNKNOWN}),  # DINGBAT NEGATIVE CIRCLED DIGIT SEVEN: a 7 by name only
    ],
)
def test_readings(char: str, expected: set[str]) -> None:
    assert readings(char) == expected


def test_letters_read_by_their_names() -> None:
    assert "r" in readings("\u16b1")  # RUNIC LETTER RAIDO RAD REID R
    assert "r" in readings("\ua75b")  # LATIN SMALL LETTER R ROTUNDA
    assert {"r", BRACKET} <= readings("\U0001f1f7")  # REGIONAL INDICATOR SYMBOL LETTER R
    assert name_reading("\u090b") == ""  # DEVANAGARI LETTER VOCALIC R: a vowel sound
    assert name_reading("\u3119") == ""  # BOPOMOFO LETTER S: romanises a syllable
    assert name_reading("\u1d19") == ""  # LATIN LETTER SMALL CAPITAL REVERSED R: looks like я


def test_ascii_folds_as_before() -> None:
    assert skeleton_of("Im RETRIEVED 10|") == "irn retrieved lo|"


def test_a_character_with_several_readings_is_a_placeholder() -> None:
    placeholder = fold("\ua75a")
    assert placeholders()[placeholder] == {"2", "r"}


def test_the_skeleton_is_a_fixed_point() -> None:
    """Folding a skeleton again changes nothing, for every assigned character; only a symbol that a
    letter or a full stop folds to stays as written rather than a bracket ("。" folds to "˳", a
    modifier symbol, and is no bracket)."""
    changed = []
    for cp in range(0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cn", "Cs"):
            continue
        for part in fold(ch):
            if fold(part) not in (part, BRACKET):
                changed.append(f"U+{cp:04X}")
    assert changed == []

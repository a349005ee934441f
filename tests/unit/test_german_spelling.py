"""The German catalogue is spelled right (issue 29, point 9): every word of every German translation
in ``resources/translations/kortty_rag_de.ts`` is known to hunspell's German dictionary (Debian's
``hunspell-de-de``) or listed in ``tests/data/spelling/de_words.txt`` — product terms (korTTY, GGUF,
Qdrant, KI-Profil), compounds the dictionary lacks, literal names (store.json, --json). A new word
hunspell does not know fails until someone looked at it and either fixed it or added it to the list;
a listed word no translation uses any more fails too, so the list stays a list of what is there.

The translations are read with the standard library's XML parser and split by hunspell itself, not
by anything of the product's."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "resources" / "translations" / "kortty_rag_de.ts"
WORDS = ROOT / "tests" / "data" / "spelling" / "de_words.txt"
REQUIRE = "KORTTY_REQUIRE_HUNSPELL"


def german_text() -> str:
    """Every German translation, one per line: fields (``{store}``) and mnemonics (``&Neu``) out."""
    lines = []
    for element in ET.parse(CATALOGUE).getroot().iter():
        if element.tag in ("translation", "numerusform") and element.text:
            text = html.unescape(element.text)
            text = re.sub(r"\{[^{}]*\}", " ", text)  # a value filled in later
            text = re.sub(r"&(?=\w)", "", text).replace("&&", "&")  # Alt+letter marks
            lines.append(text)
    return "\n".join(lines) + "\n"


def hunspell() -> str:
    found = shutil.which("hunspell")
    has_german = Path("/usr/share/hunspell/de_DE.dic").exists()
    if found is None or not has_german:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail("hunspell with its German dictionary (hunspell-de-de) is required here")
        pytest.skip("hunspell with its German dictionary (hunspell-de-de) is not installed")
    return found


def unknown_words(text: str) -> set[str]:
    result = subprocess.run(
        [hunspell(), "-d", "de_DE", "-l"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(result.stdout.split())


def listed() -> set[str]:
    return {
        line.strip()
        for line in WORDS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }


def test_every_german_word_is_spelled_right_or_a_listed_term() -> None:
    unknown = unknown_words(german_text())
    assert sorted(unknown - listed()) == []


def test_the_word_list_names_only_words_the_catalogue_uses() -> None:
    unknown = unknown_words(german_text())
    assert sorted(listed() - unknown) == []


def test_the_check_finds_a_misspelling() -> None:
    """The check can fail: a German sentence with two typos is caught, word by word."""
    sentence = "Der Speicher antwortet weiter aus seinem lezten vollständigen Indx heraus.\n"
    assert unknown_words(sentence) == {"lezten", "Indx"}

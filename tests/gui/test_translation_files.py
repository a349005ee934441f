"""The translation files (resources/translations): complete, current with the code, compiled from
what is committed, and faithful to their sources (fields, plural markers, mnemonics; no command
line in the German the desktop app shows). Read here with ElementTree, not with the product's or the
update script's own reader."""

from __future__ import annotations

import re
import shutil
import string
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "resources" / "translations"
SCRIPT = ROOT / "scripts" / "translations.py"


def messages(name: str) -> list[tuple[str, ET.Element]]:
    root = ET.parse(FOLDER / name).getroot()
    return [
        (context.findtext("name") or "", message)
        for context in root.iter("context")
        for message in context.iter("message")
    ]


def translations_of(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    assert translation is not None
    if message.get("numerus") == "yes":
        return [form.text or "" for form in translation.iter("numerusform")]
    return [translation.text or ""]


def fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def mnemonics(text: str) -> int:
    return len(re.findall(r"&[^&]", text.replace("&&", "")))


@pytest.mark.parametrize("name", ["kortty_rag_de.ts", "kortty_rag_en.ts"])
def test_every_entry_is_finished(name: str) -> None:
    entries = messages(name)
    assert entries, f"{name} is empty"
    unfinished = [
        f"[{context}] {message.findtext('source')!r}: {message.find('translation').get('type')}"  # type: ignore[union-attr]
        for context, message in entries
        if message.find("translation").get("type")  # type: ignore[union-attr]
        in ("unfinished", "obsolete", "vanished")
    ]
    assert unfinished == []
    empty = [
        f"[{context}] {message.findtext('source')!r}"
        for context, message in entries
        if not all(text.strip() for text in translations_of(message))
    ]
    assert empty == []


def test_german_keeps_fields_plurals_and_mnemonics() -> None:
    wrong = []
    for context, message in messages("kortty_rag_de.ts"):
        source = message.findtext("source") or ""
        forms = translations_of(message)
        if message.get("numerus") == "yes":
            assert len(forms) == 2, f"[{context}] {source!r}: German has two plural forms"
        for form in forms:
            if fields(form) != fields(source):
                wrong.append(f"[{context}] {source!r} → {form!r}: fields")
            if ("%n" in source or "%Ln" in source) and "%n" not in form and "%Ln" not in form:
                wrong.append(f"[{context}] {source!r} → {form!r}: %n")
            if mnemonics(form) != mnemonics(source):
                wrong.append(f"[{context}] {source!r} → {form!r}: mnemonic")
    assert wrong == []


def test_english_plural_forms_say_one_and_many() -> None:
    entries = messages("kortty_rag_en.ts")
    assert all(message.get("numerus") == "yes" for _, message in entries)
    for context, message in entries:
        singular, plural = translations_of(message)
        assert "(s)" not in singular + plural, f"[{context}] {singular!r} / {plural!r}"


def test_the_german_names_buttons_not_commands() -> None:
    """German is the desktop app's alone (the CLI stays English), the core's messages included:
    it names what to press, never a command line or an option."""
    command = re.compile(
        r"kortty-rag (?:store|source|models|profile|role|search|ask|serve|watch|doctor|import|"
        r"desktop)\b|(?<![\w-])--[a-z][a-z-]+"
    )
    found = [
        f"{message.findtext('source')!r} → {form!r}"
        for _, message in messages("kortty_rag_de.ts")
        for form in translations_of(message)
        if command.search(form)
    ]
    assert found == []


def check(package: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--package", str(package)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_files_are_current_with_the_code(tmp_path: Path) -> None:
    result = check(ROOT / "src" / "kortty_rag")
    assert result.returncode == 0, result.stdout + result.stderr
    # and the check fails when the code has a string the translation lacks
    copy = tmp_path / "kortty_rag"
    shutil.copytree(ROOT / "src" / "kortty_rag", copy, symlinks=True)
    target = copy / "gui" / "status_area.py"
    target.write_text(
        target.read_text(encoding="utf-8")
        + '\n\ndef _new() -> str:\n    return translate("StatusArea", "A sentence nobody translated")\n',
        encoding="utf-8",
    )
    failed = check(copy)
    assert failed.returncode == 1
    assert "kortty_rag_de.ts is not current" in failed.stderr

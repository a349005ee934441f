"""Office documents, EPUB, RTF and HTML for tests, written by pandoc (Debian's package), never by the
libraries the product reads them with.

Without pandoc the tests that need it are skipped with the reason, unless ``KORTTY_REQUIRE_PANDOC=1``
(``.ci/run`` installs pandoc and sets it), which makes a missing pandoc a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REQUIRE = "KORTTY_REQUIRE_PANDOC"
#: the suffixes pandoc writes that the product reads, and the product's format of each
FORMATS = {
    "docx": "DOCX",
    "odt": "ODT",
    "epub": "EPUB",
    "pptx": "PPTX",
    "rtf": "RTF",
    "html": "HTML",
}

#: a German note with three heading levels, a list, a table, a footnote and speaker notes (PPTX)
GARDEN = """\
---
title: Gartenjahr
lang: de-DE
---

# Tomaten im Gewächshaus

Die Tomaten brauchen täglich Wasser und viel Wärme; Größe und Süße kommen im Juli.

## Gießen am Morgen

Morgens an der Wurzel gießen, nie über die Blätter, damit keine Braunfäule entsteht.

- Regenwasser aus der Tonne
- lauwarm, nicht eiskalt

::: notes
Sprechernotiz: an die Mulchschicht aus Stroh erinnern.
:::

## Düngen mit Jauche

Alle zwei Wochen mit verdünnter Brennnesseljauche düngen.[^jauche]

| Sorte | Wasser pro Tag |
|-------|----------------|
| Ochsenherz | zwei Liter |
| Kirschtomate | ein Liter |

[^jauche]: Ein Teil Jauche auf zehn Teile Wasser.

# Rosen schneiden

Im März, wenn die Forsythien blühen, auf drei bis fünf Augen zurückschneiden.

## Kletterrosen

Bei Kletterrosen nur die alten Triebe über dem Boden entfernen.
"""


def pandoc() -> str:
    """The pandoc command, or skip (fail with ``KORTTY_REQUIRE_PANDOC=1``)."""
    found = shutil.which("pandoc")
    if found:
        return found
    if os.environ.get(REQUIRE) == "1":
        pytest.fail("pandoc is required (KORTTY_REQUIRE_PANDOC=1) but not installed")
    pytest.skip("pandoc (Debian package pandoc) is not installed")


def write_with_pandoc(markdown: str, path: Path, *, standalone: bool = True) -> Path:
    """``markdown`` written by pandoc in the format of ``path``'s suffix."""
    source = path.with_name(path.name + ".source.md")
    source.write_text(markdown, encoding="utf-8")
    command = [pandoc(), "--from", "markdown", str(source), "--output", str(path)]
    if standalone:
        command.insert(1, "--standalone")
    subprocess.run(command, check=True, timeout=120, capture_output=True)
    source.unlink()
    return path


def garden_documents(folder: Path) -> dict[str, Path]:
    """The garden note in every format pandoc writes that the product reads, by suffix."""
    folder.mkdir(parents=True, exist_ok=True)
    return {fmt: write_with_pandoc(GARDEN, folder / f"garten.{fmt}") for fmt in FORMATS}

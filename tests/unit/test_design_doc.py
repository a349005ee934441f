"""The design the code cites is part of the product: ``docs/DESIGN.md`` exists, every section a
comment or document cites ("docs/DESIGN.md §9", "§3–§5, §13" after it) is one of its headings, and
nothing cites an outside specification a user's clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "DESIGN.md"
#: a citation and the section numbers that follow it in the same parenthesis or sentence
CITATION = re.compile(r"DESIGN\.md\s+((?:§\d+(?:\s*[–-]\s*§\d+)?(?:\s*,\s*|\s+and\s+)?)+)")
OUTSIDE = re.compile(r"\bSPEC\s*§|\bSPEC\.md\b|\.\./shared\b")
#: the benchmarks may read data sets kept beside the checkout (and say so), not cite a specification
OUTSIDE_BENCHMARKS = re.compile(r"\bSPEC\s*§|\bSPEC\.md\b")


def _texts() -> list[Path]:
    roots = [ROOT / "src", ROOT / "tests", ROOT / "benchmarks", ROOT / "scripts", ROOT / "docs"]
    files = [p for r in roots if r.exists() for p in r.rglob("*") if p.suffix in {".py", ".md"}]
    return [*files, ROOT / "README.md"]


def _sections() -> set[int]:
    return {int(n) for n in re.findall(r"^## §(\d+) ", DESIGN.read_text(encoding="utf-8"), re.M)}


def _cited(text: str) -> set[int]:
    numbers: set[int] = set()
    for match in CITATION.finditer(text):
        for low, high in re.findall(r"§(\d+)(?:\s*[–-]\s*§(\d+))?", match.group(1)):
            numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def test_the_design_has_its_numbered_sections_in_order() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## §(\d+) ", text, re.M)]
    assert numbers == list(range(1, 16))
    assert "## Threading and jobs" in text and "## Layers" in text
    assert "## Languages and accessibility" in text


def test_every_cited_section_exists() -> None:
    sections = _sections()
    cited: dict[int, list[str]] = {}
    for path in _texts():
        for number in _cited(path.read_text(encoding="utf-8", errors="replace")):
            cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    assert len(cited) >= 10, "the code is expected to cite the design"
    missing = {n: files for n, files in cited.items() if n not in sections}
    assert not missing


def test_nothing_cites_an_outside_specification() -> None:
    offenders = []
    for path in _texts():
        if path == Path(__file__):
            continue
        rule = OUTSIDE_BENCHMARKS if path.is_relative_to(ROOT / "benchmarks") else OUTSIDE
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines()
        ):
            if rule.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    assert not offenders


def test_the_citation_pattern_reads_ranges_and_lists() -> None:
    assert _cited("(docs/DESIGN.md §3–§5, §13)") == {3, 4, 5, 13}
    assert _cited("see docs/DESIGN.md §9.") == {9}
    assert _cited("docs/DESIGN.md §6, §7 and more") == {6, 7}
    assert _cited("no citation §4 here") == set()

"""Build ``benchmarks/data/sphinx-sections``: questions whose answer is one section of a reST document.

The corpus is the Sphinx documentation's reStructuredText sources (``doc/**/*.rst`` of the PyPI sdist
``sphinx==7.4.7``, BSD licence; the sdist's SHA-256 is checked). Each question is the first sentence of
a section's body, and that sentence is removed from the indexed copy of the document, so the question
cannot find itself; the answer is the rest of that section. Written in BEIR's layout, plus the spans:

* ``corpus.jsonl``: one document per ``.rst`` file, ``_id`` = its path below ``doc/``, ``text`` = the
  file's text as indexed (the chosen sentences removed; UTF-8, LF line ends, no BOM), ``format``;
* ``queries.jsonl``: ``_id``, ``text`` (the sentence, inline markup reduced to its words);
* ``qrels/test.tsv``: the document that holds the answer (score 1);
* ``answers.jsonl``: per query the document, the answer section's heading path, its level, and the
  character span ``[start, end)`` of the section's body (below its title's underline, blank lines and
  trailing link targets trimmed) in the indexed text, plus the sentence as it stood in the file.

A question is taken from a section whose body starts with a plain paragraph (not indented, not a
directive, comment, list, table, field list or literal block; leading metadata markup such as link
targets, ``.. index::``, ``.. module::`` or ``.. versionadded::`` is passed over) whose first
sentence ends with ``.``, ``!`` or ``?`` — or is the whole paragraph and ends with ``:`` or ``::``,
introducing a list or an example (of ``::`` only the text goes, the literal-block marker stays) —
and has 8-40 words after its inline markup is reduced; the rest of the section must keep at least
12 words. A sentence that occurs anywhere else in the corpus (or twice as a question) is not used.
The Sphinx documentation has 480 titled sections, so the default of 400 questions takes every
candidate (257 with sphinx 7.4.7). When there are more candidates than wanted, a
seeded sample is taken (``--seed``, ``--questions``), so the set is the same on every machine.

The section reader is this file's own (regular expressions for reST titles: an underline, optionally
with an overline, of one repeated punctuation character at least as long as the title; levels in the
order the styles first appear): the oracle shares no code with the product it judges.

    .venv/bin/python benchmarks/build_sections_set.py [--sdist sphinx-7.4.7.tar.gz] [--out DIR]
        [--questions 400] [--seed 7]

Without ``--sdist`` it runs ``pip download --no-deps --no-binary :all: sphinx==7.4.7`` into a
temporary folder.
"""

from __future__ import annotations

import argparse
import bisect
import csv
import hashlib
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VERSION = "7.4.7"
SDIST = f"sphinx-{VERSION}.tar.gz"
SDIST_SHA256 = "242f92a7ea7e6c5b406fdc2615413890ba9f699114a9c09192d7dfead2ee9cfe"
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "sphinx-sections"
FORMAT = "reStructuredText"
MIN_WORDS, MAX_WORDS = 8, 40
#: words the rest of a section must keep, so that there is an answer left to find
MIN_REST_WORDS = 12
PIP_TIMEOUT = 600

# -- reST titles ----------------------------------------------------------------------------------

#: a line of one repeated punctuation character (reST adornment), nothing else
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*")
#: an explicit hyperlink target or anonymous target line (``.. _name:``, ``.. __: url``)
_TARGET = re.compile(r"\.\. _[^\n]*:.*|__ .*")


def adornment(line: str) -> str | None:
    """The adornment character of ``line``, if it is one."""
    m = _ADORNMENT.fullmatch(line.rstrip("\n"))
    return m.group(1) if m else None


@dataclass(frozen=True)
class Section:
    title: str
    path: tuple[str, ...]  # heading path, the title last
    level: int
    start: int  # where the title (or its overline) begins
    body_start: int  # first character after the underline line
    end: int  # where the next title begins (or the end of the text)


def _title(line: str, nxt: str, after: str) -> tuple[str | None, tuple[str, bool], int]:
    """A title starting at ``line`` (after a blank line): its text, its style (adornment character,
    overlined) and the lines it takes; ``None`` when there is none."""
    char, under = adornment(line), adornment(nxt)
    if char and nxt.strip() and not under and adornment(after) == char:
        same = len(after.rstrip()) == len(line.rstrip())
        return (nxt.strip(), (char, True), 3) if same else (None, ("", False), 1)
    if line.strip() and not line[0].isspace() and not char and under:
        long_enough = len(nxt.rstrip()) >= len(line.rstrip())
        return (line.strip(), (under, False), 2) if long_enough else (None, ("", False), 1)
    return None, ("", False), 1


def read_sections(text: str) -> list[Section]:
    """The titled sections of a reST text, in order (each one's own body, subsections excluded)."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    styles: list[tuple[str, bool]] = []
    found: list[tuple[str, int, int, int]] = []  # title, level, start, body_start
    blank_before = True
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\n")
        nxt = lines[i + 1].rstrip("\n") if i + 1 < len(lines) else ""
        after = lines[i + 2].rstrip("\n") if i + 2 < len(lines) else ""
        title, style, consumed = (
            _title(line, nxt, after) if blank_before else (None, ("", False), 1)
        )
        if title is not None:
            if style not in styles:
                styles.append(style)
            found.append((title, styles.index(style) + 1, offsets[i], offsets[i + consumed]))
            i += consumed
            blank_before = False
            continue
        blank_before = not line.strip()
        i += 1
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    for n, (title, level, start, body_start) in enumerate(found):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = found[n + 1][2] if n + 1 < len(found) else len(text)
        sections.append(Section(title, tuple(t for _, t in stack), level, start, body_start, end))
    return sections


def body_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without surrounding blank space and trailing link-target lines."""
    while True:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        line_start = text.rfind("\n", start, end) + 1
        line_start = max(line_start, start)
        if end > start and _TARGET.fullmatch(text[line_start:end].strip()):
            end = line_start
            continue
        return start, end


# -- first sentences ------------------------------------------------------------------------------

#: the first line of a paragraph that is not plain prose: directives, comments, targets, lists,
#: tables, field lists, line blocks, doctests, literal-block markers
_NOT_PROSE = re.compile(
    r"(\.\.|::|[*+\-•]\s|[*+\-]$|#\.\s|\(?\d+[.)]\s|\(?[a-zA-Z][.)]\s|\||=|\+[-=]|>>>|:[^:`\s][^:`]*:(\s|$))"
)
_ABBREVIATIONS = ("e.g", "i.e", "cf", "vs", "viz", "approx", "incl", "resp", "fig")
_ROLE = re.compile(r":[A-Za-z][\w:+.-]*:`([^`]*)`")
_LINK = re.compile(r"`([^`<]*?)\s*<[^`>]*>`__?")
_REF = re.compile(r"`([^`]+)`__?")
_LITERAL = re.compile(r"``(.+?)``")
_INTERPRETED = re.compile(r"`([^`]+)`")
_FOOTNOTE = re.compile(r"\s*\[(#[\w-]*|\*|\d+)\]_")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")
_SUBSTITUTION = re.compile(r"\|([^|\s][^|]*)\|_{0,2}")
_SIMPLE_REF = re.compile(r"(?<=\w)__?(?=[\s.,;:!?)]|$)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _role_text(content: str) -> str:
    """The words a role shows: ``title <target>`` gives the title, ``~a.b.c`` gives ``c``."""
    m = re.fullmatch(r"(.*?)\s*<[^<>]*>", content, re.S)
    if m and m.group(1):
        return m.group(1)
    content = content.lstrip("!")
    if content.startswith("~"):
        return content[1:].rsplit(".", 1)[-1]
    return content


def plain(sentence: str) -> str:
    """A sentence's inline markup reduced to the words a reader sees, on one line."""
    s = _FOOTNOTE.sub("", sentence)
    s = _ROLE.sub(lambda m: _role_text(m.group(1)), s)
    s = _LITERAL.sub(lambda m: m.group(1), s)
    s = _LINK.sub(lambda m: m.group(1), s)
    s = _REF.sub(lambda m: m.group(1), s)
    s = _INTERPRETED.sub(lambda m: m.group(1), s)
    s = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), s)
    s = _SUBSTITUTION.sub(lambda m: m.group(1), s)
    s = _SIMPLE_REF.sub("", s)
    s = s.replace("\\ ", "").replace("\\", "")
    return " ".join(s.split())


def first_sentence_end(paragraph: str) -> int | None:
    """Where the paragraph's first sentence ends (just after its ``.``, ``!`` or ``?``), or None.

    A mark inside inline literals or interpreted text does not count, nor one after a common
    abbreviation or one followed by a lower-case word."""
    in_literal = in_interpreted = False
    i = 0
    while i < len(paragraph):
        if paragraph.startswith("``", i):
            in_literal = not in_literal
            i += 2
            continue
        ch = paragraph[i]
        if in_literal:
            i += 1
            continue
        if ch == "`":
            in_interpreted = not in_interpreted
        elif ch in ".!?" and not in_interpreted:
            j = i + 1
            while j < len(paragraph) and paragraph[j] in "\"')]*":
                j += 1
            if j == len(paragraph):
                return j
            if paragraph[j].isspace():
                word = re.search(r"([\w.]+)$", paragraph[:i])
                following = paragraph[j:].lstrip()[:1]
                abbreviation = word is not None and word.group(1).lower() in _ABBREVIATIONS
                if not abbreviation and following and not following.islower():
                    return j
        i += 1
    return None


@dataclass(frozen=True)
class Candidate:
    doc: str
    section: Section
    sentence_start: int
    sentence_end: int  # the sentence itself
    cut_end: int  # the sentence and the space after it (the whole paragraph: its blank lines too)
    query: str


#: explicit markup that says nothing a reader asks about: metadata directives, targets, comments
_QUIET = re.compile(
    r"\.\. (?:_[^\n]*:|\|[^|]+\| |(?:[\w-]+:)?(?:index|module|currentmodule|versionadded|"
    r"versionchanged|deprecated|highlight|program|raw|cssclass|rst-class|default-role|"
    r"tabularcolumns|meta|namespace-push|namespace-pop)::|(?![^\n]*::)[^\n\[]*$)"
)


def skip_quiet_markup(text: str, start: int, end: int) -> int:
    """``start``, moved past leading quiet explicit markup (:data:`_QUIET`) and its indented lines."""
    while start < end:
        line_end = text.find("\n", start, end)
        line_end = end if line_end < 0 else line_end
        if not _QUIET.match(text[start:line_end]):
            return start
        start = line_end
        while start < end:  # the block's indented or blank lines
            nxt = text.find("\n", start + 1, end)
            line = text[start + 1 : end if nxt < 0 else nxt]
            if line.strip() and not line[0].isspace():
                start += 1
                break
            start = end if nxt < 0 else nxt
    return start


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def candidates(doc: str, text: str) -> list[Candidate]:
    """Sections of ``text`` whose body opens with a usable first sentence."""
    found: list[Candidate] = []
    for section in read_sections(text):
        start, end = body_span(text, section.body_start, section.end)
        start = skip_quiet_markup(text, start, end)
        if start >= end:
            continue
        line_start = text.rfind("\n", 0, start) + 1
        if line_start != start:  # the paragraph is indented: a block quote or definition
            continue
        first_line = text[start : text.find("\n", start) if "\n" in text[start:end] else end]
        if _NOT_PROSE.match(first_line):
            continue
        blank = _BLANK_LINE.search(text, start, end)
        para_end = end if blank is None else blank.start()
        paragraph = text[start:para_end]
        if any(line[:1].isspace() for line in paragraph.split("\n")[1:]):
            continue  # a definition list or a literal block follows: not a plain paragraph
        cut = first_sentence_end(paragraph)
        lead_in = paragraph.rstrip()
        if cut is None and lead_in.endswith(":"):
            cut = len(lead_in)  # one sentence that introduces a list, table or example
        if cut is None:
            continue
        sentence = paragraph[:cut]
        # "like this::" reads "like this:" and a literal block follows
        marker = sentence.endswith("::")
        query = plain(sentence[:-1] if marker else sentence)
        if not MIN_WORDS <= _words(query) <= MAX_WORDS or "`" in query or "|" in query:
            continue
        if len(query.split()) > MAX_WORDS or _words(query) < 0.6 * len(query.split()):
            continue  # mostly symbols, paths or numbers: not plain prose
        if marker:  # keep "::" on its own, so that the literal block stays one
            cut, cut_end = cut - 2, start + cut - 2
        elif cut == len(paragraph):  # the whole paragraph: take its blank lines with it
            cut_end = para_end
            while cut_end < end and text[cut_end] in " \t\n":
                cut_end += 1
        else:
            cut_end = start + cut
            while cut_end < para_end and text[cut_end] in " \t\n":
                cut_end += 1
        if _words(plain(text[cut_end:end])) < MIN_REST_WORDS:
            continue
        found.append(Candidate(doc, section, start, start + cut, cut_end, query))
    return found


# -- the set --------------------------------------------------------------------------------------


def normalise(text: str) -> str:
    """Strip a BOM and make every line end LF, as the product's text decoding does."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_sdist(sdist: Path) -> tuple[dict[str, str], str]:
    """``doc/**/*.rst`` of the sdist (path below ``doc/`` → text) and its licence text."""
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise SystemExit(f"{sdist}: SHA-256 {digest}, expected {SDIST_SHA256} (sphinx {VERSION})")
    docs: dict[str, str] = {}
    licence = ""
    prefix = f"sphinx-{VERSION}/"
    with tarfile.open(sdist, "r:gz") as archive:
        for member in archive.getmembers():
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            name = member.name[len(prefix) :]
            handle = archive.extractfile(member)
            if handle is None:
                continue
            if name == "LICENSE.rst":
                licence = handle.read().decode("utf-8")
            elif name.startswith("doc/") and name.endswith(".rst"):
                text = normalise(handle.read().decode("utf-8"))
                if text.strip():
                    docs[name[len("doc/") :]] = text
    return dict(sorted(docs.items())), licence


def download(folder: Path) -> Path:
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-binary",
        ":all:",
        "--dest",
        str(folder),
        f"sphinx=={VERSION}",
    ]
    subprocess.run(command, check=True, timeout=PIP_TIMEOUT)
    return folder / SDIST


def _cut(text: str, cuts: list[tuple[int, int]]) -> tuple[str, list[int], list[int]]:
    """``text`` without the ``cuts`` (sorted, disjoint) and what maps an old offset to the new one."""
    kept: list[str] = []
    starts: list[int] = []
    removed_before: list[int] = []
    position = removed = 0
    for start, end in cuts:
        kept.append(text[position:start])
        starts.append(start)
        removed_before.append(removed)
        removed += end - start
        position = end
    kept.append(text[position:])
    return "".join(kept), starts, [*removed_before, removed]


def _mapped(offset: int, starts: list[int], removed: list[int], cuts: list[tuple[int, int]]) -> int:
    """The new offset of an old one that does not lie inside a cut."""
    n = bisect.bisect_left(starts, offset)
    if n and offset < cuts[n - 1][1]:
        raise ValueError(f"offset {offset} lies inside a removed sentence")
    return offset - removed[n]


def _squeeze(text: str) -> str:
    return " ".join(text.split()).lower()


def build(
    docs: dict[str, str], questions: int, seed: int
) -> tuple[dict[str, str], list[dict[str, Any]], int]:
    """The indexed texts, the questions (with their answers) and how many candidates there were."""
    squeezed = [_squeeze(text) for text in docs.values()]

    def occurrences(needle: str) -> int:
        return sum(t.count(needle) for t in squeezed)

    pool: list[Candidate] = []
    seen: set[str] = set()
    for doc, text in docs.items():
        for c in candidates(doc, text):
            raw, key = _squeeze(text[c.sentence_start : c.sentence_end]), _squeeze(c.query)
            if key in seen or occurrences(raw) + (occurrences(key) if key != raw else 0) > 1:
                continue  # the sentence occurs elsewhere: the question could find itself
            seen.add(key)
            pool.append(c)
    found = len(pool)
    if len(pool) > questions:
        chosen = random.Random(seed).sample(pool, questions)
        pool = sorted(chosen, key=lambda c: (c.doc, c.sentence_start))
    by_doc: dict[str, list[Candidate]] = {}
    for c in pool:
        by_doc.setdefault(c.doc, []).append(c)
    indexed: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    for doc, text in docs.items():
        cuts = [(c.sentence_start, c.cut_end) for c in by_doc.get(doc, [])]
        indexed[doc], starts, removed = _cut(text, cuts)
        for c in by_doc.get(doc, []):
            section = c.section
            span = body_span(
                indexed[doc],
                _mapped(section.body_start, starts, removed, cuts),
                _mapped(section.end, starts, removed, cuts),
            )
            rows.append(
                {
                    "query-id": f"s{len(rows) + 1:04d}",
                    "doc": doc,
                    "text": c.query,
                    "heading": list(section.path),
                    "level": section.level,
                    "section_start": _mapped(section.start, starts, removed, cuts),
                    "span": list(span),
                    "sentence": text[c.sentence_start : c.sentence_end],
                }
            )
    return indexed, rows, found


def write(out: Path, indexed: dict[str, str], rows: list[dict[str, Any]], licence: str) -> None:
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with (out / "corpus.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for doc, text in indexed.items():
            record = {"_id": doc, "title": "", "text": text, "format": FORMAT}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    with (out / "queries.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write(json.dumps({"_id": row["query-id"], "text": row["text"]}) + "\n")
    with (out / "qrels" / "test.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["query-id", "corpus-id", "score"])
        for row in rows:
            writer.writerow([row["query-id"], row["doc"], 1])
    with (out / "answers.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            answer = {k: v for k, v in row.items() if k != "text"}
            handle.write(json.dumps(answer, ensure_ascii=False) + "\n")
    (out / "LICENSE-sphinx.rst").write_text(licence, encoding="utf-8", newline="\n")


def check(indexed: dict[str, str], rows: list[dict[str, Any]]) -> None:
    """Every span lies in its document, below its section's title, and holds no question."""
    for row in rows:
        text = indexed[row["doc"]]
        start, end = row["span"]
        assert 0 <= row["section_start"] < start < end <= len(text), row
        assert _squeeze(row["sentence"]) not in _squeeze(text), row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sdist", type=Path, help=f"{SDIST} (default: pip download it)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--questions", type=int, default=400, help="at most this many (400)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sphinx-sdist-") as tmp:
        sdist = args.sdist or download(Path(tmp))
        docs, licence = read_sdist(sdist)
    indexed, rows, found = build(docs, args.questions, args.seed)
    check(indexed, rows)
    write(args.out, indexed, rows, licence)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(
        f"{args.out}: {len(indexed)} documents, {len(rows)} questions "
        f"(of {found} candidates), {size / 1e6:.2f} MB"
    )


if __name__ == "__main__":
    main()

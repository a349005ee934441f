"""Build ``benchmarks/data/links``: questions whose answer is in the page another page links to.

The corpus is four mdBook books of the Rust documentation as Debian ships them rendered to HTML
(``rust-doc_1.63.0+dfsg1-2_all.deb``, the package's SHA-256 is checked; the books are MIT or
Apache-2.0): *The Rust Programming Language*, *The Rust Reference*, *Rust by Example* and *The
Rustonomicon*. Each page of a book's table of contents is turned into a Markdown note: its
``<main>`` without mdBook's chrome (header anchors, hidden "boring" code lines, pictures) through
pandoc (``-t gfm --wrap=none``), headings moved up so that the first is ``#``, a front matter
holding the title as an alias. A link to another page of the four books becomes a relative ``.md``
link (with its anchor); any other relative link (the standard library's API pages) and in-page
anchors become plain text; web links stay. Then a seeded share (:data:`WIKI_SHARE`) of the links to
pages whose file name is unique in the vault is written as a wikilink: ``[[name#Heading|label]]``
when the link had an anchor; else ``[[Title]]`` or ``[[Title|label]]`` (resolved through the front
matter's alias) when the label is the page's title and for a seeded share (:data:`ALIAS_SHARE`) of
the others; else ``[[name|label]]``. Links across the books resolve: the vault is one folder.

**Linked questions** (``qrels/test.tsv``; HotpotQA-style bridges): a sentence of a prose paragraph
of page A that links to exactly one other page B, asked with A's title in front (``"<A's title>:
<sentence>"``, links read as their labels). The judged answer is B (score 2), A scores 1. The
sentence must start with a capital, have 8-50 words, at least 5 of them outside link labels, occur
once in the corpus, and share no run of 8 words with B (nor be in B); B must have at least 80 words.
At most :data:`PER_PAGE` questions link from one A and to one B (no hub dominates). In the indexed
copy of A the sentence is replaced by its link(s) to B alone (label and target): A keeps the edge to
B that expansion needs, but not the sentence, which would make A a perfect match. ``answers.jsonl``
says for each question how its kept link is written (``markdown``, ``wikilink``, ``wikilink-alias``,
``wikilink-heading``) and whether the question names B's title (``title_named``: such a B is easier
to find without the link).

**Direct questions** (``qrels/direct.tsv``): a section's first sentence with no link in it, asked
alone and removed from the indexed page (as ``build_sections_set.py`` does); the answer is that page
(score 1). 8-40 words, at least 12 words left in the section, once in the corpus, one per page.

Both groups are seeded samples (``--seed``) of their candidates. Written: ``vault/`` (the notes as
indexed; no ``corpus.jsonl``), ``queries.jsonl`` (both groups: ``l0001``…, ``d0001``…), ``qrels/``,
``answers.jsonl`` and the licence. The link and sentence readers are this file's own regular
expressions: the oracle shares no code with the product it judges. Checked before writing: every
question's sentence is gone from the vault, and each linked question's A still links to its B
(resolved by :func:`linked_pages`, as Obsidian would).

    .venv/bin/python benchmarks/build_links_set.py [--deb rust-doc_…_all.deb] [--out DIR]
        [--linked 300] [--direct 150] [--seed 26]

Without ``--deb`` it runs ``apt-get download rust-doc=1.63.0+dfsg1-2`` in a temporary folder. Needs
pandoc (the committed set was written with pandoc 2.17.1.1; another version may differ)."""

from __future__ import annotations

import argparse
import csv
import hashlib
import html
import io
import json
import lzma
import posixpath
import random
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VERSION = "1.63.0+dfsg1-2"
DEB = f"rust-doc_{VERSION}_all.deb"
DEB_SHA256 = "96ef96fe6df87d939ca713bd7df3d15c2b778ccb892eca025c4ee504146f697b"
HTML_ROOT = "./usr/share/doc/rust-doc/html/"
BOOKS = ("book", "reference", "rust-by-example", "nomicon")
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "links"
WIKI_SHARE = 0.4
#: of the other wikilinks to a page with a unique title, those written through its alias
ALIAS_SHARE = 0.3
PER_PAGE = 3
MIN_WORDS, MAX_WORDS, MAX_DIRECT_WORDS = 8, 50, 40
MIN_OWN_WORDS, MIN_REST_WORDS, MIN_TARGET_WORDS, SHINGLE = 5, 12, 80, 8
TIMEOUT = 600

# -- the package ----------------------------------------------------------------------------------


def read_deb(deb: Path) -> tuple[dict[str, str], str]:
    """The HTML pages of the four books (path below ``html/`` → text) and the MIT licence text."""
    data = deb.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != DEB_SHA256:
        raise SystemExit(f"{deb}: SHA-256 {digest}, expected {DEB_SHA256} ({DEB})")
    assert data.startswith(b"!<arch>\n")
    position, payload = 8, b""
    while position < len(data):  # the ar archive: 60-byte headers, members padded to even sizes
        name, size = (
            data[position : position + 16].strip(),
            int(data[position + 48 : position + 58]),
        )
        if name.startswith(b"data.tar"):
            payload = data[position + 60 : position + 60 + size]
        position += 60 + size + size % 2
    pages: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(payload)), mode="r:") as archive:
        for member in archive:
            if not member.isfile() or not member.name.startswith(HTML_ROOT):
                continue
            rel = member.name[len(HTML_ROOT) :]
            wanted = rel.split("/", 1)[0] in BOOKS and rel.endswith(".html")
            if wanted or rel == "LICENSE-MIT.txt":
                handle = archive.extractfile(member)
                assert handle is not None
                pages[rel] = handle.read().decode("utf-8")
    licence = pages.pop("LICENSE-MIT.txt")
    return pages, licence


# -- HTML to Markdown -----------------------------------------------------------------------------

_TOC = re.compile(r'<ol class="chapter">.*?</ol>\s*</div>', re.S)
_MAIN = re.compile(r"<main>(.*?)</main>", re.S)
_HEADER = re.compile(r'<h([1-6]) id="([^"]*)"><a class="header" href="[^"]*">(.*?)</a></h\1>', re.S)
_ANCHOR = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.S)
_HREF = re.compile(r'href="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def table_of_contents(pages: dict[str, str], book: str) -> list[str]:
    """The pages of ``book`` in the order of its sidebar (``book/x.html``)."""
    toc = _TOC.search(pages[f"{book}/index.html"])
    assert toc is not None, book
    found = re.findall(r'href="([^"#]+\.html)"', toc.group(0))
    return [f"{book}/{h}" for h in dict.fromkeys(found) if f"{book}/{h}" in pages]


def md_path(page: str) -> str:
    return page.removesuffix(".html") + ".md"


def clean_main(page: str, text: str, wanted: set[str], anchors: dict[str, dict[str, str]]) -> str:
    """A page's ``<main>`` for pandoc; its headings' ids and texts go to ``anchors[md path]``."""
    m = _MAIN.search(text)
    assert m is not None, page
    body = re.sub(r'<span class="boring">.*?</span>', "", m.group(1), flags=re.S)
    body = body.replace('<pre><pre class="playground">', "<pre>").replace("</pre></pre>", "</pre>")
    body = re.sub(r"</?(?:sup|div|span)\b[^>]*>|<img\b[^>]*>", "", body)
    own = anchors.setdefault(md_path(page), {})

    def header(h: re.Match[str]) -> str:
        title = " ".join(html.unescape(_TAG.sub("", h.group(3))).split())
        own.setdefault(h.group(2), title)
        return f"<h{h.group(1)}>{h.group(3)}</h{h.group(1)}>"

    def link(a: re.Match[str]) -> str:
        href = _HREF.search(a.group(1))
        target = html.unescape(href.group(1)) if href else ""
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            return a.group(0)  # a web link stays
        path, _, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else ""
        if resolved not in wanted:
            return a.group(2)  # the API pages, in-page anchors: their text
        rel = posixpath.relpath(md_path(resolved), posixpath.dirname(page))
        return (
            f'<a href="{html.escape(rel + ("#" + fragment if fragment else ""))}">{a.group(2)}</a>'
        )

    return _ANCHOR.sub(link, _HEADER.sub(header, body))


def to_markdown(pages: dict[str, str]) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Markdown of every table-of-contents page (``book/x.md`` → text) and each page's anchors."""
    order = [p for book in BOOKS for p in table_of_contents(pages, book)]
    wanted = set(order)
    anchors: dict[str, dict[str, str]] = {}
    joined = "\n".join(
        f"<p>KORTTYPAGE{n}</p>\n{clean_main(p, pages[p], wanted, anchors)}"
        for n, p in enumerate(order)
    )
    command = ["pandoc", "-f", "html", "-t", "gfm", "--wrap=none"]
    out = subprocess.run(
        command, input=joined, capture_output=True, text=True, check=True, timeout=TIMEOUT
    )
    parts = re.split(r"^KORTTYPAGE(\d+)$", out.stdout, flags=re.M)
    notes: dict[str, str] = {}
    for n in range(1, len(parts), 2):
        notes[md_path(order[int(parts[n])])] = shift_headings(parts[n + 1].strip() + "\n")
    return notes, anchors


_ATX = re.compile(r"^(#{1,6})(?=\s)", re.M)
_FENCE = re.compile(r"^(```|~~~)", re.M)


def outside_code(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` stretches of ``text`` that are not fenced code blocks."""
    spans, start, inside = [], 0, False
    for fence in _FENCE.finditer(text):
        if not inside:
            spans.append((start, fence.start()))
        else:
            start = text.find("\n", fence.start()) + 1 or len(text)
        inside = not inside
    if not inside:
        spans.append((start, len(text)))
    return spans


def shift_headings(text: str) -> str:
    """Move every ATX heading up so that the page's first is ``#``."""
    spans = outside_code(text)
    levels = [len(h.group(1)) for a, b in spans for h in _ATX.finditer(text, a, b)]
    up = min(levels, default=1) - 1
    if not up:
        return text
    pieces, position = [], 0
    for a, b in spans:
        for h in _ATX.finditer(text, a, b):
            pieces += [text[position : h.start()], "#" * (len(h.group(1)) - up)]
            position = h.end()
    return "".join(pieces) + text[position:]


# -- links, sentences, plain text -----------------------------------------------------------------

#: ``[label](target)`` (one level of brackets inside the label), not an image
MD_LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^()\s]+)\)")
#: ``[[name#heading|label]]`` and ``![[embed]]``
WIKI_LINK = re.compile(r"!?\[\[([^\[\]|#]+)(?:#([^\[\]|]*))?(?:\|([^\[\]]*))?\]\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_NOT_PROSE = re.compile(r"\s*([#>|<]|```|~~~|[-*+] |\d+[.)] |    )")
_ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "viz", "approx", "resp", "fig", "no"}


def plain(text: str) -> str:
    """Markdown reduced to the words a reader sees: links as their labels, no emphasis or code
    marks, no HTML tags or escapes; on one line."""
    s = WIKI_LINK.sub(lambda m: m.group(3) or m.group(1), text)
    s = MD_LINK.sub(lambda m: m.group(1), s)
    s = _TAG.sub("", s).replace("`", "")
    s = re.sub(r"(?<![\w\\])[*_]+|[*_]+(?![\w])", "", s)
    s = re.sub(r"\\(.)", r"\1", s)
    return " ".join(s.split())


def words(text: str) -> int:
    return len(_WORD.findall(text))


def squeeze(text: str) -> str:
    return " ".join(plain(text).split()).lower()


def sentence_ends(paragraph: str) -> list[int]:
    """Where the paragraph's sentences end: after ``.``/``!``/``?`` (and closing marks) followed by
    space and a word that is not lower case; not in code or link targets, nor after an
    abbreviation."""
    skip = [
        (m.start(), m.end())
        for m in re.finditer(r"`+[^`]*`+|\]\([^)]*\)|\[\[[^\]]*\]\]", paragraph)
    ]
    ends, i = [], 0
    while i < len(paragraph):
        inside = next((b for a, b in skip if a <= i < b), None)
        if inside is not None:
            i = inside
            continue
        if paragraph[i] in ".!?":
            j = i + 1
            while j < len(paragraph) and paragraph[j] in "\"')]*_”’":
                j += 1
            if j == len(paragraph):
                ends.append(j)
            elif paragraph[j].isspace():
                word = re.search(r"([\w.]+)$", paragraph[:i])
                following = paragraph[j:].lstrip()[:1]
                abbreviation = word is not None and word.group(1).lower() in _ABBREVIATIONS
                if following and not following.islower() and not abbreviation:
                    ends.append(j)
        i += 1
    return ends


@dataclass(frozen=True)
class Sentence:
    page: str
    start: int
    end: int  # the sentence itself
    cut_end: int  # and the space after it
    heading: str
    first: bool  # the first sentence of its section


def sentences(page: str, text: str) -> list[Sentence]:
    """The sentences of a note's prose paragraphs (not headings, lists, quotes, tables, code)."""
    found: list[Sentence] = []
    heading, first = "", True
    for a, b in outside_code(text):
        for block in re.finditer(r"(?:[^\n]+\n?)+", text[a:b]):
            start, raw = a + block.start(), block.group(0).rstrip("\n")
            if raw.startswith("#"):
                heading, first = raw.lstrip("#").strip(), True
                continue
            if _NOT_PROSE.match(raw):
                first = False
                continue
            previous = 0
            for end in sentence_ends(raw):
                lead = len(raw[previous:end]) - len(raw[previous:end].lstrip())
                cut_end = (
                    end + len(raw[end:]) - len(raw[end:].lstrip(" ")) if end < len(raw) else end
                )
                at = start + previous + lead
                found.append(Sentence(page, at, start + end, start + cut_end, heading, first))
                first, previous = False, cut_end
            first = False
    return found


def title_of(text: str) -> str:
    h = re.search(r"^# (.+)$", text, re.M)
    return plain(h.group(1)) if h else ""


def link_target(page: str, target: str) -> tuple[str, str]:
    """A Markdown link's page (relative path resolved against ``page``) and anchor."""
    path, _, fragment = target.partition("#")
    if not path or re.match(r"[a-z][a-z0-9+.-]*:", path):
        return "", fragment
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)), fragment


def linked_pages(notes: dict[str, str], titles: dict[str, str], page: str) -> set[str]:
    """The pages ``page`` links to, whatever the syntax: wikilinks by file name, then by front
    matter alias (case-insensitive, the shortest path first); Markdown links by relative path."""
    stems = sorted(notes, key=lambda p: (p.count("/"), p))
    by_name = {posixpath.basename(p)[:-3].lower(): p for p in reversed(stems)}
    by_name = {t.lower(): p for p, t in titles.items()} | by_name
    found = {by_name.get(m.group(1).strip().lower(), "") for m in WIKI_LINK.finditer(notes[page])}
    found |= {link_target(page, m.group(2))[0] for m in MD_LINK.finditer(notes[page])}
    return found & set(notes)


# -- the set --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    group: str
    sentence: Sentence
    raw: str  # the sentence as written in the note
    answer: str  # B, or the page itself
    text: str
    keep: str = ""  # what stays of the sentence in the indexed page (its links to B)


def shingles(text: str) -> set[tuple[str, ...]]:
    w = squeeze(text).split()
    return {tuple(w[i : i + SHINGLE]) for i in range(len(w) - SHINGLE + 1)}


def candidates(
    notes: dict[str, str], titles: dict[str, str]
) -> tuple[list[Question], list[Question]]:
    """Every usable linked and direct question (module docstring), in the notes' order."""
    everything = "\n".join(squeeze(t) for t in notes.values())
    target_words = {p: words(plain(t)) for p, t in notes.items()}
    target_text = {p: squeeze(t) for p, t in notes.items()}
    target_shingles = {p: shingles(t) for p, t in notes.items()}
    linked: list[Question] = []
    direct: list[Question] = []
    for page, text in notes.items():
        for s in sentences(page, text):
            raw = text[s.start : s.end]
            question = plain(raw)
            n = words(question)
            if n < MIN_WORDS or n < 0.6 * len(question.split()) or question[:1].islower():
                continue
            if everything.count(squeeze(raw)) != 1:
                continue  # the sentence occurs elsewhere: the question could find itself
            links = list(MD_LINK.finditer(raw))
            if not links:
                if s.first and n <= MAX_DIRECT_WORDS:
                    nxt = re.compile(r"^#", re.M).search(text, s.end)
                    rest = text[s.cut_end : nxt.start() if nxt else len(text)]
                    if words(plain(rest)) >= MIN_REST_WORDS:
                        direct.append(Question("direct", s, raw, page, question))
                continue
            targets = {link_target(page, m.group(2))[0] for m in links} - {""}
            if n > MAX_WORDS or len(targets) != 1 or page in targets or not targets <= set(notes):
                continue
            (b,) = targets
            copied = squeeze(raw) in target_text[b] or shingles(raw) & target_shingles[b]
            own = words(plain(MD_LINK.sub(" ", raw)))
            if own < MIN_OWN_WORDS or copied or target_words[b] < MIN_TARGET_WORDS:
                continue
            keep = " ".join(m.group(0) for m in links if link_target(page, m.group(2))[0] == b)
            linked.append(Question("linked", s, raw, b, f"{titles[page]}: {question}", keep))
    return linked, direct


def _place(q: Question) -> tuple[str, int]:
    return (q.sentence.page, q.sentence.start)


def choose(
    linked: list[Question], direct: list[Question], wanted: tuple[int, int], seed: int
) -> tuple[list[Question], list[Question]]:
    """Seeded samples: linked ones at most :data:`PER_PAGE` from one A and to one B, direct ones one
    per page and never a linked question's sentence."""
    rng = random.Random(seed)
    linked, direct = linked[:], direct[:]
    rng.shuffle(linked)
    rng.shuffle(direct)
    chosen: list[Question] = []
    per_a: Counter[str] = Counter()
    per_b: Counter[str] = Counter()
    for q in linked:
        a = q.sentence.page
        if len(chosen) < wanted[0] and per_a[a] < PER_PAGE and per_b[q.answer] < PER_PAGE:
            chosen.append(q)
            per_a[a] += 1
            per_b[q.answer] += 1
    used = {_place(q) for q in chosen}
    chosen_direct: list[Question] = []
    pages: set[str] = set()
    for q in direct:
        if len(chosen_direct) < wanted[1] and q.answer not in pages and _place(q) not in used:
            chosen_direct.append(q)
            pages.add(q.answer)

    return sorted(chosen, key=_place), sorted(chosen_direct, key=_place)


def cut(notes: dict[str, str], questions: list[Question]) -> tuple[dict[str, str], dict[int, int]]:
    """The notes with each question's sentence removed (a linked one's links to B left in its
    place) and where, in its new text, each linked question's kept links begin (by its place in
    the list)."""
    by_page: dict[str, list[tuple[int, Question]]] = {}
    for n, q in enumerate(questions):
        by_page.setdefault(q.sentence.page, []).append((n, q))
    result, kept_at = {}, {}
    for page, text in notes.items():
        pieces: list[str] = []
        position = length = 0
        for n, q in sorted(by_page.get(page, []), key=lambda x: x[1].sentence.start):
            s = q.sentence
            pieces.append(text[position : s.start])
            length += s.start - position
            if q.keep:
                kept_at[n] = length
                pieces.append(q.keep + text[s.end : s.cut_end])
                length += len(pieces[-1])
            position = s.cut_end
        result[page] = "".join(pieces) + text[position:]
    return result, kept_at


def wikify(
    notes: dict[str, str],
    anchors: dict[str, dict[str, str]],
    titles: dict[str, str],
    seed: int,
    watch: dict[tuple[str, int], int],
) -> tuple[dict[str, str], Counter[str], dict[int, str]]:
    """Write a seeded share of the links to uniquely named pages as wikilinks (module docstring).
    Returns the notes, how many links of each form there are, and the form of each link in
    ``watch`` (``(page, offset)`` → key)."""
    stems = Counter(posixpath.basename(p)[:-3].lower() for p in notes)
    aliases = Counter(t.lower() for t in titles.values())
    rng = random.Random(seed)
    forms: Counter[str] = Counter()
    watched: dict[int, str] = {}
    result = {}
    for page, text in notes.items():

        def form(m: re.Match[str], page: str = page) -> tuple[str, str]:
            b, fragment = link_target(page, m.group(2))
            label, stem = m.group(1), posixpath.basename(b)[:-3]
            if b not in notes or stems[stem.lower()] > 1 or re.search(r"[\[\]|#]", label):
                return ("markdown" if b in notes else "other"), m.group(0)
            if rng.random() >= WIKI_SHARE:
                return "markdown", m.group(0)
            heading, title = anchors.get(b, {}).get(fragment, ""), titles[b]
            if fragment and heading and not re.search(r"[\[\]|#^]", heading):
                return "wikilink-heading", f"[[{stem}#{heading}|{label}]]"
            unique = aliases[title.lower()] == 1 and title.lower() not in stems
            same = plain(label).lower() == title.lower()
            aliased = same or rng.random() < ALIAS_SHARE
            if unique and aliased and not re.search(r"[\[\]|#^]", title):
                return (
                    "wikilink-alias",
                    f"[[{title}]]" if label == title else f"[[{title}|{label}]]",
                )
            return "wikilink", f"[[{stem}|{label}]]"

        pieces: list[str] = []
        position = 0
        for a, b in outside_code(text):
            for m in MD_LINK.finditer(text, a, b):
                kind, written = form(m)
                forms[kind] += 1
                if (page, m.start()) in watch:
                    watched[watch[(page, m.start())]] = kind
                pieces += [text[position : m.start()], written]
                position = m.end()
        result[page] = "".join(pieces) + text[position:]
    forms.pop("other", None)
    return result, forms, watched


def check(
    vault: dict[str, str], titles: dict[str, str], linked: list[Question], direct: list[Question]
) -> None:
    """Each question's sentence is gone from the vault; each linked question's A links to B."""
    everything = "\n".join(squeeze(t) for t in vault.values())
    for q in linked + direct:
        assert squeeze(q.raw) not in everything, q
    for q in linked:
        assert q.answer in linked_pages(vault, titles, q.sentence.page), q


def write(out: Path, vault: dict[str, str], rows: list[dict[str, Any]], licence: str) -> None:
    shutil.rmtree(out / "vault", ignore_errors=True)
    for page, text in vault.items():
        (out / "vault" / page).parent.mkdir(parents=True, exist_ok=True)
        (out / "vault" / page).write_text(text, encoding="utf-8", newline="\n")
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with (out / "queries.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write(
                json.dumps({"_id": row["query-id"], "text": row["text"]}, ensure_ascii=False) + "\n"
            )
    for split, group in (("test", "linked"), ("direct", "direct")):
        with (out / "qrels" / f"{split}.tsv").open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(["query-id", "corpus-id", "score"])
            for row in rows:
                if row["group"] == group:
                    writer.writerow([row["query-id"], row["doc"], 2 if group == "linked" else 1])
                    if group == "linked":
                        writer.writerow([row["query-id"], row["source"], 1])
    with (out / "answers.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write(
                json.dumps({k: v for k, v in row.items() if k != "text"}, ensure_ascii=False) + "\n"
            )
    (out / "LICENSE-rust-doc-MIT.txt").write_text(licence, encoding="utf-8", newline="\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deb", type=Path, help=f"{DEB} (default: apt-get download it)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--linked", type=int, default=300, help="linked questions, at most (300)")
    parser.add_argument("--direct", type=int, default=150, help="direct questions, at most (150)")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rust-doc-") as tmp:
        if not args.deb:
            command = ["apt-get", "download", f"rust-doc={VERSION}"]
            subprocess.run(command, cwd=tmp, check=True, timeout=TIMEOUT)
        deb = args.deb or Path(tmp) / DEB
        pages, licence = read_deb(deb)
    notes, anchors = to_markdown(pages)
    titles = {p: title_of(t) for p, t in notes.items()}
    pool_linked, pool_direct = candidates(notes, titles)
    linked, direct = choose(pool_linked, pool_direct, (args.linked, args.direct), args.seed)
    questions = linked + direct
    indexed, kept_at = cut(notes, questions)
    watch = {(q.sentence.page, kept_at[n]): n for n, q in enumerate(linked)}
    wikied, forms, watched = wikify(indexed, anchors, titles, args.seed, watch)
    aliases = {p: json.dumps(title, ensure_ascii=False) for p, title in titles.items()}
    vault = {p: f"---\naliases:\n  - {aliases[p]}\n---\n\n{t}" for p, t in wikied.items()}
    check(vault, titles, linked, direct)
    rows: list[dict[str, Any]] = []
    for n, q in enumerate(questions):
        linked_one = n < len(linked)
        row: dict[str, Any] = {
            "query-id": f"l{n + 1:04d}" if linked_one else f"d{n - len(linked) + 1:04d}",
            "group": q.group,
            "text": q.text,
            "doc": q.answer,
            "source": q.sentence.page,
            "heading": q.sentence.heading,
            "sentence": q.raw,
        }
        if linked_one:
            row["link_form"] = watched[n]
            row["title_named"] = titles[q.answer].lower() in q.text.lower()
        rows.append(row)
    write(args.out, vault, rows, licence)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    shown = Counter(str(r.get("link_form")) for r in rows if r["group"] == "linked")
    print(
        f"{args.out}: {len(vault)} notes, {len(linked)} linked questions (of {len(pool_linked)}), "
        f"{len(direct)} direct (of {len(pool_direct)}), {size / 1e6:.2f} MB\n"
        f"links in the vault: {dict(forms)}; the linked questions' kept links: {dict(shown)}"
    )


if __name__ == "__main__":
    main()

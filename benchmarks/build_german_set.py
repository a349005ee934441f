"""Build a German retrieval set in BEIR's layout from Debian's German man pages (manpages-de).

Each page is rendered to plain text (``man -l FILE | col -bx``, 80 columns, UTF-8, hyphenation off;
a word that groff still broke at a line end is joined again). The question for a page is its NAME
section's one-line summary — the text after ``name - ``, e.g. "Verzeichnisinhalte auflisten" for
``ls(1)`` — and that summary is *removed* from the indexed copy (the NAME section keeps only the
names), so a question never finds itself verbatim. The running header and footer lines of the
rendering are dropped; everything else stays as rendered. Judgements: the page, one per question.

Pages are left out when their summary has fewer than 3 words, when two pages share a summary (the
question would have two answers), when they are symbolic links to another page, or when they render
to more than ``--max-chars`` characters. Of the rest, ``--limit`` pages are taken in the order of the
SHA-256 of their id (deterministic, and a mix of the sections), then written sorted by id.

Written into ``--out`` (default ``benchmarks/data/german-man``): ``corpus.jsonl`` (``_id`` =
``name.section``, ``title`` = ``name(section)``, ``text``), ``queries.jsonl`` (``_id`` =
``q-<doc id>``), ``qrels/test.tsv``. :func:`document_text` gives the file a benchmark indexes as plain
text (``.txt``: the title line, an empty line, the rendered page) and as Markdown (``.md``: the title as
``#``, each man section — BEZEICHNUNG, ÜBERSICHT, BESCHREIBUNG, OPTIONEN, … — as ``##``, each
subsection as ``###``, the text dedented).

``--english DIR`` writes the English comparison set the same way from ``/usr/share/man``: the English
pages of the commands in the German set (same rules), not committed (``german_eval.py --english``
builds it into its work folder).

    .venv/bin/python benchmarks/build_german_set.py [--limit 400] [--max-chars 30000] [--out DIR]
    .venv/bin/python benchmarks/build_german_set.py --english DIR
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "data" / "german-man"
GERMAN_MAN = Path("/usr/share/man/de")
ENGLISH_MAN = Path("/usr/share/man")
SECTIONS = ("1", "5", "7", "8")
LIMIT = 400
MAX_CHARS = 30_000
MIN_WORDS = 3
TIMEOUT = 60  # seconds, for every subprocess

#: the environment of the renderers: UTF-8 (umlauts survive), 80 columns, no pager, no hyphenation
#: (``-rHY=0`` switches it off for man(7) pages; mdoc(7) pages ignore it, see :func:`_join_breaks`)
RENDER_ENV = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "MANWIDTH": "80",
    "MANROFFOPT": "-rHY=0",
    "MANPAGER": "cat",
    "PAGER": "cat",
    "MAN_KEEP_FORMATTING": "",
}

#: the NAME section's heading as man(7), mdoc(7) and Texinfo-made pages render it
NAME_HEADINGS = frozenset({"BEZEICHNUNG", "NAME", "Name", "BEZEICHNUNG:"})
#: "name - summary": the dash between the names and the summary (ASCII, en/em dash, hyphen, minus)
_DASH = re.compile(r"\s[-\u2010\u2013\u2014\u2212]\s")
#: a running header or footer: a line at column 0 that ends with ``NAME(section)``
_RUNNING = re.compile(r"^\S.*\S\(\w+\)$")
#: a word groff broke at a line end with its hyphenation character (U+2010; typed hyphens stay ASCII)
_BREAK = re.compile(r"(\w)\u2010\n([ \t]*)(\S+)[ \t]?")


@dataclass(frozen=True)
class Page:
    id: str  # name.section, from the file name
    title: str  # name(section)
    summary: str  # the question
    text: str  # the rendered page without header, footer and summary


def render(path: Path) -> str:
    """The page as plain text: ``man -l`` (man-db runs groff -Tutf8 -mandoc) and ``col -bx``."""
    env = os.environ.copy() | RENDER_ENV
    manned = subprocess.run(
        ["man", "-l", str(path)],
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        cwd=path.parent.parent,  # where ``.so manN/other.N`` requests resolve
        check=False,
    )
    plain = subprocess.run(
        ["col", "-bx"],
        input=manned.stdout,
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        check=True,
    )
    return plain.stdout.decode("utf-8", errors="replace")


def _join_breaks(text: str) -> str:
    """``Ein‐\\n     satz durch`` → ``Einsatz\\n     durch`` (the rest of the line keeps its place)."""
    return _BREAK.sub(lambda m: f"{m[1]}{m[3]}\n{m[2]}", text)


def page_id(path: Path) -> str:
    return path.name.removesuffix(".gz")


def parse(path: Path, rendered: str) -> Page | None:
    """The page's summary and its text without it; ``None`` when it has no ``name - summary`` line."""
    doc_id = page_id(path)
    name, _, section = doc_id.rpartition(".")
    lines = [line.rstrip() for line in _join_breaks(rendered).splitlines()]
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled:
        return None
    for i in (filled[0], filled[-1]):  # running header and footer
        if _RUNNING.match(lines[i]):
            lines[i] = ""
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines or lines[0].strip() not in NAME_HEADINGS:
        return None
    end = next((i for i in range(1, len(lines)) if lines[i] and not lines[i][0].isspace()), None)
    if end is None:
        return None
    body = [line for line in lines[1:end] if line.strip()]
    indent = len(body[0]) - len(body[0].lstrip()) if body else 0
    joined = " ".join(line.strip() for line in body)
    parts = _DASH.split(joined, maxsplit=1)
    if len(parts) != 2:
        return None
    names, summary = parts[0].strip(), " ".join(parts[1].split())
    kept = [lines[0], " " * indent + names, "", *lines[end:]]
    return Page(doc_id, f"{name}({section})", summary, "\n".join(kept) + "\n")


def _key(summary: str) -> str:
    return " ".join(summary.casefold().rstrip(".").split())


def collect(files: Sequence[Path], workers: int = 2) -> tuple[list[Page], Counter[str]]:
    """Every page of ``files`` that has a summary, and why the others were left out."""
    skipped: Counter[str] = Counter()
    with ThreadPoolExecutor(workers) as pool:
        rendered = list(pool.map(render, files))
    pages = []
    for path, text in zip(files, rendered, strict=True):
        page = parse(path, text)
        if page is None:
            skipped["no 'name - summary' line"] += 1
        elif len(page.summary.split()) < MIN_WORDS:
            skipped[f"summary of fewer than {MIN_WORDS} words"] += 1
        else:
            pages.append(page)
    counts = Counter(_key(p.summary) for p in pages)
    unique = [p for p in pages if counts[_key(p.summary)] == 1]
    skipped["summary shared with another page"] += len(pages) - len(unique)
    return unique, skipped


def man_files(root: Path, sections: Iterable[str] = SECTIONS) -> list[Path]:
    """The pages of ``root/manN`` (symbolic links left out: their target is there under its name)."""
    files = []
    for section in sections:
        folder = root / f"man{section}"
        if folder.is_dir():
            files += [f for f in folder.iterdir() if f.is_file() and not f.is_symlink()]
    return sorted(files)


def choose(pages: Sequence[Page], limit: int, max_chars: int) -> list[Page]:
    """``limit`` pages of at most ``max_chars`` characters, by the SHA-256 of their id; sorted by id."""
    order = sorted(pages, key=lambda p: hashlib.sha256(p.id.encode()).hexdigest())
    chosen = [p for p in order if len(p.text) <= max_chars][:limit]
    return sorted(chosen, key=lambda p: p.id)


def write_beir(pages: Sequence[Page], out: Path) -> None:
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with (out / "corpus.jsonl").open("w", encoding="utf-8") as corpus:
        for p in pages:
            record = {"_id": p.id, "title": p.title, "text": p.text}
            corpus.write(json.dumps(record, ensure_ascii=False) + "\n")
    with (out / "queries.jsonl").open("w", encoding="utf-8") as queries:
        for p in pages:
            queries.write(json.dumps({"_id": f"q-{p.id}", "text": p.summary}, ensure_ascii=False))
            queries.write("\n")
    with (out / "qrels" / "test.tsv").open("w", encoding="utf-8") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for p in pages:
            qrels.write(f"q-{p.id}\t{p.id}\t1\n")


# -- the files a benchmark indexes ------------------------------------------------------------------

FORMATS = ("txt", "md")
#: the deepest indent of a subsection heading in a rendered page
_SUBSECTION_INDENT = 3


def to_markdown(title: str, text: str) -> str:
    """The rendered page as Markdown: the title as ``#``, every line at column 0 (a man section:
    BEZEICHNUNG, ÜBERSICHT, BESCHREIBUNG, OPTIONEN, …) as ``##``, a line indented by 1–3 columns (a
    subsection: man(7) renders them at 3, its text at 7; mdoc(7) at 2 and 5) as ``###``; the rest
    dedented by its section's smallest text indent (option tags and their text keep their offsets)."""
    out = [f"# {title}", ""]
    section: list[str] = []

    def flush() -> None:
        indents = [len(line) - len(line.lstrip()) for line in section if line.strip()]
        base = min((i for i in indents if i > _SUBSECTION_INDENT), default=0)
        for line in section:
            indent = len(line) - len(line.lstrip())
            if line.strip() and 0 < indent <= _SUBSECTION_INDENT:
                out.extend(["", f"### {line.strip()}", ""])
            else:
                out.append(line[min(indent, base) :])
        section.clear()

    for line in text.splitlines():
        if line and not line[0].isspace():
            flush()
            out.extend(["", f"## {line.strip()}", ""])
        else:
            section.append(line)
    flush()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


def document_text(title: str, text: str, fmt: str) -> str:
    """The file of one document: plain text (the title line, an empty line, the page) or Markdown."""
    if fmt == "md":
        return to_markdown(title, text)
    return f"{title}\n\n{text}"


def write_documents(dataset: Path, target: Path, fmt: str) -> dict[str, str]:
    """One file per document of ``dataset`` under ``target/part-0/manN/`` (``ID.txt`` or ``ID.md``);
    returns relative path (to ``target``) → doc id. File names are unique (ids are)."""
    paths: dict[str, str] = {}
    with (dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
        for doc in map(json.loads, lines):
            doc_id = str(doc["_id"])
            section = doc_id.rpartition(".")[2][:1] or "x"
            safe = re.sub(r"[^\w.+@-]", "_", doc_id)  # "[.1" → "_.1"
            rel = f"part-0/man{section}/{safe}.{fmt}"
            file = target / rel
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(document_text(doc["title"], doc["text"], fmt), encoding="utf-8")
            paths[rel] = doc_id
    if len({rel.rsplit("/", 1)[-1] for rel in paths}) != len(paths):
        raise SystemExit("two documents would get the same file name")
    return paths


# -- building ---------------------------------------------------------------------------------------


def build_german(out: Path, limit: int, max_chars: int, root: Path = GERMAN_MAN) -> list[Page]:
    files = man_files(root)
    pages, skipped = collect(files)
    chosen = choose(pages, limit, max_chars)
    write_beir(chosen, out)
    longer = sum(len(p.text) > max_chars for p in pages)
    print(f"{len(files)} pages under {root} (symbolic links left out)", file=sys.stderr)
    for reason, count in sorted(skipped.items()):
        print(f"  left out: {count} — {reason}", file=sys.stderr)
    print(
        f"  {len(pages)} with a usable summary, {longer} of them over {max_chars} characters",
        file=sys.stderr,
    )
    _report(chosen, out)
    return chosen


def build_english(german: Path, out: Path, max_chars: int, root: Path = ENGLISH_MAN) -> list[Page]:
    """The English pages of the German set's commands, under the same rules."""
    with (german / "corpus.jsonl").open(encoding="utf-8") as lines:
        ids = [json.loads(line)["_id"] for line in lines]
    files: dict[Path, None] = {}
    for doc_id in ids:
        section = doc_id.rpartition(".")[2]
        candidate = root / f"man{section[:1]}" / f"{doc_id}.gz"
        if candidate.is_file():
            files.setdefault(candidate.resolve(), None)
    pages, skipped = collect(list(files))
    chosen = choose(pages, len(ids), max_chars)
    write_beir(chosen, out)
    print(f"{len(files)} of {len(ids)} pages exist in English under {root}", file=sys.stderr)
    for reason, count in sorted(skipped.items()):
        print(f"  left out: {count} — {reason}", file=sys.stderr)
    _report(chosen, out)
    return chosen


def _report(pages: Sequence[Page], out: Path) -> None:
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    umlauts = sum(bool(re.search("[äöüÄÖÜß]", p.text + p.summary)) for p in pages)
    broken = sum("\ufffd" in p.text or "\ufffd" in p.summary for p in pages)
    words = [len(p.summary.split()) for p in pages]
    print(
        f"wrote {len(pages)} pages and questions to {out} ({size / 1e6:.2f} MB); "
        f"{umlauts} pages with umlauts or ß, {broken} with U+FFFD; question words: "
        f"median {sorted(words)[len(words) // 2] if words else 0}, max {max(words, default=0)}",
        file=sys.stderr,
    )
    if broken:
        raise SystemExit("some text did not decode as UTF-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"pages (default {LIMIT})")
    parser.add_argument("--max-chars", type=int, default=MAX_CHARS, help="longest page kept")
    parser.add_argument(
        "--english",
        type=Path,
        metavar="DIR",
        help="write the English comparison set of the set in --out into DIR instead",
    )
    args = parser.parse_args()
    if args.english:
        build_english(args.out, args.english, args.max_chars)
    else:
        build_german(args.out, args.limit, args.max_chars)


if __name__ == "__main__":
    main()

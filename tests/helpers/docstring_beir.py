"""A small BEIR-format data set made from the Python standard library's docstrings.

Every machine that runs the tests has this text. Each function, class or method of a fixed list of
pure-Python modules whose own docstring has at least 200 characters is a document: its qualified name
is the title, its docstring without the first sentence is the text, and the first sentence is the
query that judges it relevant (score 1). Docstrings shared by several objects, and first sentences
shared by several docstrings, are left out, so every query has exactly one relevant document. The
result depends only on the Python version's standard library: the same on every run.

Files: ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl`` (``_id``, ``text``) and
``qrels/dev.tsv`` (``query-id``, ``corpus-id``, ``score``).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MODULES = (
    "argparse",
    "calendar",
    "configparser",
    "difflib",
    "email.message",
    "fractions",
    "ftplib",
    "gettext",
    "http.client",
    "http.cookiejar",
    "imaplib",
    "logging",
    "mailbox",
    "pathlib",
    "pickletools",
    "shutil",
    "smtplib",
    "statistics",
    "string",
    "subprocess",
    "tarfile",
    "textwrap",
    "threading",
    "zipfile",
)
MIN_DOCSTRING = 200
#: the text left after the first sentence must still say something
MIN_TEXT = 80
_FIRST_SENTENCE = re.compile(r"(.+?[.!?])(?=\s|$)", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _own_objects(module: Any) -> Iterator[tuple[str, Any]]:
    """Functions and classes defined in ``module``, and the methods of those classes, by name."""
    for _, obj in sorted(vars(module).items()):
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            yield f"{module.__name__}.{obj.__qualname__}", obj
        elif inspect.isclass(obj):
            yield f"{module.__name__}.{obj.__qualname__}", obj
            for attribute, member in sorted(vars(obj).items()):
                function = getattr(member, "__func__", member)  # staticmethod, classmethod
                if inspect.isfunction(function) and not attribute.startswith("__"):
                    yield f"{module.__name__}.{function.__qualname__}", function


def split_docstring(doc: str) -> tuple[str, str] | None:
    """``(first sentence, the rest)`` of a cleaned docstring, or ``None`` if it has no usable
    first sentence (it must end within the first paragraph and have at least four words)."""
    paragraph = doc.split("\n\n", 1)[0]
    match = _FIRST_SENTENCE.match(paragraph)
    first = match.group(1) if match else paragraph
    rest = doc[len(first) :].strip()
    first = " ".join(first.split())
    if len(first.split()) < 4 or len(rest) < MIN_TEXT:
        return None
    return first, rest


def documents() -> list[tuple[str, str, str]]:
    """``(qualified name, query, text)`` of every usable docstring, in a fixed order."""
    found: list[tuple[str, str, str]] = []
    seen: set[str] = set()  # an object bound to two names is one document
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for qualified, obj in _own_objects(module):
            if qualified in seen:
                continue
            seen.add(qualified)
            raw = obj.__doc__  # its own, never one inherited from a base class
            if not isinstance(raw, str) or len(raw) < MIN_DOCSTRING or _CONTROL.search(raw):
                continue
            parts = split_docstring(inspect.cleandoc(raw))
            if parts is not None:
                found.append((qualified, *parts))
    queries = Counter(query.casefold() for _, query, _ in found)
    texts = Counter(text for _, _, text in found)
    return [
        (name, query, text)
        for name, query, text in found
        if queries[query.casefold()] == 1 and texts[text] == 1
    ]


def write_dataset(folder: Path, limit: int | None = None) -> int:
    """Write the data set into ``folder`` (at most ``limit`` documents); returns how many."""
    chosen = documents()[:limit]
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as corpus:
        for name, _, text in chosen:
            corpus.write(json.dumps({"_id": name, "title": name, "text": text}) + "\n")
    with (folder / "queries.jsonl").open("w", encoding="utf-8") as queries:
        for number, (_, query, _) in enumerate(chosen):
            queries.write(json.dumps({"_id": f"q{number}", "text": query}) + "\n")
    with (folder / "qrels" / "dev.tsv").open("w", encoding="utf-8") as qrels:
        qrels.write("query-id\tcorpus-id\tscore\n")
        for number, (name, _, _) in enumerate(chosen):
            qrels.write(f"q{number}\t{name}\t1\n")
    return len(chosen)

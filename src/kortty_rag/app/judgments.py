"""The person's own judged questions of a store: which documents answer a question, as they said
(README, "Your own questions as a check"; docs/DESIGN.md §13).

A judgment is a question, a document's path, where in the document the judged excerpt was (page
and character offsets, informational) and a verdict: relevant or not relevant. File text is never
kept — not an excerpt, not a heading —, only what points at it. :mod:`kortty_rag.app.judged_check`
runs the questions again and measures the store's ranking against the judgments.

They live in the store's own folder (``stores/<store-id>/judgments.json``, next to ``store.json``,
docs/DESIGN.md §1), never inside a snapshot, so a rebuild — with the same or another model — keeps
them; deleting the store deletes them (``config/store_files.TOP_FILES``). The file is read and
written only through :class:`~kortty_rag.config.open_folder.OpenFolder` (no link followed), written
atomically under the store's config lock (read, change, write: a mark in the app and one from the
command line never lose each other), and a file that cannot be read as judgments is an error that
names the file and field and is never written over: nothing judged is lost by a later mark.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from kortty_rag.config.atomic import dump_json, write_atomic, write_atomic_in
from kortty_rag.config.definitions import damaged
from kortty_rag.config.paths import store_dir
from kortty_rag.config.registry import PRODUCT, config_lock, now_iso
from kortty_rag.config.store_files import JUDGMENTS, STORE_FILE, open_store_folder
from kortty_rag.decoding import (
    CHECK,
    MAX,
    MIN,
    FieldError,
    convert,
    decode,
    expect_object,
    parse,
    problem_found,
)
from kortty_rag.errors import ConfigError, NotFoundError, StoreFolderChangedError, UsageError
from kortty_rag.messages import msg
from kortty_rag.models import SourceKind, Store
from kortty_rag.remedies import Operation, place

SCHEMA = 1
KIND = "judgments"
#: the longest question kept (characters, after white space is collapsed)
MAX_QUESTION_CHARS = 2_000
#: the BEIR files :func:`export_beir` writes, relative to the folder it is given
QUERIES_FILE = "queries.jsonl"
QRELS_FILE = "qrels/test.tsv"
QRELS_HEADER = ("query-id", "corpus-id", "score")

LABEL = msg("The judged questions file")
DAMAGED_HINT = msg(
    "Fix that part of the file, or move the file away to start anew; kortty-rag never writes over "
    "it, so nothing judged is lost until then."
)


class Verdict(StrEnum):
    RELEVANT = "relevant"
    NOT_RELEVANT = "not-relevant"


def normal_question(text: str) -> str:
    """A question as it is kept and compared: white space collapsed, ends trimmed."""
    return " ".join(text.split())


def _question_problem(value: str) -> str | None:
    if not value.strip():
        return msg("must not be empty")
    if len(value) > MAX_QUESTION_CHARS:
        return msg("must be at most {maximum} characters", maximum=MAX_QUESTION_CHARS)
    return None


def _absolute_problem(value: str) -> str | None:
    return None if os.path.isabs(value) else msg("must be an absolute path")


@dataclass(frozen=True)
class Location:
    """Where the judged excerpt was in its document (informational): the PDF page or slide, and
    the characters of the page or file."""

    page: int | None = field(default=None, metadata={MIN: 1})
    start: int | None = field(default=None, metadata={MIN: 0})
    end: int | None = field(default=None, metadata={MIN: 0})

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class Mark:
    """The verdict on one document (its path) for one question."""

    path: str = field(metadata={CHECK: _absolute_problem})
    verdict: Verdict = Verdict.RELEVANT
    location: Location | None = None
    marked_at: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": self.path, "verdict": self.verdict.value}
        if self.location is not None:
            data["location"] = self.location.to_json()
        return data | {"marked_at": self.marked_at}


@dataclass(frozen=True)
class JudgedQuestion:
    question: str = field(metadata={CHECK: _question_problem})
    #: one per document, in the order they were first marked
    marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        paths = [mark.path for mark in self.marks]
        twice = sorted({path for path in paths if paths.count(path) > 1})
        if twice:
            raise ValueError(msg("the path {path} is marked twice", path=twice[0]))

    @property
    def relevant(self) -> tuple[str, ...]:
        return tuple(m.path for m in self.marks if m.verdict is Verdict.RELEVANT)

    @property
    def not_relevant(self) -> tuple[str, ...]:
        return tuple(m.path for m in self.marks if m.verdict is Verdict.NOT_RELEVANT)

    def verdict(self, path: str) -> Verdict | None:
        return next((m.verdict for m in self.marks if m.path == path), None)

    def with_marks(self, marks: Sequence[Mark]) -> JudgedQuestion:
        """These marks, each replacing the earlier verdict on its document (which keeps its place)."""
        kept = {mark.path: mark for mark in self.marks}
        kept.update((mark.path, mark) for mark in marks)
        return replace(self, marks=tuple(kept.values()))

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "marks": [m.to_json() for m in self.marks]}


@dataclass(frozen=True)
class CheckFigures:
    """What one check measured, kept so that the next one can say "before → now"."""

    checked_at: str
    #: judged questions, and those of them with a relevant document (the ones the means are over)
    questions: int = field(default=0, metadata={MIN: 0})
    measured: int = field(default=0, metadata={MIN: 0})
    ndcg_at_10: float | None = field(default=None, metadata={MIN: 0.0, MAX: 1.0})
    recall_at_10: float | None = field(default=None, metadata={MIN: 0.0, MAX: 1.0})
    #: the store's settings the check ran with (:func:`kortty_rag.app.judged_check.settings_summary`)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """In a file; front ends say ``ndcg@10`` and ``recall@10`` (:meth:`figures_json`)."""
        return {
            "checked_at": self.checked_at,
            "questions": self.questions,
            "measured": self.measured,
            "ndcg_at_10": self.ndcg_at_10,
            "recall_at_10": self.recall_at_10,
            "settings": self.settings,
        }

    def figures_json(self) -> dict[str, Any]:
        return {
            "checked_at": self.checked_at,
            "questions": self.questions,
            "measured": self.measured,
            "ndcg@10": self.ndcg_at_10,
            "recall@10": self.recall_at_10,
            "settings": self.settings,
        }


@dataclass(frozen=True)
class Judgments:
    """Every judged question of a store, and the figures of its last check."""

    questions: tuple[JudgedQuestion, ...] = ()
    last_check: CheckFigures | None = None

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for judged in self.questions:
            if judged.question in seen:
                raise ValueError(
                    msg("the question {question} is there twice", question=judged.question)
                )
            seen.add(judged.question)

    def find(self, question: str) -> JudgedQuestion | None:
        wanted = normal_question(question)
        return next((q for q in self.questions if q.question == wanted), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "product": PRODUCT,
            "kind": KIND,
            "schema": SCHEMA,
            "questions": [q.to_json() for q in self.questions],
            "last_check": None if self.last_check is None else self.last_check.to_json(),
        }


# -- the file ---------------------------------------------------------------------------------------


def judgments_path(store_id: str) -> Path:
    return store_dir(store_id) / JUDGMENTS


def load_judgments(store: Store) -> Judgments:
    """The store's judgments; none when it has no file yet. Raises :class:`DamagedFileError` for a
    file that cannot be read as judgments (it is left as it is)."""
    path = judgments_path(store.id)
    try:
        with open_store_folder(store_dir(store.id)) as folder:
            raw = folder.read_bytes(JUDGMENTS)
    except FileNotFoundError:
        return Judgments()
    except StoreFolderChangedError:
        raise
    except OSError as exc:
        raise ConfigError(
            msg(
                "{label} {path} cannot be read ({reason})",
                label=LABEL,
                path=path,
                reason=exc.strerror or exc,
            ),
            hint=msg("Fix the file's permissions (or the I/O error) and try again."),
        ) from exc
    return decode_judgments(raw, path)


def decode_judgments(raw: bytes, path: Path) -> Judgments:
    try:
        data = expect_object(parse(raw))
        for key, wanted in (("product", PRODUCT), ("kind", KIND)):
            if data.get(key) != wanted:
                requirement = msg("must be {value}", value=json.dumps(wanted))
                raise FieldError(key, problem_found(requirement, data.get(key)))
        schema = convert(int, data.get("schema", 0), "schema")
        if schema > SCHEMA:
            raise ConfigError(
                msg(
                    "{label} {path} was written by a newer kortty-rag (schema {schema})",
                    label=LABEL,
                    path=path,
                    schema=schema,
                ),
                hint=msg("Upgrade kortty-rag to use it."),
            )
        return decode(Judgments, data)
    except FieldError as exc:
        raise damaged(LABEL, path, exc, DAMAGED_HINT) from None


def update_judgments(store: Store, change: Callable[[Judgments], Judgments]) -> Judgments:
    """Read the judgments, apply ``change`` and write the result atomically, all under the store's
    config lock. A damaged file raises before anything is written."""
    folder_path = store_dir(store.id)
    with config_lock(folder_path, nofollow=2):
        changed = change(load_judgments(store))
        try:
            with open_store_folder(folder_path) as folder:
                if not folder.is_file(STORE_FILE):  # deleted meanwhile: leave no stray file
                    raise NotFoundError(
                        msg("Store {store} no longer exists", store=repr(store.name))
                    )
                write_atomic_in(folder, JUDGMENTS, dump_json(changed.to_json()))
        except OSError as exc:
            raise ConfigError(
                msg(
                    "Could not save {label} {path} ({reason})",
                    label=LABEL,
                    path=judgments_path(store.id),
                    reason=exc.strerror or exc,
                ),
                hint=msg("Free disk space (or fix the I/O error) and try again."),
            ) from exc
    return changed


# -- judging ----------------------------------------------------------------------------------------


def in_store(store: Store, path: str) -> bool:
    """Whether ``path`` is a document of one of the store's sources (the file of a file source, or
    a path inside a folder source)."""
    target = Path(path)
    for source in store.sources:
        root = Path(source.path)
        if source.kind is SourceKind.FILE:
            if target == root:
                return True
        elif target != root and target.is_relative_to(root):
            return True
    return False


def checked_question(question: str) -> str:
    text = normal_question(question)
    problem = _question_problem(text)
    if problem:
        raise UsageError(
            msg("The question {problem}", problem=problem),
            hint=msg("Give the question as you would ask it, in one line."),
        )
    return text


def record_marks(store: Store, question: str, marks: Sequence[Mark]) -> JudgedQuestion:
    """Keep ``marks`` for ``question`` (each replaces an earlier verdict on its document); every
    path must be an absolute path inside one of the store's sources, and named once."""
    text = checked_question(question)
    if not marks:
        raise UsageError(
            msg("Nothing to judge: no document was marked relevant or not relevant"),
            hint=msg("Name at least one document of the store."),
        )
    paths = [mark.path for mark in marks]
    for path in paths:
        if paths.count(path) > 1:
            raise UsageError(
                msg("{path} is named twice for one question", path=path),
                hint=msg("Name each document once, as relevant or as not relevant."),
            )
        if not os.path.isabs(path) or not in_store(store, path):
            raise UsageError(
                msg("{path} is not a document of store {store}", path=path, store=store.name),
                hint=msg(
                    "Give the document's whole path, inside one of the store's sources "
                    "(as the context block shows it)."
                ),
            )
    stamped = [replace(mark, marked_at=mark.marked_at or now_iso()) for mark in marks]

    def change(judgments: Judgments) -> Judgments:
        found = judgments.find(text) or JudgedQuestion(text)
        updated = found.with_marks(stamped)
        questions = [q for q in judgments.questions if q.question != text]
        position = next(
            (i for i, q in enumerate(judgments.questions) if q.question == text), len(questions)
        )
        questions.insert(position, updated)
        return replace(judgments, questions=tuple(questions))

    changed = update_judgments(store, change)
    judged = changed.find(text)
    assert judged is not None
    return judged


def forget_question(store: Store, question: str) -> bool:
    """Forget a judged question and its marks; ``False`` when it was not judged."""
    text = normal_question(question)
    if load_judgments(store).find(text) is None:
        return False
    update_judgments(
        store,
        lambda j: replace(j, questions=tuple(q for q in j.questions if q.question != text)),
    )
    return True


def keep_last_check(store: Store, figures: CheckFigures) -> None:
    """Keep what a check measured (the marks judged meanwhile stay as they are)."""
    update_judgments(store, lambda j: replace(j, last_check=figures))


def require_judged(store: Store, judgments: Judgments) -> None:
    if not judgments.questions:
        raise UsageError(
            msg("No question of store {store} has been judged yet", store=store.name),
            hint=msg(
                "Judge a question first with {how}: mark the documents that answer it.",
                how=place(Operation.JUDGE, store=store.name),
            ),
        )


# -- BEIR -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BeirExport:
    queries: Path
    qrels: Path
    questions: int
    judgments: int

    def to_json(self) -> dict[str, Any]:
        return {
            "queries": str(self.queries),
            "qrels": str(self.qrels),
            "questions": self.questions,
            "judgments": self.judgments,
        }


def query_id(question: str) -> str:
    """A question's id in the export: the same for the same question in every export."""
    return "q-" + hashlib.sha256(question.encode("utf-8")).hexdigest()[:12]


def beir_files(judgments: Judgments) -> tuple[str, str]:
    """The text of ``queries.jsonl`` (``_id``, ``text``) and of ``qrels/test.tsv`` (``query-id``,
    ``corpus-id`` — the document's path —, ``score``: 1 relevant, 0 not relevant). The TSV is
    written as BEIR reads it (``csv`` with tabs, quoting only where a path needs it)."""
    queries = "".join(
        json.dumps({"_id": query_id(q.question), "text": q.question}, ensure_ascii=False) + "\n"
        for q in judgments.questions
    )
    qrels = io.StringIO()
    writer = csv.writer(qrels, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    writer.writerow(QRELS_HEADER)
    for judged in judgments.questions:
        for mark in judged.marks:
            score = 1 if mark.verdict is Verdict.RELEVANT else 0
            writer.writerow((query_id(judged.question), mark.path, score))
    return queries, qrels.getvalue()


def export_beir(store: Store, folder: Path) -> BeirExport:
    """Write the judgments as BEIR queries and qrels into ``folder`` (made if missing; the two
    files are replaced atomically, nothing else there is touched)."""
    judgments = load_judgments(store)
    require_judged(store, judgments)
    queries_text, qrels_text = beir_files(judgments)
    queries, qrels = folder / QUERIES_FILE, folder / QRELS_FILE
    try:
        write_atomic(queries, queries_text.encode("utf-8"))
        write_atomic(qrels, qrels_text.encode("utf-8"))
    except OSError as exc:
        raise ConfigError(
            msg(
                "Could not write the export to {path} ({reason})",
                path=folder,
                reason=exc.strerror or exc,
            ),
            hint=msg("Choose a folder you can write to, or free disk space, and try again."),
        ) from exc
    marks = sum(len(q.marks) for q in judgments.questions)
    return BeirExport(queries, qrels, len(judgments.questions), marks)

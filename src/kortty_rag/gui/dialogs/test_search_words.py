"""What Test search shows besides its controls: the score columns and their tooltips, a candidate's
cells and score details, and why a result looks weak — worded in the dialog's translation context
(:mod:`kortty_rag.gui.dialogs.test_search`)."""

from __future__ import annotations

from PySide6.QtCore import QLocale

from kortty_rag.app import guidance
from kortty_rag.app.search_results import (
    Candidate,
    RetrievalResult,
    Weakness,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.hints import remedy_words
from kortty_rag.gui.i18n import translate
from kortty_rag.remedies import Operation, Remedy, worded


def score_columns() -> list[tuple[str, str]]:
    """Short column titles (the tables share the dialog with the block) and what each one means;
    the parts' ranks, the BM25 score and the fused score are in the relevance cell's tooltip."""
    return [
        (
            translate("TestSearchDialog", "Relevance"),
            translate(
                "TestSearchDialog",
                "How relevant the excerpt is, from 0 to 1, on one scale for every row, question "
                "and store: 0.5 is the minimum relevance low, 0.6 medium, 0.7 high. Its tooltip "
                "has the ranks and raw scores",
            ),
        ),
        (
            translate("TestSearchDialog", "Dense"),
            translate("TestSearchDialog", "Cosine similarity of the query and the excerpt"),
        ),
        (
            translate("TestSearchDialog", "Terms"),
            translate(
                "TestSearchDialog",
                "Share of the question's words found in the excerpt (lexical matches only)",
            ),
        ),
    ]


def idle_text() -> str:
    return translate(
        "TestSearchDialog",
        "Runs retrieval only: nothing is sent to a chat model. Disabled sources are skipped.",
    )


def no_parts_text() -> str:
    return translate("TestSearchDialog", "Switch on dense or lexical search (or both) to search.")


def loading_text() -> str:
    return translate(
        "TestSearchDialog",
        "Searching… (the embedding model may take a moment to load the first time)",
    )


def weak_results_guidance() -> str:
    """The advice of :func:`kortty_rag.app.guidance.weak_results_guidance` in the app's language,
    each operation named by the control that does it (in view here) instead of a command."""

    def operation(remedy: Remedy) -> str:
        if remedy.operation is Operation.SOURCE_REVIEW:  # what a review skipped: the counts tell
            return translate("TestSearchDialog", "a source's Skipped and Issues counts list them")
        return remedy_words(remedy)

    return core_words(worded(guidance.weak_results_guidance(), operation))


def nothing_to_search_text() -> str:
    return translate(
        "TestSearchDialog",
        "This store has no enabled source to search yet: add a folder or files on the Knowledge "
        "Stores tab (or enable a source there), then search again.",
    )


def nothing_relevant_text() -> str:
    return translate(
        "TestSearchDialog",
        "No excerpt was relevant enough, so nothing would be added to the prompt. Try a lower "
        "minimum relevance, or words that occur in your documents; the dropped candidates show "
        "how close they came.",
    )


def empty_block_text() -> str:
    return translate("TestSearchDialog", "Nothing would be added to the prompt.")


def block_placeholder() -> str:
    return translate("TestSearchDialog", "The context block a model would receive appears here.")


def _decimal(value: float, digits: int) -> str:
    locale = QLocale()
    locale.setNumberOptions(QLocale.NumberOption.OmitGroupSeparator)
    return locale.toString(float(value), "f", digits)


def _number(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return _decimal(value, digits) if digits else str(value)


class Cell(str):
    """A table cell whose tooltip says more than its text (a whole path)."""

    tip: str

    def __new__(cls, text: str, tip: str) -> Cell:
        cell = super().__new__(cls, text)
        cell.tip = tip
        return cell


def candidate_cells(candidate: Candidate) -> list[str]:
    """Path (relative to its source's folder; whole in the tooltip), page and the scores of one
    candidate, as table cells."""
    coverage = (
        "–"
        if candidate.coverage is None
        else translate("TestSearchDialog", "{percent}%").format(
            percent=_decimal(candidate.coverage * 100, 0)
        )
    )
    path = candidate.chunk.rel_path or candidate.path
    if candidate.linked is not None:
        path = translate("TestSearchDialog", "{path} ({why})").format(
            path=path, why=linked_text(candidate)
        )
    return [
        Cell(path, candidate.path),
        _number(candidate.chunk.page),
        Cell(_decimal(candidate.relevance, 2), score_details(candidate)),
        _number(candidate.dense_score, 3),
        coverage,
    ]


def linked_text(candidate: Candidate) -> str:
    """Why a link brought the candidate in: "linked from Project Alpha" / "links to Qdrant"."""
    if candidate.linked is None:
        return ""
    if candidate.linked.outgoing:
        text = translate("TestSearchDialog", "linked from {note}")
    else:
        text = translate("TestSearchDialog", "links to {note}")
    return text.format(note=candidate.linked.note)


def score_details(candidate: Candidate) -> str:
    """The parts' ranks and raw scores behind a relevance value, for its tooltip."""
    dense = (
        translate("TestSearchDialog", "Dense search: rank {rank}, similarity {score}").format(
            rank=candidate.dense_rank, score=_number(candidate.dense_score, 3)
        )
        if candidate.dense_rank is not None
        else translate(
            "TestSearchDialog", "Dense search: not among its candidates, similarity {score}"
        ).format(score=_number(candidate.dense_score, 3))
        if candidate.dense_score is not None
        else translate("TestSearchDialog", "Dense search: not among its candidates")
    )
    lexical = (
        translate("TestSearchDialog", "Lexical search: rank {rank}, BM25 score {score}").format(
            rank=candidate.lexical_rank, score=_number(candidate.lexical_score, 2)
        )
        if candidate.lexical_rank is not None
        else translate("TestSearchDialog", "Lexical search: not among its candidates")
    )
    fused = translate(
        "TestSearchDialog",
        "Fused: {score} (the order of this question's results, not comparable with other "
        "questions)",
    ).format(score=_decimal(candidate.fused, 4))
    lines = [dense, lexical, fused]
    if candidate.linked is not None:
        lines.append(
            translate("TestSearchDialog", "Link: {why}, bonus {bonus}").format(
                why=linked_text(candidate), bonus=_decimal(candidate.graph_bonus, 4)
            )
        )
    return "\n".join(lines)


def weakness(result: RetrievalResult) -> str:
    """Why the result looks weak (:attr:`RetrievalResult.weakness`), or ``""`` when it does not."""
    weak = result.weakness
    if weak is Weakness.NOTHING_RELEVANT:
        return nothing_relevant_text()
    if weak is Weakness.NO_EXCERPTS:
        return (
            core_words(result.note)
            if result.note
            else translate("TestSearchDialog", "No excerpts found.")
        )
    if weak is Weakness.LOOSE:
        return translate(
            "TestSearchDialog",
            "The excerpts only loosely match: no exact word matches and a low similarity.",
        )
    return ""


def still_indexing_text() -> str:
    return translate(
        "TestSearchDialog",
        "The store is still being indexed: a search finds what is searchable so far.",
    )


def results_status(query: str, found: bool, indexing: bool) -> str:
    """The status line after a search (``query`` quoted), and that the store is still being
    indexed when it is."""
    if found:
        text = translate(
            "TestSearchDialog", "Results for {query}. Nothing was sent to a chat model."
        )
    else:
        text = translate(
            "TestSearchDialog", "No excerpts for {query}. Nothing was sent to a chat model."
        )
    text = text.format(query=query)
    return f"{text} {still_indexing_text()}" if indexing else text

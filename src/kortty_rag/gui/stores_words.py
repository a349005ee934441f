"""The Knowledge Stores tab's words that are not a control's: the first screen, what a job did,
what a cancel or failure left (:mod:`kortty_rag.gui.stores_tab`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kortty_rag.app.workspace import IndexSummary, ReviewRow
from kortty_rag.errors import NothingToAddError, SourceOverlapError
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.models import FileStatus, Store

if TYPE_CHECKING:  # imported when first opened
    pass


def welcome_text() -> str:
    """What a knowledge store is, on the first screen."""
    return translate(
        "StoresTab",
        "A knowledge store is a searchable index of the files and folders you choose — notes, "
        "code, PDFs, web pages, Word and LibreOffice documents, EPUB books, presentations — that "
        "your AI profiles can draw on. Your files are only read, never changed, and everything is "
        "indexed here on this computer.",
    )


def starter_note() -> str:
    """Why the first screen offers the starter model."""
    return translate(
        "StoresTab",
        "A store needs an embedding model, which turns text into searchable vectors. The starter "
        "model is small and quick and works best with English text. It is downloaded once; after "
        "that it runs on this computer without a network, so your files never leave it.",
    )


#: the width of the first screen's text (pixels): a readable line length (its labels wrap)
WELCOME_WIDTH = 520


def starter_tip() -> str:
    return translate("StoresTab", "all-MiniLM-L6-v2 (English, small); other models: the Models tab")


def unchanged_text() -> str:
    """What a failed or cancelled job left: the store as it was."""
    return translate("StoresTab", "The store still answers from its last completed index.")


def covered_text(exc: SourceOverlapError | NothingToAddError) -> str:
    """What the store already has, in words (the source that covers the selection)."""
    if isinstance(exc, SourceOverlapError):
        if exc.covered and exc.path is not None and Path(exc.path) == Path(exc.existing):
            return translate("StoresTab", "{path} is already a source of this store.").format(
                path=exc.path
            )
        if exc.covered:
            return translate(
                "StoresTab", "{path} is already covered by the source {existing}."
            ).format(path=exc.path, existing=exc.existing)
        return translate(
            "StoresTab", "{path} contains the source {existing}, which this store already has."
        ).format(path=exc.path, existing=exc.existing)
    return translate("StoresTab", "{path} is {reason}.").format(
        path=exc.path, reason=core_words(exc.reason)
    )


def completion_text(summary: IndexSummary) -> str:
    """What an indexing did; skips a rule chose and real issues are counted apart."""
    issues = summary.issues
    text = translate("StoresTab", "{new}, {unchanged}, {removed}, {skipped} documents").format(
        new=translate("StoresTab", "%n new or changed", None, summary.indexed),
        unchanged=translate("StoresTab", "%n unchanged", None, summary.unchanged),
        removed=translate("StoresTab", "%n removed", None, summary.removed),
        skipped=translate("StoresTab", "%n skipped", None, summary.skipped - issues),
    )
    return with_issues(text, issues)


def with_issues(documents: str, issues: int) -> str:
    """``documents`` (what an indexing did with them), and how many had issues, if any."""
    if not issues:
        return documents
    return translate("StoresTab", "{documents}, %n with issue(s)", None, issues).format(
        documents=documents
    )


def scanned_what(
    store: Store, paths: Sequence[str] | None, source_ids: Sequence[str] | None = None
) -> str:
    """What a scan looks at, for its status line (its progress says how: "Checking…"): the new
    paths, the sources refreshed, or the store."""
    if not paths and source_ids:
        paths = [s.path for s in store.sources if s.id in source_ids]
    if not paths:
        return store.name
    joined = ", ".join(paths)
    if len(joined) < 120:
        return joined
    return translate("StoresTab", "%n path(s)", None, len(paths))


def rebuild_text(summary: IndexSummary) -> str:
    """What a rebuild did with the documents: every one read again (none is "new or changed")."""
    issues = summary.issues
    text = translate(
        "StoresTab", "%n document(s) read again into a fresh index", None, summary.indexed
    )
    if summary.skipped - issues:
        text = translate("StoresTab", "{documents}, {skipped}").format(
            documents=text,
            skipped=translate("StoresTab", "%n skipped", None, summary.skipped - issues),
        )
    return with_issues(text, issues)


def chunks_text(summary: IndexSummary) -> str:
    """The chunks an indexing embedded, and those it took over from the store without embedding
    them again (a rebuild with the same model, a moved file)."""
    embedded = translate("StoresTab", "%n chunk(s) embedded", None, summary.chunks_embedded)
    if not summary.chunks_reused:
        return embedded
    return translate(
        "StoresTab", "{embedded}, %n reused without embedding again", None, summary.chunks_reused
    ).format(embedded=embedded)


def damaged_text() -> str:
    """What the store list says of a store whose definition cannot be used."""
    return translate("StoresTab", "DAMAGED")


def took_text(seconds: float) -> str:
    """How long a job took: "12 s", "3 min 5 s", "1 h 02 min"."""
    whole = max(0, round(seconds))
    if whole < 60:
        return translate("StoresTab", "{seconds} s").format(seconds=whole)
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return translate("StoresTab", "{minutes} min {seconds} s").format(
            minutes=minutes, seconds=rest
        )
    hours, minutes = divmod(minutes, 60)
    return translate("StoresTab", "{hours} h {minutes} min").format(
        hours=hours, minutes=f"{minutes:02d}"
    )


def skipped_text(rows: Sequence[ReviewRow], *, listed: int = 6) -> str:
    """What a review left out, by reason, most first ("" when nothing was): the full list is the
    source's scan report, which its Skipped count opens."""
    reasons = Counter(core_words(row.reason) for row in rows if row.status is FileStatus.SKIPPED)
    if not reasons:
        return ""
    lines = [
        translate("StoresTab", "{count} × {reason}").format(count=count, reason=reason)
        for reason, count in reasons.most_common(listed)
    ]
    if len(reasons) > listed:
        lines.append(
            translate("StoresTab", "… and %n other reason(s)", None, len(reasons) - listed)
        )
    return translate(
        "StoresTab",
        "Skipped:\n{reasons}\n(double-click a source's Skipped count for the whole list)",
    ).format(reasons="\n".join(lines))

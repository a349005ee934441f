"""``kortty-rag source …``: add and refresh (scan, review, confirm, index), list, enable/disable,
remove, sync mode."""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from collections.abc import Callable, Iterator
from typing import Any

from kortty_rag import languages
from kortty_rag.app.lexical_state import lexical_state
from kortty_rag.app.workspace import PreparedReview, Reviewed, Workspace, find_source
from kortty_rag.cli.lexical_view import describe as describe_lexical
from kortty_rag.cli.render import StderrProgress, print_json, review_table, table
from kortty_rag.cli.stores_cmd import confirm
from kortty_rag.errors import Cancelled, UsageError
from kortty_rag.messages import msg
from kortty_rag.models import (
    SourceOptions,
    Store,
    StoreType,
    SyncMode,
)
from kortty_rag.progress import CancelToken
from kortty_rag.untrusted import escape_line


def show_review(review: PreparedReview, *, as_json: bool) -> dict[str, Any] | None:
    """The review as JSON data (printed later, with the result), or printed as a table now."""
    if as_json:
        data = review.report.to_json()
        data["rejected"] = [row.to_json() for row in review.rejected]
        return data
    review_table(review.rows)
    print()
    for line in review.report.summary().lines():
        print(escape_line(line))
    for source_review in review.report.sources:
        if source_review.root_error:
            print(escape_line(f"{source_review.source.path}: {source_review.root_error}"))
    for source in review.unreviewed:
        print(
            escape_line(
                f"{source.path}: came with an imported store; this is its first review on this "
                "computer"
            )
        )
    if review.moved is not None:
        print(escape_line(f"The source {review.moved_from} moves to {review.moved.path}."))
    return None


def confirm_review(
    args: argparse.Namespace, progress: StderrProgress
) -> Callable[[PreparedReview], bool]:
    """Shows the review and asks before anything is indexed (``--yes`` answers for the user)."""

    def decide(review: PreparedReview) -> bool:
        progress.done()  # the scan's progress line gives way to the review
        if not args.json:
            show_review(review, as_json=False)
        counts = review.report.summary()
        question = f"Index {counts.to_index} files and remove {counts.removed}?"
        if review.moved is not None:
            question = (
                f"Move the source there, index {counts.to_index} files and remove {counts.removed}?"
            )
        elif review.unreviewed:
            some = len(review.unreviewed)
            question = (
                f"Accept {'the imported source' if some == 1 else f'{some} imported sources'}, "
                f"index {counts.to_index} files and remove {counts.removed}?"
            )
        return not review.has_changes or confirm(question, args.yes)

    return decide


def report_indexing(reviewed: Reviewed, args: argparse.Namespace, progress: StderrProgress) -> int:
    review, summary = reviewed.review, reviewed.summary
    data = show_review(review, as_json=True) if args.json else None
    if summary is None:
        if data is not None:
            print_json(data | {"indexed": False})
        elif review.moved is not None:
            print(
                "Not moved, nothing changed. Re-run with --yes to confirm this review.",
                file=sys.stderr,
            )
        else:
            print("Not indexed. Re-run with --yes to confirm this review.", file=sys.stderr)
        return 0
    progress.done()
    if data is not None:
        print_json(data | {"indexed": True, "summary": summary.to_json()})
    else:
        print(summary.line())
        for outcome in summary.sources:
            for path, reason in outcome.failed:
                print(f"  skipped while indexing: {escape_line(f'{path}: {reason}')}")
            for path, reason in outcome.notices:
                print(f"  indexed, but: {escape_line(f'{path}: {reason}')}")
    return 0


@contextlib.contextmanager
def said_when_interrupted(store: Store, cancel: CancelToken) -> Iterator[None]:
    """Ctrl-C during a long index: say what it left — the documents made searchable so far, when
    ``--keep-on-cancel`` kept them; otherwise the store as before (the default words)."""
    try:
        yield
    except KeyboardInterrupt:
        if not cancel.kept:
            raise
        raise Cancelled(
            msg(
                "Interrupted; the {count} documents indexed so far stay searchable. "
                "`kortty-rag source refresh {store}` indexes the rest.",
                count=cancel.kept,
                store=shlex.quote(store.name),
            )
        ) from None


def cmd_refresh(args: argparse.Namespace) -> int:
    with Workspace() as workspace:
        store = workspace.store(args.name)
        ids = [find_source(store, args.path).id] if args.path else None
        progress = StderrProgress()
        cancel = CancelToken(keep_published=args.keep_on_cancel)
        # the review is shown and confirmed here: sources waiting for a person's review are in it
        with said_when_interrupted(store, cancel):
            reviewed = workspace.refresh_sources(
                store,
                ids,
                include_unreviewed=True,
                confirm=confirm_review(args, progress),
                progress=progress.tracker,
                cancel=cancel,
            )
        return report_indexing(reviewed, args, progress)


def cmd_move(args: argparse.Namespace) -> int:
    with Workspace() as workspace:
        store = workspace.store(args.name)
        source = find_source(store, args.path)
        progress = StderrProgress()
        reviewed = workspace.move_source(
            store,
            source,
            args.new_path,
            confirm=confirm_review(args, progress),
            progress=progress.tracker,
        )
        moved = workspace.store(store.id).source(source.id)
        if moved.path != source.path:
            print(
                f"Source {escape_line(source.path)} now points to {escape_line(moved.path)}.",
                file=sys.stderr,
            )
        return report_indexing(reviewed, args, progress)


def source_rows(store: Store) -> list[list[str]]:
    rows = []
    for s in store.sources:
        status = s.status.value if s.enabled else f"{s.status.value} (disabled)"
        if s.limited_watching:
            status += " (limited watching)"
        if s.needs_review:
            status += " (needs review)"
        rows.append(
            [
                s.path,
                s.kind.value,
                s.sync_mode.value,
                status,
                f"{s.counts.files}/{s.counts.chunks}",
                str(s.counts.skipped),
                str(s.counts.issues),
                s.last_indexed_at or "never",
                s.status_reason,
            ]
        )
    return rows


def cmd_list(args: argparse.Namespace) -> int:
    store = Workspace().store(args.name)
    if args.json:
        print_json([s.to_json() for s in store.sources])
        return 0
    if not store.sources:
        print(f"Store {store.name!r} has no sources yet.")
        return 0
    table(
        [
            "PATH",
            "TYPE",
            "SYNC",
            "STATUS",
            "FILES/CHUNKS",
            "SKIPPED",
            "ISSUES",
            "LAST INDEXED",
            "REASON",
        ],
        source_rows(store),
    )
    print()
    if store.type is StoreType.LOCAL:
        print(describe_lexical(lexical_state(store), store.name))
    else:  # the points' own language needs a connection: `store retrieval` makes one
        print(
            f"Lexical language: {languages.describe(store.options.retrieval.language)} (`kortty-rag store "
            f"retrieval {store.name!r}` shows the language of the points)."
        )
    return 0


def cmd_toggle(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    source = find_source(store, args.path)
    workspace.set_source_enabled(store, source, args.enable)
    state = "enabled" if args.enable else "disabled: its chunks are kept but never retrieved"
    print(f"Source {escape_line(source.path)} {state}.")
    return 0


def cmd_mode(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    source = find_source(store, args.path)
    workspace.set_sync_mode(store, source, SyncMode(args.mode))
    print(f"Source {escape_line(source.path)} now syncs {args.mode}.")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    workspace = Workspace()
    store = workspace.store(args.name)
    source = find_source(store, args.path)
    question = (
        f"Remove source {escape_line(source.path)} from {store.name!r} with its "
        f"{source.counts.chunks} chunks? The files themselves are not touched."
    )
    if not confirm(question, args.yes):
        raise UsageError("Not removed (no confirmation)", hint="Pass --yes to confirm.")
    removed = workspace.remove_source(store, source)
    print(
        f"Removed source {escape_line(source.path)} and {removed} chunks; "
        "its files were not touched."
    )
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    try:
        options = SourceOptions(
            include=tuple(args.include),
            exclude=tuple(args.exclude),
            respect_gitignore=not args.no_gitignore,
            max_file_size=args.max_file_size,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    with Workspace() as workspace:
        store = workspace.store(args.name)
        progress = StderrProgress()
        cancel = CancelToken(keep_published=args.keep_on_cancel)
        with said_when_interrupted(store, cancel):
            reviewed = workspace.add_sources(
                store,
                args.paths,
                options=options,
                sync_mode=SyncMode.AUTO if args.auto else SyncMode.MANUAL,
                confirm=confirm_review(args, progress),
                progress=progress.tracker,
                cancel=cancel,
            )
        return report_indexing(reviewed, args, progress)

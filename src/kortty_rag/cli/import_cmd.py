"""``kortty-rag import kortty``: korTTY's (Java) knowledge stores as kortty-rag stores."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from kortty_rag.app.workspace import PreparedReview, Workspace
from kortty_rag.cli.render import StderrProgress, print_json
from kortty_rag.cli.sources_cmd import show_review
from kortty_rag.cli.stores_cmd import confirm
from kortty_rag.models import Store
from kortty_rag.untrusted import escape_line


def cmd_import_kortty(args: argparse.Namespace) -> int:
    """The stores are created with their sources waiting for a review (docs/DESIGN.md §14); the
    review of each is printed and applied only with ``--yes`` (or a ``y`` on a terminal)."""
    progress = StderrProgress()
    reviews: dict[str, dict[str, Any]] = {}

    def decide(store: Store, review: PreparedReview) -> bool:
        progress.done()
        if args.json:
            reviews[store.id] = show_review(review, as_json=True) or {}
        else:
            print(f"Review of {store.name!r}:")
            show_review(review, as_json=False)
            print()
        counts = review.report.summary()
        return confirm(
            f"Accept the sources of {store.name!r}, index {counts.to_index} files and remove "
            f"{counts.removed}?",
            args.yes,
        )

    with Workspace() as workspace:
        outcomes = workspace.import_kortty(
            args.home,
            model_id=args.model,
            confirm=None if args.no_index else decide,
            progress=progress.tracker,
        )
    progress.done()
    if args.json:
        print_json(
            [
                o.to_json()
                | ({"review": reviews[o.store.id]} if o.store and o.store.id in reviews else {})
                for o in outcomes
            ]
        )
        return 0
    if not outcomes:
        print("korTTY has no stores to import.")
    for outcome in outcomes:
        name = escape_line(outcome.kortty_name)
        if outcome.store is None:
            print(f"{name}: not imported — {escape_line(outcome.skipped)}")
            continue
        if outcome.reused:
            kept = f"{outcome.reused} chunks with korTTY's vectors, nothing embedded"
        else:
            kept = "no vectors of korTTY's kept"
        if outcome.indexed:
            sources = "its sources were reviewed and indexed here"
        elif outcome.store.sources:
            command = shlex.join(["kortty-rag", "source", "refresh", outcome.store.name, "--yes"])
            sources = f"its sources wait for your review (`{command}`)"
        else:
            sources = "no source was imported"
        print(f"{name}: imported as {outcome.store.name!r}; {kept}; {sources}")
        for note in outcome.notes:
            print(f"  note: {escape_line(note)}")
    return 0

"""``kortty-rag source …``: add (scan, review, confirm, index)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from kortty_rag.cli.render import StderrProgress, print_json, review_table
from kortty_rag.cli.stores_cmd import confirm
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import UsageError
from kortty_rag.models import DEFAULT_MAX_FILE_SIZE, GiB, MiB, SourceOptions, SyncMode
from kortty_rag.sync.jobs import PreparedReview, StoreJob
from kortty_rag.sync.pipeline import IndexSummary


def parse_size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*(MiB|MB|M|GiB|GB|G)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"invalid size {text!r} (use e.g. 50MiB or 1GiB)")
    unit = (match.group(2) or "MiB").upper()
    return int(match.group(1)) * (GiB if unit.startswith("G") else MiB)


def register(commands: Any) -> None:
    source = commands.add_parser("source", help="add and manage the files and folders of a store")
    sub = source.add_subparsers(dest="source_command", metavar="ACTION", required=True)

    add = sub.add_parser("add", help="scan files/folders, show the review, and index on --yes")
    add.add_argument("name", help="store name")
    add.add_argument("paths", nargs="+", metavar="PATH")
    add.add_argument("--yes", action="store_true", help="confirm the review and index")
    add.add_argument("--json", action="store_true", help="machine-readable review and summary")
    add.add_argument("--auto", action="store_true", help="sync mode auto (watch for changes)")
    add.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="only index files matching this gitignore-style pattern (repeatable)",
    )
    add.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="never index files matching this pattern (repeatable)",
    )
    add.add_argument("--no-gitignore", action="store_true", help="ignore .gitignore files")
    add.add_argument(
        "--max-file-size",
        type=parse_size,
        default=DEFAULT_MAX_FILE_SIZE,
        metavar="SIZE",
        help="per-file limit, 1MiB..1GiB (default 50MiB)",
    )
    add.set_defaults(handler=cmd_add)


def show_review(review: PreparedReview, *, as_json: bool) -> dict[str, Any] | None:
    if as_json:
        data = review.report.to_json()
        data["rejected"] = [row.to_json() for row in review.rejected]
        return data
    review_table(review.rows)
    print()
    for line in review.report.summary().lines():
        print(line)
    for source_review in review.report.sources:
        if source_review.root_error:
            print(f"{source_review.source.path}: {source_review.root_error}")
    return None


def run_review_and_index(
    job: StoreJob, review: PreparedReview, args: argparse.Namespace, progress: StderrProgress
) -> int:
    data = show_review(review, as_json=args.json)
    summary_counts = review.report.summary()
    nothing = (
        summary_counts.to_index == 0 and summary_counts.removed == 0 and not review.new_sources
    )
    if nothing and not any(r.root_state.value != "ok" for r in review.report.sources):
        if data is not None:
            print_json(data | {"indexed": False})
        else:
            print("Nothing to index.")
        return 0
    question = f"Index {summary_counts.to_index} files and remove {summary_counts.removed}?"
    if not confirm(question, args.yes):
        if data is not None:
            print_json(data | {"indexed": False})
        else:
            print("Not indexed. Re-run with --yes to confirm this review.", file=sys.stderr)
        return 0
    summary: IndexSummary = job.apply(review)
    progress.done()
    if data is not None:
        print_json(data | {"indexed": True, "summary": summary.to_json()})
    else:
        print(summary.line())
        for outcome in summary.sources:
            for path, reason in outcome.failed:
                print(f"  skipped while indexing: {path}: {reason}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    registry = StoreRegistry()
    store = registry.get(args.name)
    try:
        options = SourceOptions(
            include=tuple(args.include),
            exclude=tuple(args.exclude),
            respect_gitignore=not args.no_gitignore,
            max_file_size=args.max_file_size,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    progress = StderrProgress()
    with StoreJob(store, registry=registry, progress=progress.tracker) as job:
        review = job.review_new_sources(
            args.paths, options=options, sync_mode=SyncMode.AUTO if args.auto else SyncMode.MANUAL
        )
        progress.done()
        return run_review_and_index(job, review, args, progress)

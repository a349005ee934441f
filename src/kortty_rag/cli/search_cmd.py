"""``kortty-rag search``: the exact context block a model would receive, plus the explanation.

The block is already neutralised for a model, but it still holds text and paths from the files, so it
is printed through the terminal rendering rule of :mod:`kortty_rag.untrusted` (control, bidirectional
and format characters and backslashes shown as escapes). ``--json`` gives the exact block and, per
excerpt, both the neutralised ``text`` and the ``raw_text`` as stored.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kortty_rag.app.guidance import weak_results_guidance
from kortty_rag.app.search_results import (
    DROP_BELOW_FLOOR,
    RetrievalResult,
    SearchOptions,
    SearchRequest,
    Weakness,
)
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json
from kortty_rag.models import RelevanceLevel
from kortty_rag.untrusted import escape_line, escape_lines

WEAK_RESULTS_GUIDANCE = weak_results_guidance()
NOTHING_RELEVANT_GUIDANCE = (
    "Candidates were found, but none matched closely enough for the store's minimum relevance. "
    "Rephrase with words that occur in the documents, or try `--min-relevance off` to see what the "
    "store would give (`--explain` shows the strongest rejected candidates)."
)
#: the strongest rejected candidates `--explain` lists when nothing was relevant enough
SHOWN_REJECTED = 6


def _scores(c: Any) -> str:
    if c.dense_rank:
        dense = f"dense #{c.dense_rank} ({c.dense_score:.3f})"
    elif c.dense_score is not None:  # a lexical match beyond the dense candidates
        dense = f"dense - ({c.dense_score:.3f})"
    else:
        dense = "dense -"
    if c.lexical_rank:
        terms = "" if c.coverage is None else f", {c.coverage:.0%} of terms"
        lexical = f"lexical #{c.lexical_rank} ({c.lexical_score:.2f}{terms})"
    else:
        lexical = "lexical -"
    linked = ""
    if c.linked is not None:  # the note's title is the file's words: escaped like a path
        linked = f"  {escape_line(c.linked.text())} (+{c.graph_bonus:.4f})"
    return f"relevance {c.relevance:.2f}  {dense}  {lexical}  fused {c.fused:.4f}{linked}"


def print_explanation(result: RetrievalResult) -> None:
    print(
        f"\nExplanation: {len(result.excerpts)} excerpts, {result.used_tokens} of "
        f"{result.budget_tokens} budget tokens (estimated)"
    )
    for floor in result.relevance:
        print(f"Minimum relevance for {escape_line(floor.store)!r}: {floor.describe()}")
    for excerpt in result.excerpts:
        location = escape_line(excerpt.location())
        print(f"  [{excerpt.marker}] {_scores(excerpt.candidate)}  {location}")
    dropped = list(result.dropped)
    if result.nothing_relevant:
        dropped = [d for d in dropped if d.reason == DROP_BELOW_FLOOR][:SHOWN_REJECTED]
        title = "Strongest rejected candidates:"
    else:
        title = "Dropped:"
    if dropped:
        print(title)
        for entry in dropped:
            location = escape_line(entry.candidate.location)
            print(f"  {entry.reason}: {_scores(entry.candidate)}  {location}")


def cmd_search(args: argparse.Namespace) -> int:
    options = SearchOptions(
        dense=not args.lexical_only,
        lexical=not args.dense_only,
        explain=args.explain or args.json,
        min_relevance=None if args.min_relevance is None else RelevanceLevel(args.min_relevance),
    )
    with Workspace() as workspace:
        store = workspace.store(args.name)
        result = workspace.search(
            SearchRequest(args.query, [store], options, context_window=args.context_window)
        )
    if args.json:
        print_json(result.to_json(raw_text=True))
        return 0
    if result.block:
        print(escape_lines(result.block))
    else:
        print(result.note)
    weakness = result.weakness
    if weakness is Weakness.NOTHING_RELEVANT:
        print(NOTHING_RELEVANT_GUIDANCE, file=sys.stderr)
    elif weakness is not Weakness.NONE:
        print(WEAK_RESULTS_GUIDANCE, file=sys.stderr if result.block else sys.stdout)
    if args.explain:
        print_explanation(result)
    return 0

"""The arguments of ``kortty-rag search``, ``judge`` and ``ask``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kortty_rag.app.choices import RequestKind
from kortty_rag.cli.parsers.models import parse_role
from kortty_rag.models import RelevanceLevel


def register_search(commands: Any) -> None:
    search = commands.add_parser("search", help="show the context block a model would receive")
    search.add_argument("name", help="store name")
    search.add_argument("query")
    search.add_argument(
        "--explain", action="store_true", help="show scores, ranks and why candidates were dropped"
    )
    search.add_argument("--json", action="store_true")
    parts = search.add_mutually_exclusive_group()
    parts.add_argument("--dense-only", action="store_true", help="switch the lexical part off")
    parts.add_argument("--lexical-only", action="store_true", help="switch the dense part off")
    search.add_argument(
        "--context-window",
        type=int,
        metavar="TOKENS",
        help="the target model's context window (the block gets at most 25%%)",
    )
    search.add_argument(
        "--min-relevance",
        choices=[level.value for level in RelevanceLevel],
        metavar="LEVEL",
        help="override the store's minimum relevance for this query: "
        + ", ".join(level.value for level in RelevanceLevel),
    )
    search.set_defaults(handler="search_cmd:cmd_search")


def register_judge(commands: Any) -> None:
    judge = commands.add_parser(
        "judge",
        help="keep your own judged questions of a store and check the store against them",
        description="Mark which documents answer a question (never any file text is kept), then "
        "check how well the store ranks them: nDCG@10 and Recall@10, before and after a change.",
    )
    judge.add_argument("name", help="store name")
    judge.add_argument("question", nargs="?", help="the question the marks are for")
    judge.add_argument(
        "--relevant",
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="documents that answer the question (their whole path)",
    )
    judge.add_argument(
        "--not-relevant",
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="documents that do not answer it (kept, and exported with score 0)",
    )
    action = judge.add_mutually_exclusive_group()
    action.add_argument(
        "--check",
        action="store_true",
        help="ask every judged question again and report nDCG@10 and Recall@10",
    )
    action.add_argument("--list", action="store_true", help="the judged questions and their marks")
    action.add_argument("--forget", metavar="QUESTION", help="forget a judged question")
    action.add_argument(
        "--export",
        metavar="DIR",
        type=Path,
        help="write DIR/queries.jsonl and DIR/qrels/test.tsv (BEIR)",
    )
    judge.add_argument("--json", action="store_true")
    judge.set_defaults(handler="judge_cmd:cmd_judge")


def register_ask(commands: Any) -> None:
    ask = commands.add_parser("ask", help="ask a role's AI profile, with retrieved context")
    ask.add_argument("role", type=parse_role, metavar="ROLE", help="Text or Coding")
    ask.add_argument("question", nargs="?", default="", help="the prompt (may be empty)")
    ask.add_argument(
        "--kind",
        choices=[k.value for k in RequestKind],
        default="action",
        help="the request kind; autonomous kinds need a store's opt-in, diagram and visual "
        "requests get no excerpts (default: action)",
    )
    ask.add_argument(
        "--selection", metavar="TEXT", help="selected terminal/snippet text sent with the prompt"
    )
    ask.add_argument(
        "--show-prompt", action="store_true", help="print the messages sent to the model first"
    )
    ask.add_argument("--max-tokens", type=int, default=1024, metavar="N")
    ask.add_argument("--temperature", type=float, default=0.2, metavar="T")
    ask.add_argument("--json", action="store_true", help="print one JSON object when done")
    ask.set_defaults(handler="ask_cmd:cmd_ask")

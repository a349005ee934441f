"""``kortty-rag judge``: the person's own judged questions of a store, and the check they make
(README, "Your own questions as a check"; docs/DESIGN.md §15).

- ``judge STORE "QUESTION" --relevant PATH… [--not-relevant PATH…]`` keeps the verdicts;
- ``judge STORE --check [--json]`` asks every judged question again and prints nDCG@10 and
  Recall@10 against the judgments, next to the last check's figures;
- ``judge STORE --list``, ``--forget "QUESTION"`` and ``--export DIR`` (BEIR queries and qrels).

Questions and paths are the person's and the files' strings: printed through
:mod:`kortty_rag.untrusted`, like every other command's.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any

from kortty_rag.app.judged_check import CheckReport
from kortty_rag.app.judgments import CheckFigures, Judgments, Mark, Verdict, normal_question
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json, table
from kortty_rag.errors import UsageError
from kortty_rag.untrusted import escape_line


def cmd_judge(args: argparse.Namespace) -> int:
    marking = bool(args.relevant or args.not_relevant)
    other = args.check or args.list or args.forget is not None or args.export is not None
    if other and (marking or args.question is not None):
        raise UsageError(
            "--check, --list, --forget and --export take no QUESTION, --relevant or --not-relevant",
            hint="Record the marks and run the check as two commands.",
        )
    if not other and (args.question is None or not marking):
        raise UsageError(
            "Nothing to do: give a QUESTION with --relevant PATH… (and/or --not-relevant PATH…), "
            "or one of --check, --list, --forget QUESTION, --export DIR",
            hint=f"For example: kortty-rag judge {shlex.quote(args.name)} "
            '"how do I rotate the keys?" --relevant ~/notes/keys.md',
        )
    with Workspace() as workspace:
        store = workspace.store(args.name)
        if args.check:
            report = workspace.judging.check(store, progress=QuestionProgress())
            if args.json:
                print_json(report.to_json())
            else:
                print_check(report)
        elif args.list:
            print_list(store.name, workspace.judging.judgments(store), as_json=args.json)
        elif args.forget is not None:
            if not workspace.judging.forget(store, args.forget):
                raise UsageError(
                    f"Store {store.name!r} has no judged question {args.forget!r}",
                    hint=f"`kortty-rag judge {shlex.quote(store.name)} --list` shows them as "
                    "they were kept.",
                )
            if args.json:
                print_json({"store": store.name, "forgotten": args.forget})
            else:
                print(f"Forgot the judged question {escape_line(normal_question(args.forget))!r}.")
        elif args.export is not None:
            exported = workspace.judging.export(store, args.export)
            if args.json:
                print_json(exported.to_json())
            else:
                print(
                    f"Exported {exported.questions} question(s) and {exported.judgments} "
                    f"judgment(s):\n  {escape_line(str(exported.queries))}\n"
                    f"  {escape_line(str(exported.qrels))}"
                )
        else:
            marks = [Mark(_whole(p), Verdict.RELEVANT) for p in args.relevant]
            marks += [Mark(_whole(p), Verdict.NOT_RELEVANT) for p in args.not_relevant]
            judged = workspace.judging.judge(store, args.question, marks)
            if args.json:
                print_json({"store": store.name} | judged.to_json())
            else:
                print(
                    f"Judged {escape_line(judged.question)!r} in store {store.name!r}: "
                    f"{len(judged.relevant)} relevant, {len(judged.not_relevant)} not relevant."
                )
    return 0


def _whole(path: str) -> str:
    """A path as the context block names documents: absolute (relative to the current folder),
    ``~`` expanded, links not resolved."""
    return os.path.abspath(os.path.expanduser(path))


class QuestionProgress:
    """Progress on stderr: one line per question on a terminal (the first loads the model)."""

    def __init__(self) -> None:
        self.total = 0
        self.done = 0
        self.tty = sys.stderr.isatty()

    def stage(self, name: str, total: int | None = None) -> None:
        self.total, self.done = total or 0, 0

    def advance(self, amount: int = 1) -> None:
        self.done += amount
        if self.tty:
            end = "\n" if self.done >= self.total else ""
            print(
                f"\r\x1b[2KChecked {self.done} of {self.total} questions", end=end, file=sys.stderr
            )

    def count(self, *, documents: int = 0, chunks: int = 0, issues: int = 0) -> None:
        pass

    def message(self, text: str) -> None:
        pass


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def value_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "-" if value is None else str(value)


def settings_line(settings: dict[str, Any]) -> str:
    return escape_line(", ".join(f"{name} {value_text(v)}" for name, v in settings.items()))


def _figures(figures: CheckFigures) -> str:
    return (
        f"nDCG@10 {figure(figures.ndcg_at_10)}, Recall@10 {figure(figures.recall_at_10)} "
        f"over {figures.measured} of {figures.questions} question(s)"
    )


def print_check(report: CheckReport) -> None:
    now, before = report.now, report.previous
    print(f"Store {report.store!r}: {now.questions} judged question(s).")
    if report.excluded:
        print(
            f"Without a document marked relevant: {report.excluded} (listed below, left out "
            "of the means)."
        )
    if before is None:
        print(f"nDCG@10   {figure(now.ndcg_at_10)}")
        print(f"Recall@10 {figure(now.recall_at_10)}")
        print("(The first check: the next one shows before -> now.)")
    else:
        print(f"nDCG@10   {figure(before.ndcg_at_10)} -> {figure(now.ndcg_at_10)}")
        print(f"Recall@10 {figure(before.recall_at_10)} -> {figure(now.recall_at_10)}")
        print(f"Before ({escape_line(before.checked_at)}): {_figures(before)}")
        print(f"  settings: {settings_line(before.settings)}")
    print(f"Now ({escape_line(now.checked_at)}): {_figures(now)}")
    print(f"  settings: {settings_line(now.settings)}")
    if before is not None:
        changes = report.changes
        if changes:
            print("Changed since the last check:")
            for change in changes:
                print(
                    "  "
                    + escape_line(
                        f"{change.name}: {value_text(change.before)} -> {value_text(change.now)}"
                    )
                )
        else:
            print("No setting changed since the last check.")
    print()
    table(
        ["NDCG@10", "RECALL@10", "FOUND", "QUESTION"],
        [
            [
                figure(q.ndcg),
                figure(q.recall),
                f"{len(q.found)}/{len(q.relevant)}",
                repr(q.question),
            ]
            for q in report.per_question
        ],
    )


def print_list(store: str, judgments: Judgments, *, as_json: bool) -> None:
    if as_json:
        print_json(
            {
                "store": store,
                "judgments": [
                    {
                        "question": q.question,
                        "relevant": list(q.relevant),
                        "not_relevant": list(q.not_relevant),
                        "marks": [m.to_json() for m in q.marks],
                    }
                    for q in judgments.questions
                ],
                "last_check": (
                    None if judgments.last_check is None else judgments.last_check.figures_json()
                ),
            }
        )
        return
    if not judgments.questions:
        print(f"Store {store!r} has no judged question yet.")
        return
    for judged in judgments.questions:
        print(escape_line(repr(judged.question)))
        for mark in judged.marks:
            verdict = "relevant" if mark.verdict is Verdict.RELEVANT else "not relevant"
            print(f"  {verdict:<13} {escape_line(mark.path)}")
    last = judgments.last_check
    if last is not None:
        print(f"Last check ({escape_line(last.checked_at)}): {_figures(last)}")

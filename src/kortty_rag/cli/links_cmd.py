"""``kortty-rag store links STORE``: the notes and links of a store's served state — how many links
resolve, the dangling ones (a note renamed or removed, a typo) and front matter that was not read."""

from __future__ import annotations

import argparse

from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json
from kortty_rag.untrusted import escape_line

#: dangling links and problems listed at most (the counts are always whole)
SHOWN = 200


def cmd_links(args: argparse.Namespace) -> int:
    with Workspace() as workspace:
        store = workspace.store(args.name)
        report = workspace.note_report(store, SHOWN)
    if report is None:
        text = f"Store {store.name!r} is a Qdrant store: it keeps no links between notes."
        if args.json:
            print_json({"store": store.name, "graph": False, "note": text})
        else:
            print(escape_line(text))
        return 0
    if args.json:
        print_json(
            {
                "store": store.name,
                "graph": store.follows_links,
                "notes": report.notes,
                "links": report.links,
                "resolved": report.resolved,
                "dangling_total": report.dangling_total,
                "dangling": [
                    {"source_id": d.source_id, "path": d.rel_path, "target": d.target}
                    for d in report.dangling
                ],
                "front_matter_problems": [
                    {"source_id": p.source_id, "path": p.rel_path, "problem": p.problem}
                    for p in report.problems
                ],
            }
        )
        return 0
    followed = "followed in searches" if store.follows_links else "not followed"
    print(
        escape_line(
            f"Store {store.name!r}: {report.notes} notes, {report.links} links, {report.resolved} "
            f"to another document of the store; links {followed} "
            f"(kortty-rag store retrieval {store.name} --graph on|off)."
        )
    )
    if report.dangling_total:
        print(f"Dangling links ({report.dangling_total}; they point at no file of the store):")
        for d in report.dangling:
            print(f"  {escape_line(d.rel_path)} → {escape_line(d.target)}")
        if report.dangling_total > len(report.dangling):
            print(f"  … and {report.dangling_total - len(report.dangling)} more")
    if report.problems:
        print("Front matter not read (the notes' text is indexed all the same):")
        for p in report.problems:
            print(f"  {escape_line(p.rel_path)}: {escape_line(p.problem)}")
    return 0

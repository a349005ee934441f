"""``kortty-rag doctor``: check every store and say what to do; ``--repair`` does what is safe."""

from __future__ import annotations

import argparse

from kortty_rag.app.doctor import Severity
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json
from kortty_rag.untrusted import escape_line


def cmd_doctor(args: argparse.Namespace) -> int:
    with Workspace() as workspace:
        report = workspace.check_stores(args.stores)
        if args.repair and report.repairable:
            report = workspace.repair_stores(report)
    if args.json:
        print_json(report.to_json())
    else:
        for line in report.repaired:
            print(f"repaired {escape_line(line)}")
        for finding in report.findings:
            print(escape_line(finding.line()))
        problems = sum(f.severity is Severity.PROBLEM for f in report.findings)
        warnings = sum(f.severity is Severity.WARNING for f in report.findings)
        if problems:
            print(f"{problems} problem(s), {warnings} warning(s).")
        else:
            print(f"Healthy ({warnings} warning(s)).")
    return 0 if report.healthy else 1

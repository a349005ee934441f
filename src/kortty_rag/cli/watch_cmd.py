"""``kortty-rag watch``: keep every ``auto`` source in sync until interrupted.

Ctrl-C (SIGINT) and SIGTERM stop it even when it inherited SIGINT ignored (started in the background
of a script): a running refresh is cancelled, its store keeps the previous snapshot, and the command
exits with 130 or 143 (:mod:`kortty_rag.stop_signals`).
"""

from __future__ import annotations

import argparse
import threading
from typing import Any

from kortty_rag.app.auto_refresh import AutoRefresher, RefreshResult
from kortty_rag.app.diagnostics import start_log
from kortty_rag.app.workspace import Workspace
from kortty_rag.models import Store
from kortty_rag.stop_signals import stopping_on_signals
from kortty_rag.untrusted import escape_line


def _report(stores: list[Store]) -> Any:
    names = {s.id: s.name for s in stores}

    def show(result: RefreshResult) -> None:
        name = escape_line(names.get(result.store_id, result.store_id))
        reason = escape_line(result.reason)
        if result.error is not None:
            print(
                f"[{name}] refresh after {reason} failed: {escape_line(str(result.error))}",
                flush=True,
            )
        elif result.summary is not None:
            print(f"[{name}] refresh after {reason}: {result.summary.line()}", flush=True)

    return show


def cmd_watch(args: argparse.Namespace) -> int:
    with stopping_on_signals():
        return _watch(args)


def _watch(args: argparse.Namespace) -> int:
    workspace = Workspace()
    everything = workspace.stores()
    stores = [workspace.store(n) for n in args.store] if args.store else everything
    start_log("watch")  # the refreshes' failures, with tracebacks of unexpected ones
    refresher = AutoRefresher(on_result=_report(everything)).start()  # the same data folder
    watching = workspace.watch(
        refresher.request, stores=stores if args.store else None, debounce=args.debounce
    )
    try:
        watching.start()
        for (store_id, source_id), reason in watching.limited.items():
            source = workspace.store(store_id).source(source_id)
            where = escape_line(f"{source.path}: {reason}")
            print(f"limited watching: {where} (refresh it manually)", flush=True)
        count = len(watching.watched)
        if args.once:
            refresher.wait_idle(timeout=24 * 3600)
            return 0
        print(f"Watching {count} auto sources in {len(stores)} stores; Ctrl-C stops.", flush=True)
        threading.Event().wait()
    finally:
        watching.stop()
        refresher.stop()
    return 0

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
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.stop_signals import stopping_on_signals
from kortty_rag.sync.watch import SourceWatcher
from kortty_rag.untrusted import escape_line


def _report(registry: StoreRegistry) -> Any:
    names = {s.id: s.name for s in registry.list()}

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
    registry = StoreRegistry()
    stores = [registry.get(n) for n in args.store] if args.store else registry.list()
    start_log("watch")  # the refreshes' failures, with tracebacks of unexpected ones
    refresher = AutoRefresher(registry=registry, on_result=_report(registry)).start()
    watcher = SourceWatcher(refresher.request, registry=registry, debounce=args.debounce)
    try:
        watcher.start(stores)
        for (store_id, source_id), reason in watcher.limited.items():
            source = registry.get(store_id).source(source_id)
            where = escape_line(f"{source.path}: {reason}")
            print(f"limited watching: {where} (refresh it manually)", flush=True)
        count = len(watcher.watched)
        if args.once:
            refresher.wait_idle(timeout=24 * 3600)
            return 0
        print(f"Watching {count} auto sources in {len(stores)} stores; Ctrl-C stops.", flush=True)
        threading.Event().wait()
    finally:
        watcher.stop()
        refresher.stop()
    return 0

"""Watching the ``auto`` sources of a workspace's stores (``Workspace.watch``; docs/DESIGN.md §14).

One :class:`Watching` per front end that watches (the desktop app's main window, ``kortty-rag
watch``). It follows every write of a store definition in this process by itself
(:func:`~kortty_rag.config.registry.on_store_written`): a source switched to automatic sync, added,
removed or a store deleted is watched or dropped at once, and no front end has to say that a store
changed. Changes made by another process are picked up at the next start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kortty_rag.config.registry import StoreRegistry, on_store_written
from kortty_rag.errors import ConfigError, NotFoundError
from kortty_rag.models import DEFAULT_DEBOUNCE_SECONDS, Store
from kortty_rag.sync.watch import DueCallback, SourceWatcher

__all__ = ["DEFAULT_DEBOUNCE_SECONDS", "DueCallback", "Watching"]


class Watching:
    """The watched sources of some or all stores; :meth:`stop` ends it (safe to call twice)."""

    def __init__(
        self,
        registry: StoreRegistry,
        on_due: DueCallback,
        *,
        stores: Sequence[Store] | None = None,
        debounce: float = DEFAULT_DEBOUNCE_SECONDS,
    ) -> None:
        self._registry = registry
        self._only = None if stores is None else frozenset(s.id for s in stores)
        self._watcher = SourceWatcher(on_due, registry=registry, debounce=debounce)
        self._stores = stores
        self._unsubscribe: Callable[[], None] | None = None

    def start(self, *, reconcile: bool = True) -> Watching:
        """Watch the stores' auto sources; with ``reconcile`` every one is due at once (changes
        made while nothing watched are caught up)."""
        self._unsubscribe = on_store_written(self._follow)
        self._watcher.start(self._stores, reconcile=reconcile)
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._watcher.stop()

    @property
    def watched(self) -> list[tuple[str, str]]:
        """``(store_id, source_id)`` of every source watched now."""
        return self._watcher.watched

    @property
    def limited(self) -> dict[tuple[str, str], str]:
        """Sources that cannot be watched fully, with the reason (refresh them by hand)."""
        return dict(self._watcher.limited)

    @property
    def settled(self) -> bool:
        """No change is waiting for its quiet time to pass."""
        return self._watcher.settled

    def _follow(self, store_id: str) -> None:
        if self._only is not None and store_id not in self._only:
            return
        try:
            store = self._registry.get(store_id)
        except (NotFoundError, ConfigError):  # deleted, or its definition is damaged now
            self._watcher.forget(store_id)
            return
        self._watcher.resync(store)

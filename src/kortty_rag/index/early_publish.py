"""A long first index searchable early: the documents finished so far published in parts
(docs/DESIGN.md §9).

Each part is a snapshot like any other — written, verified and activated atomically — holding whole
documents only. The snapshot the store served before the job stays on disk beside the parts until
the job ends: a job that fails, or is cancelled without keeping what it published, points the store
back at it (or, for a store that had none, empties it again), so the store is as before. A process
that dies meanwhile leaves the last part active; the next refresh indexes the rest (unchanged
documents are recognised by their content hash) and the next open removes the old snapshot.

The first part comes soon (:data:`FIRST_AFTER`), the next ones every :data:`EVERY` seconds, or less
often when a part costs more than :data:`COST_SHARE` of the time between parts (a part copies the
store's chunk table and writes its vector index again, which grows with the store).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from kortty_rag.config.store_files import CURRENT, open_store_folder
from kortty_rag.errors import SnapshotError
from kortty_rag.index.base import StoreUpdate
from kortty_rag.index.local import LocalStore, LocalUpdate
from kortty_rag.index.snapshot import (
    activate_snapshot,
    read_pointer,
    remove_leftovers,
    verify_snapshot,
)
from kortty_rag.messages import msg

#: seconds of indexing before the first part is published
FIRST_AFTER = 10.0
#: seconds between parts at least
EVERY = 30.0
#: at most this share of a job's time goes to publishing parts
COST_SHARE = 0.1


class PartPublisher:
    """Publishes a running job's finished documents into ``store`` (a local store, held under its
    lock by the job); :meth:`begin` gives the job its update, :meth:`publish` activates it and
    gives the next one."""

    def __init__(
        self,
        store: LocalStore,
        *,
        first_after: float | None = None,
        every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``first_after``, ``every``: by default :data:`FIRST_AFTER` and :data:`EVERY`."""
        self.store = store
        self._clock = clock
        self._every = EVERY if every is None else every
        self._wait = FIRST_AFTER if first_after is None else first_after
        self._since = clock()
        #: what the store served before the job: ``(snapshot, manifest sha256)``, or none
        self.before = read_pointer(store.folder)
        #: parts published so far, and the seconds they took
        self.parts = 0
        self.seconds = 0.0
        self._touched = False

    @property
    def touched(self) -> bool:
        """Whether a part was (or began to be) activated: what :meth:`restore` puts back."""
        return self._touched

    @property
    def _keep(self) -> str | None:
        return self.before[0] if self.before is not None else None

    def begin(self) -> LocalUpdate:
        """The job's update: its activation leaves the snapshot before the job in place."""
        return self.store.begin(keep=self._keep)

    def due(self) -> bool:
        return self._clock() - self._since >= self._wait

    def publish(self, update: StoreUpdate) -> LocalUpdate:
        """Activate ``update`` (what the job stored so far) and return the update to go on with."""
        started = self._clock()
        self._touched = True  # from here the store may serve a part: a stop puts it back
        update.commit()
        following = self.begin()
        self.store.release()  # the job does not serve: only its builder needs the new part
        cost = self._clock() - started
        self.parts += 1
        self.seconds += cost
        self._since = self._clock()
        self._wait = max(self._every, cost / COST_SHARE)
        return following

    def restore(self) -> None:
        """Put back what the store served before the job and remove the parts."""
        if self._touched:
            restore_pointer(self.store.folder, self.before)
            remove_leftovers(self.store.folder)

    def finish(self) -> None:
        """The job activated its last snapshot: the one before it is no longer needed."""
        if self.before is not None:
            remove_leftovers(self.store.folder)


def restore_pointer(folder: Path, pointer: tuple[str, str] | None) -> None:
    """Point ``CURRENT`` at ``pointer`` again after checking that snapshot completely; ``None``: the
    store had no snapshot, so the pointer goes. Call only under the store lock."""
    if pointer is None:
        try:
            with open_store_folder(folder) as store:
                store.unlink(CURRENT)
                store.fsync()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise SnapshotError(
                msg(
                    "Could not empty the store again ({reason}); what was indexed so far stays "
                    "searchable",
                    reason=exc.strerror or str(exc),
                )
            ) from exc
        return
    verify_snapshot(folder, *pointer)  # a damaged one is not put back: the last part serves
    try:
        activate_snapshot(folder, *pointer)
    except OSError as exc:
        raise SnapshotError(
            msg(
                "Could not go back to the snapshot before this job ({reason}); what was indexed "
                "so far stays searchable",
                reason=exc.strerror or str(exc),
            )
        ) from exc

"""A Qdrant store's connection, a part of the workspace (``Workspace.qdrant``): the check of its
service and collection, and its API key in the OS keyring (docs/DESIGN.md §9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kortty_rag.config.secrets import delete_api_key, read_api_key, store_api_key
from kortty_rag.models import Store

if TYPE_CHECKING:  # imports qdrant-client, loaded only for a check
    from kortty_rag.index.qdrant import StoreCheck


class QdrantAccess:
    """Checks and keys of Qdrant stores; none of them ever reports the key itself."""

    def check(self, store: Store) -> StoreCheck:
        """Connect to a Qdrant store's service and validate its collection and points (read
        only)."""
        from kortty_rag.index.qdrant import check_store

        return check_store(store)

    def set_key(self, store: Store, key: str) -> str:
        """Keep a Qdrant store's API key in the OS keyring (read back to be sure it was kept);
        returns the keyring's name. :meth:`check` then tells whether the service takes it."""
        return store_api_key(store.id, key)

    def replace_key(self, store: Store, key: str) -> str:
        """Keep ``key`` only if the service accepts it: the key kept before comes back (or none is
        kept) when the check fails, and the error says why. Returns the keyring's name."""
        previous = read_api_key(store.id)
        backend = store_api_key(store.id, key)
        try:
            self.check(store)
        except BaseException:
            if previous:
                store_api_key(store.id, previous)
            else:
                delete_api_key(store.id)
            raise
        return backend

    def remove_key(self, store: Store) -> bool:
        """Forget a Qdrant store's API key; ``False`` when none was kept."""
        return delete_api_key(store.id)

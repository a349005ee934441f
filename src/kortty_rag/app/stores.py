"""Creating knowledge stores, the same way from every front end (docs/DESIGN.md §3, §10).

A local store is a definition and nothing else until its first source is indexed. A Qdrant store is
checked completely before it counts as created: the URL against the endpoint rule and the collection
name (:func:`check_qdrant_target`, no connection, quick enough for a dialog's button), a usable OS
keyring when a key is given, then — after the definition is written and the key is in the keyring —
a connection that creates the collection or validates the existing one. Any failure on the way
removes the definition and the key again, so a store that could not be reached is never left behind.
The API key goes to the keyring only, never into the definition or a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kortty_rag.config.endpoints import ParsedEndpoint, check_endpoint
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.config.secrets import delete_api_key, store_api_key, usable_backend
from kortty_rag.errors import (
    IncompatibleCollectionError,
    KorttyRagError,
    RemoteStoreError,
    UsageError,
)
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType

UNREACHABLE_HINT = msg(
    "Check that the Qdrant service is running and reachable at that URL (and that the API key is "
    "right), then create the store again."
)


@dataclass(frozen=True)
class QdrantTarget:
    """Where a Qdrant store lives: the service's URL, the collection ("" for one named after the
    store's id) and the API key, if the service wants one."""

    url: str
    collection: str = ""
    api_key: str | None = None

    def __repr__(self) -> str:  # never shows the key
        return f"QdrantTarget(url={self.url!r}, collection={self.collection!r})"


@dataclass(frozen=True)
class CheckedTarget:
    endpoint: ParsedEndpoint
    collection: str | None


def check_qdrant_target(target: QdrantTarget) -> CheckedTarget:
    """The URL and collection checked, and the keyring when a key is given; no connection."""
    from kortty_rag.index.qdrant_layout import validate_collection

    if not target.url.strip():
        raise UsageError(
            msg("A Qdrant store needs the service's URL"),
            hint=msg(
                "e.g. https://qdrant.example.com:6333 (plain http:// only for 127.0.0.1, [::1] "
                "or localhost)."
            ),
        )
    endpoint = check_endpoint(target.url.strip(), what=msg("Qdrant URL"))
    name = target.collection.strip()
    collection = validate_collection(name) if name else None
    if target.api_key:
        usable_backend()  # no keyring: refuse before a definition exists
    return CheckedTarget(endpoint, collection)


def create_store(
    registry: StoreRegistry,
    name: str,
    identity: EmbeddingIdentity,
    *,
    roles: StoreRoles | None = None,
    settings: dict[str, Any] | None = None,
    qdrant: QdrantTarget | None = None,
) -> Store:
    """A new store; a Qdrant store is connected (collection created or validated) before it is
    returned, or removed again with its key and the error says it was not created."""
    roles = roles or StoreRoles()
    if qdrant is None:
        return registry.create(name, identity, roles=roles, settings=settings)
    return _create_qdrant(registry, name, identity, roles=roles, settings=settings, target=qdrant)


def _create_qdrant(
    registry: StoreRegistry,
    name: str,
    identity: EmbeddingIdentity,
    *,
    roles: StoreRoles,
    settings: dict[str, Any] | None,
    target: QdrantTarget,
) -> Store:
    from kortty_rag.index.factory import open_vector_store
    from kortty_rag.index.qdrant_layout import default_collection

    checked = check_qdrant_target(target)
    store = registry.create(name, identity, type=StoreType.QDRANT, roles=roles, settings=settings)
    where = {
        "url": checked.endpoint.url,
        "collection": checked.collection or default_collection(store.id),
    }
    try:
        store = registry.update(store.id, lambda s: s.with_qdrant(**where))
        if target.api_key:
            store_api_key(store.id, target.api_key)
        open_vector_store(store).close()  # creates or validates the collection
    except BaseException as exc:
        delete_api_key(store.id)
        registry.delete(store)
        if isinstance(exc, KorttyRagError):
            exc.message = msg(
                "Store {name!r} was not created: {reason}", name=name, reason=exc.message
            )
        if isinstance(exc, RemoteStoreError) and not isinstance(exc, IncompatibleCollectionError):
            # its own hint is about a store that exists and keeps serving
            exc.hint = UNREACHABLE_HINT
        raise
    return store


def discard_new_store(registry: StoreRegistry, store: Store) -> None:
    """Remove a store created a moment ago, with its key; the points of a Qdrant collection it may
    have created stay (it holds none of this store's chunks yet)."""
    if store.type is StoreType.QDRANT:
        delete_api_key(store.id)
    registry.delete(store)

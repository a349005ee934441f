"""One Qdrant connection: the endpoint rule, timeouts, bounded retries, clear errors (docs/DESIGN.md §10).

* The URL passes :func:`~kortty_rag.config.endpoints.check_endpoint` (https for a remote server,
  http only for loopback, nothing in the path that could name another server) before a client
  object even exists, so a refused URL never causes a connection attempt. The client is built from
  the validated parts (host, port, scheme, path prefix), never from the raw text, and every request
  it sends is checked against them once more: a request for any other scheme, host or port is
  refused before it is sent. Plain-http (loopback) connections ignore proxy settings from the
  environment, which would carry the key and the chunks unencrypted to the proxy.
* Every request has a timeout (the client's, applied to connect, read and write).
* Transient failures — timeouts, dropped or refused connections, HTTP 5xx — are retried a bounded
  number of times with exponential backoff and jitter. Every write this product sends is idempotent
  (points have content-derived ids; deletes select by filter), so re-sending a request whose answer
  was lost cannot duplicate anything. HTTP 4xx is never retried: the request itself is wrong, or the
  key is not accepted, and asking again would not change that.
* Errors name the endpoint and the collection, never the API key (the endpoint rule refuses URLs
  with credentials, and server messages are scrubbed of the key just in case).

REST only: gRPC would need a second port through every firewall and proxy for no gain at this scale.
"""

from __future__ import annotations

import json
import logging
import math
import random
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import httpx
from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from kortty_rag.config.endpoints import DEFAULT_PORTS, ParsedEndpoint, check_endpoint
from kortty_rag.errors import IncompatibleCollectionError, RemoteStoreError
from kortty_rag.index.qdrant_layout import DENSE, INDEXED_FIELDS, LEXICAL
from kortty_rag.messages import msg
from kortty_rag.remedies import Operation, place

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class ConnectionPolicy:
    """Timeout of every request and the retry budget for transient failures."""

    timeout: float = 20.0
    attempts: int = 4
    backoff: float = 0.5
    max_backoff: float = 8.0


DEFAULT_POLICY = ConnectionPolicy()


@dataclass(frozen=True)
class CollectionInfo:
    name: str
    dimensions: int
    points: int
    created: bool


def transient(exc: BaseException) -> bool:
    """Worth another try: a timeout, a network failure or a server error (never a 4xx)."""
    if isinstance(exc, UnexpectedResponse):
        return exc.status_code is not None and exc.status_code >= 500
    if isinstance(exc, ResponseHandlingException):
        return isinstance(exc.source, httpx.TransportError | OSError)
    return False


class WrongServerError(Exception):
    """A request was about to leave for another server than the validated one (never sent)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _only_to(endpoint: ParsedEndpoint, request: httpx.Request) -> None:
    """An httpx request hook: refuse any request whose scheme, host, port or path prefix differs
    from the validated endpoint's (whatever the client library did with the URL)."""
    url = request.url
    inside = url.raw_path.split(b"?", 1)[0].decode("ascii", "replace")
    if (
        url.scheme != endpoint.scheme
        or url.host != endpoint.host
        or (url.port or DEFAULT_PORTS[url.scheme]) != endpoint.port
        or not inside.startswith(f"{endpoint.path}/")
    ):
        raise WrongServerError(
            msg(
                "a request to {target} was refused: the store's server is {server}",
                target=f"{url.scheme}://{url.netloc.decode('ascii', 'replace')}",
                server=endpoint.url,
            )
        )


def _server_message(exc: UnexpectedResponse) -> str:
    try:
        status = json.loads(exc.content).get("status", {})
        message = status.get("error", "") if isinstance(status, dict) else ""
    except (ValueError, AttributeError):
        message = exc.content[:200].decode("utf-8", "replace")
    return str(message)[:300]


def _failure(exc: BaseException) -> str:
    if isinstance(exc, ResponseHandlingException):
        source = exc.source
        name = type(source).__name__
        if "Timeout" in name:
            return msg("no answer before the timeout")
        return f"{name}: {source}" if str(source) else name
    return f"{type(exc).__name__}: {exc}"


class QdrantConnection:
    """A :class:`QdrantClient` whose every call goes through :meth:`call`."""

    def __init__(
        self,
        client: QdrantClient,
        *,
        endpoint: str,
        collection: str,
        policy: ConnectionPolicy = DEFAULT_POLICY,
        embedded: bool = False,
        owns_client: bool = True,
        secret: str | None = None,
    ) -> None:
        self.client = client
        self.endpoint = endpoint
        self.collection = collection
        self.policy = policy
        self.embedded = embedded
        self.owns_client = owns_client
        self.has_key = bool(secret)
        self._secret = secret or ""

    @classmethod
    def remote(
        cls,
        url: str,
        collection: str,
        *,
        api_key: str | None,
        policy: ConnectionPolicy = DEFAULT_POLICY,
    ) -> QdrantConnection:
        """Validate ``url`` by the endpoint rule first; only then build the (lazy) client."""
        parsed = check_endpoint(url, what="Qdrant URL")
        with warnings.catch_warnings():
            # plain http is only ever accepted for loopback, where the key never leaves the machine
            warnings.filterwarnings("ignore", message="Api key is used with an insecure connection")
            client = QdrantClient(
                host=parsed.url_host,
                port=parsed.port,
                https=parsed.secure,
                prefix=parsed.path or None,
                api_key=api_key or None,
                timeout=max(1, math.ceil(policy.timeout)),
                prefer_grpc=False,
                check_compatibility=False,  # it would probe the server from a thread, unasked
                # httpx options: no proxy from the environment for plain http (loopback only),
                # and no request to anything but the validated server
                trust_env=parsed.secure,
                event_hooks={"request": [partial(_only_to, parsed)]},
            )
        return cls(
            client, endpoint=parsed.url, collection=collection, policy=policy, secret=api_key
        )

    @property
    def where(self) -> str:
        return msg(
            "Qdrant at {endpoint} (collection {collection})",
            endpoint=self.endpoint,
            collection=self.collection,
        )

    def _clean(self, text: str) -> str:
        # unchanged text keeps its words translatable (a Message stays one)
        return text.replace(self._secret, "***") if self._secret and self._secret in text else text

    def call(self, what: str, request: Callable[[QdrantClient], T]) -> T:
        """Run ``request``; retry transient failures with backoff; raise a clear error otherwise."""
        delay = self.policy.backoff
        for attempt in range(1, self.policy.attempts + 1):
            try:
                return request(self.client)
            except Exception as exc:
                retry = not self.embedded and transient(exc) and attempt < self.policy.attempts
                if not retry:
                    raise self._error(what, exc, attempt) from None
                pause = min(delay, self.policy.max_backoff) * random.uniform(0.5, 1.0)
                log.warning(
                    "%s: %s failed (%s); attempt %d of %d in %.2f s",
                    self.where,
                    what,
                    self._clean(_failure(exc)),
                    attempt + 1,
                    self.policy.attempts,
                    pause,
                )
                time.sleep(pause)
                delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _error(self, what: str, exc: Exception, attempts: int) -> RemoteStoreError:
        if isinstance(exc, UnexpectedResponse):
            status = exc.status_code
            detail = self._clean(_server_message(exc))
            if status in (401, 403):
                return RemoteStoreError(
                    msg(
                        "{where} did not accept the API key (HTTP {status}) while trying to {what}",
                        where=self.where,
                        status=status,
                        what=what,
                    ),
                    endpoint=self.endpoint,
                    hint=msg(
                        "Store the right key with {how} (it is kept in the OS keyring), and check "
                        "that the keyring is unlocked.",
                        how=place(Operation.STORE_KEY),
                    ),
                    status=status,
                )
            return RemoteStoreError(
                self._http_failure(what, status, detail, attempts),
                endpoint=self.endpoint,
                status=status,
                hint=msg(
                    "The previous state of the store is still served. Check the server's logs "
                    "and health, then run the job again."
                )
                if status is not None and status >= 500
                else msg(
                    "The previous state of the store is still served. Check the store's Qdrant "
                    "settings with {how}.",
                    how=place(Operation.STORE_CHECK),
                ),
            )
        if isinstance(exc, ResponseHandlingException) and isinstance(exc.source, WrongServerError):
            return RemoteStoreError(
                msg(
                    "{where}: {reason}; nothing was sent while trying to {what}",
                    where=self.where,
                    reason=exc.source.message,
                    what=what,
                ),
                endpoint=self.endpoint,
                hint=msg(
                    "Check the store's URL (scheme, host, port and a plain path prefix only)."
                ),
            )
        if isinstance(exc, ResponseHandlingException) and transient(exc):
            failure = self._clean(_failure(exc))
            return RemoteStoreError(
                msg(
                    "Could not {what}: {where} is unreachable ({failure}) after {attempts} "
                    "attempts",
                    what=what,
                    where=self.where,
                    failure=failure,
                    attempts=attempts,
                )
                if attempts > 1
                else msg(
                    "Could not {what}: {where} is unreachable ({failure})",
                    what=what,
                    where=self.where,
                    failure=failure,
                ),
                endpoint=self.endpoint,
                hint=msg(
                    "The previous state of the store is still served. Check that the server is "
                    "running and reachable ({how}), then run the job again.",
                    how=place(Operation.STORE_CHECK),
                ),
            )
        if self.embedded:
            return RemoteStoreError(
                msg(
                    "Embedded Qdrant ({endpoint}) failed to {what}: {error}",
                    endpoint=self.endpoint,
                    what=what,
                    error=str(exc),
                ),
                endpoint=self.endpoint,
            )
        return RemoteStoreError(
            msg(
                "{where} gave an answer this version cannot use while trying to {what} ({failure})",
                where=self.where,
                what=what,
                failure=self._clean(_failure(exc)),
            ),
            endpoint=self.endpoint,
            hint=msg("Check that the URL points at a Qdrant server (1.10 or newer)."),
        )

    def _http_failure(self, what: str, status: int | None, detail: str, attempts: int) -> str:
        """That the server answered with an HTTP error (``detail``: its own words, if any)."""
        if attempts > 1:
            if detail:
                return msg(
                    "{where} answered HTTP {status} while trying to {what} after {attempts} "
                    "attempts: {detail}",
                    where=self.where,
                    status=status,
                    what=what,
                    attempts=attempts,
                    detail=detail,
                )
            return msg(
                "{where} answered HTTP {status} while trying to {what} after {attempts} attempts",
                where=self.where,
                status=status,
                what=what,
                attempts=attempts,
            )
        if detail:
            return msg(
                "{where} answered HTTP {status} while trying to {what}: {detail}",
                where=self.where,
                status=status,
                what=what,
                detail=detail,
            )
        return msg(
            "{where} answered HTTP {status} while trying to {what}",
            where=self.where,
            status=status,
            what=what,
        )

    # -- shorthands (each one request, through :meth:`call`) ---------------------------------------

    def upsert(self, what: str, points: list[models.PointStruct]) -> None:
        self.call(what, lambda c: c.upsert(self.collection, points, wait=True))

    def delete(self, what: str, selector: models.Filter | list[str]) -> None:
        chosen = (
            models.PointIdsList(points=list(selector)) if isinstance(selector, list) else selector
        )
        self.call(what, lambda c: c.delete(self.collection, chosen, wait=True))

    def scroll(
        self,
        what: str,
        selector: models.Filter,
        *,
        page: int,
        with_payload: bool | list[str] = True,
        with_vectors: bool = False,
    ) -> Iterator[models.Record]:
        """Every point matching ``selector``, one page per request."""
        offset: models.ExtendedPointId | None = None
        while True:

            def request(c: QdrantClient, start: Any = offset) -> tuple[list[models.Record], Any]:
                return c.scroll(
                    self.collection,
                    scroll_filter=selector,
                    limit=page,
                    offset=start,
                    with_payload=with_payload,
                    with_vectors=with_vectors,
                )

            records, offset = self.call(what, request)
            yield from records
            if offset is None:
                return

    # -- collection ---------------------------------------------------------------------------------

    def ensure_collection(self, dimensions: int, *, create: bool = True) -> CollectionInfo:
        """Create the collection, or validate an existing one; a mismatch is refused, untouched.

        ``create=False`` only validates (``store check``): a missing collection is an error.
        """
        name = self.collection
        created = False
        if not self.call(msg("look up the collection"), lambda c: c.collection_exists(name)):
            if not create:
                raise RemoteStoreError(
                    msg("{where}: the collection does not exist", where=self.where),
                    endpoint=self.endpoint,
                    hint=msg(
                        "The next indexing job creates it ({how}); if it held data, it was "
                        "deleted on the server.",
                        how=place(Operation.SOURCE_INDEX),
                    ),
                )
            try:
                self.call(
                    msg("create the collection"),
                    lambda c: c.create_collection(
                        name,
                        vectors_config={
                            DENSE: models.VectorParams(
                                size=dimensions, distance=models.Distance.COSINE
                            )
                        },
                        sparse_vectors_config={
                            LEXICAL: models.SparseVectorParams(modifier=models.Modifier.IDF)
                        },
                    ),
                )
                created = True
            except RemoteStoreError:
                # created concurrently by someone else? then validate theirs; else report ours
                if not self.call(
                    msg("look up the collection"), lambda c: c.collection_exists(name)
                ):
                    raise
        info = self.call(
            msg("read the collection's configuration"), lambda c: c.get_collection(name)
        )
        self._validate(info, dimensions)
        if not self.embedded:
            present = set(info.payload_schema or {})
            for field in INDEXED_FIELDS:
                if field not in present:
                    self.call(
                        msg("index the payload field {field!r}", field=field),
                        partial(
                            QdrantClient.create_payload_index,
                            collection_name=name,
                            field_name=field,
                            field_schema=models.PayloadSchemaType.KEYWORD,
                            wait=True,
                        ),
                    )
        return CollectionInfo(name, dimensions, int(info.points_count or 0), created)

    def _validate(self, info: models.CollectionInfo, dimensions: int) -> None:
        params = info.config.params
        vectors = params.vectors
        problems: list[str] = []
        dense = vectors.get(DENSE) if isinstance(vectors, dict) else None
        if dense is None:
            problems.append(
                msg(
                    "it has an unnamed vector of {size} dimensions, not a named vector {name!r}",
                    size=vectors.size,
                    name=DENSE,
                )
                if isinstance(vectors, models.VectorParams)
                else msg(
                    "it has the vectors {names}, not a named vector {name!r}",
                    names=sorted(vectors or {}),
                    name=DENSE,
                )
            )
        else:
            if dense.size != dimensions:
                problems.append(
                    msg(
                        "its vectors have {size} dimensions, the store's model gives {dimensions}",
                        size=dense.size,
                        dimensions=dimensions,
                    )
                )
            if dense.distance != models.Distance.COSINE:
                problems.append(
                    msg("it uses {distance} distance, not Cosine", distance=dense.distance.value)
                )
        sparse = (params.sparse_vectors or {}).get(LEXICAL)
        if sparse is None or sparse.modifier != models.Modifier.IDF:
            problems.append(
                msg("it has no sparse vector {name!r} with the IDF modifier", name=LEXICAL)
            )
        if problems:
            listed = problems[0]
            for problem in problems[1:]:
                listed = msg("{problems}; {problem}", problems=listed, problem=problem)
            raise IncompatibleCollectionError(
                msg(
                    "The existing collection {collection!r} on {endpoint} does not fit this "
                    "store: {problems}. It was left unchanged",
                    collection=self.collection,
                    endpoint=self.endpoint,
                    problems=listed,
                ),
                endpoint=self.endpoint,
                hint=msg(
                    "Choose another collection name ({how}), or a store model with matching "
                    "dimensions.",
                    how=place(Operation.STORE_QDRANT_COLLECTION),
                ),
            )

    def close(self) -> None:
        if self.owns_client:
            self.client.close()

"""A fault-injecting Qdrant on loopback: enough of the REST API, in memory, to fail mid-update.

The HTTP front end is written here; behind it, each request is parsed into qdrant-client's own REST
models and executed by qdrant-client's in-memory local mode, so filters, cosine search and the
sparse IDF scoring behave as the client library defines them. The product talks to it over real
HTTP through its ordinary connection code (endpoint rule, timeouts, retries).

Faults are rules on the request kind (``upsert`` of chunk points, ``commit`` — the upsert that
switches manifests —, ``copy`` — a scroll with vectors —, ``delete``, ``scroll``, ``retrieve``, ``query``, ``count``, ``collection``, …): after ``after`` matching requests have passed, the next ``times`` ones
get the fault:

* ``500``   — HTTP 500, nothing applied;
* ``drop``  — the connection is closed without an answer, nothing applied;
* ``lost``  — the request *is* applied, then the connection is closed (the answer is lost);
* ``slow``  — the request is applied, and the answer comes only after ``delay`` seconds (past the
  client's timeout).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from qdrant_client import QdrantClient, models


@dataclass
class Fault:
    kind: str
    action: str  # "500" | "drop" | "lost" | "slow"
    after: int = 0
    times: int = 1
    delay: float = 2.5
    seen: int = 0
    fired: int = 0

    def fires(self, kind: str) -> bool:
        if kind != self.kind:
            return False
        self.seen += 1
        if self.seen > self.after and self.fired < self.times:
            self.fired += 1
            return True
        return False


_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("GET", re.compile(r"^/$"), "root"),
    ("GET", re.compile(r"^/collections/([^/]+)/exists$"), "exists"),
    ("GET", re.compile(r"^/collections/([^/]+)$"), "collection"),
    ("PUT", re.compile(r"^/collections/([^/]+)$"), "create"),
    ("PUT", re.compile(r"^/collections/([^/]+)/index$"), "index"),
    ("PUT", re.compile(r"^/collections/([^/]+)/points$"), "upsert"),
    ("POST", re.compile(r"^/collections/([^/]+)/points/delete$"), "delete"),
    ("POST", re.compile(r"^/collections/([^/]+)/points/scroll$"), "scroll"),
    ("POST", re.compile(r"^/collections/([^/]+)/points/query$"), "query"),
    ("POST", re.compile(r"^/collections/([^/]+)/points/count$"), "count"),
    ("POST", re.compile(r"^/collections/([^/]+)/points$"), "retrieve"),
]


def _dump(value: Any) -> Any:
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return value


class FaultyQdrant:
    """Start with :meth:`start`; ``url`` is ``http://127.0.0.1:PORT``."""

    def __init__(
        self, *, api_key: str | None = None, legacy: bool = False, prefix: str = ""
    ) -> None:
        """``prefix``: the API is served below this path (e.g. ``/qdrant``), as behind a proxy."""
        self.db = QdrantClient(location=":memory:")
        self.api_key = api_key
        self.legacy = legacy
        self.prefix = prefix
        self.paths: list[str] = []  # every request target as received
        self.faults: list[Fault] = []
        self.requests: list[str] = []
        self.indexed_fields: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FaultyQdrant:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)
        self.db.close()

    def inject(self, kind: str, action: str, **options: Any) -> Fault:
        fault = Fault(kind, action, **options)
        with self._lock:
            self.faults.append(fault)
        return fault

    def heal(self) -> None:
        with self._lock:
            self.faults.clear()

    def points(self, collection: str) -> list[models.Record]:
        with self._lock:
            records, _ = self.db.scroll(collection, limit=1_000_000, with_payload=True)
        return records

    # -- requests -----------------------------------------------------------------------------------

    def _fault(self, kind: str) -> Fault | None:
        with self._lock:
            return next((f for f in self.faults if f.fires(kind)), None)

    def _execute(self, kind: str, name: str, body: dict[str, Any]) -> tuple[int, Any]:
        db = self.db
        ops: dict[str, Callable[[], Any]] = {
            "root": lambda: {"title": "qdrant - vector search engine", "version": "fake-1.15"},
            "exists": lambda: {"exists": db.collection_exists(name)},
            "collection": lambda: db.get_collection(name),
            "create": lambda: self._create(name, body),
            "index": lambda: self._index(body),
            "upsert": lambda: db.upsert(name, models.PointsList(**body).points),
            "commit": lambda: db.upsert(name, models.PointsList(**body).points),
            "delete": lambda: db.delete(name, self._selector(body)),
            "scroll": lambda: self._scroll(name, models.ScrollRequest(**body)),
            "copy": lambda: self._scroll(name, models.ScrollRequest(**body)),
            "query": lambda: self._query(name, models.QueryRequest(**body)),
            "count": lambda: db.count(
                name, count_filter=models.CountRequest(**body).filter, exact=True
            ),
            "retrieve": lambda: self._retrieve(name, models.PointRequest(**body)),
        }
        needs_collection = kind not in ("root", "exists", "create", "index")
        if needs_collection and not db.collection_exists(name):
            return 404, {"status": {"error": f"Collection `{name}` doesn't exist!"}}
        with self._lock:
            return 200, _dump(ops[kind]())

    def _create(self, name: str, body: dict[str, Any]) -> bool:
        request = models.CreateCollection(**body)
        return self.db.create_collection(
            name,
            vectors_config=request.vectors,  # type: ignore[arg-type]
            sparse_vectors_config=request.sparse_vectors,
        )

    def _index(self, body: dict[str, Any]) -> models.UpdateResult:
        self.indexed_fields.append(str(body["field_name"]))
        return models.UpdateResult(operation_id=0, status=models.UpdateStatus.COMPLETED)

    @staticmethod
    def _selector(body: dict[str, Any]) -> models.PointIdsList | models.FilterSelector:
        return models.PointIdsList(**body) if "points" in body else models.FilterSelector(**body)

    def _scroll(self, name: str, request: models.ScrollRequest) -> dict[str, Any]:
        records, offset = self.db.scroll(
            name,
            scroll_filter=request.filter,
            limit=request.limit or 10,
            offset=request.offset,
            with_payload=request.with_payload if request.with_payload is not None else True,
            with_vectors=request.with_vector or False,
        )
        return {"points": _dump(records), "next_page_offset": offset}

    def _query(self, name: str, request: models.QueryRequest) -> dict[str, Any]:
        if self.legacy and request.params is not None and request.params.idf is not None:
            raise ValueError("unknown field `idf`")  # as a server before IDF corpus scoping
        result = self.db.query_points(
            name,
            query=request.query,  # type: ignore[arg-type]
            using=request.using,
            query_filter=request.filter,
            limit=request.limit or 10,
            with_payload=request.with_payload if request.with_payload is not None else False,
            with_vectors=request.with_vector or False,
            search_params=request.params,
        )
        return {"points": _dump(result.points)}

    def _retrieve(self, name: str, request: models.PointRequest) -> list[Any]:
        return self.db.retrieve(  # type: ignore[no-any-return]
            name,
            request.ids,
            with_payload=request.with_payload if request.with_payload is not None else True,
            with_vectors=request.with_vector or False,
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _answer(self, status: int, data: Any, raw: bool = False) -> None:
                payload = data if raw else {"result": data, "status": "ok", "time": 0.0}
                if status != 200:
                    payload = data
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _route(self) -> None:
                server.paths.append(self.path)
                path = self.path.split("?", 1)[0]
                if server.prefix:
                    inside = path.startswith(f"{server.prefix}/")
                    path = path[len(server.prefix) :] if inside else "/not-below-the-prefix"
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                routes = [
                    (k, pattern.match(path)) for m, pattern, k in _ROUTES if m == self.command
                ]
                kind, match = next(((k, found) for k, found in routes if found), ("", None))
                if match is None:
                    self._answer(404, {"status": {"error": f"no route {self.command} {path}"}})
                    return
                if kind == "upsert" and any(
                    (p.get("payload") or {}).get("kind") == "manifest" for p in body["points"]
                ):
                    kind = "commit"  # the manifest switch of an update
                if kind == "scroll" and body.get("with_vector"):
                    kind = "copy"  # reading stored vectors: unchanged points being copied
                server.requests.append(kind)
                if server.api_key and self.headers.get("api-key") != server.api_key:
                    self._answer(401, {"status": {"error": "Must provide an API key"}})
                    return
                fault = server._fault(kind)
                if fault is not None and fault.action in ("500", "drop"):
                    if fault.action == "500":
                        self._answer(500, {"status": {"error": "injected failure"}})
                    self.close_connection = True
                    return
                name = match.group(1) if match.groups() else ""
                try:
                    status, data = server._execute(kind, name, body)
                except (ValueError, TypeError, KeyError) as exc:  # pydantic errors are ValueErrors
                    self._answer(400, {"status": {"error": f"Bad request: {exc}"}})
                    return
                if fault is not None and fault.action == "lost":
                    self.close_connection = True
                    return
                if fault is not None and fault.action == "slow":
                    time.sleep(fault.delay)
                with contextlib.suppress(OSError):  # the client may have given up waiting
                    self._answer(status, data, raw=kind == "root")

            do_GET = do_PUT = do_POST = do_DELETE = _route  # noqa: N815 (http.server's names)

        return Handler

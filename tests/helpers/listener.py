"""A bare TCP listener that records every connection it gets (and the first bytes sent on it).

It stands for "a server that must never be reached": a URL-smuggling or proxy test points something
at it and then asserts that :attr:`RecordingListener.connections` stayed empty. It answers every
connection with a short HTTP 404 (or the given ``answer``, e.g. a redirect) so a client that does
reach it fails fast instead of waiting.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass

READ_TIMEOUT = 2.0
ANSWER = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


@dataclass(frozen=True)
class Connection:
    peer: str
    data: bytes


class RecordingListener:
    """Listens on ``host`` (an address literal, e.g. ``127.0.0.2`` or ``::1``) on a free port."""

    def __init__(self, host: str, *, answer: bytes = ANSWER) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.host = host
        self.answer = answer
        self.connections: list[Connection] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            self._sock.bind((host, 0))
            self._sock.listen(16)
            self._sock.settimeout(0.1)
        except OSError:
            self._sock.close()
            raise
        self.port: int = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url_host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def authority(self) -> str:
        return f"{self.url_host}:{self.port}"

    def start(self) -> RecordingListener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self._sock.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(READ_TIMEOUT)
                data = b""
                with contextlib.suppress(OSError):
                    data = conn.recv(65536)
                # recorded before the answer goes out: a client that has its answer may look at
                # once (recorded after it, a loaded machine let the test look first)
                with self._lock:
                    self.connections.append(Connection(str(peer[0]), data))
                with contextlib.suppress(OSError):
                    conn.sendall(self.answer)

    def seen(self) -> list[Connection]:
        with self._lock:
            return list(self.connections)

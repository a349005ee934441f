"""A file server on loopback with HTTP Range support and fault injection (for download tests)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class ServerControl:
    path: Path
    #: drop the connection after this many body bytes (once), to simulate an interruption
    cut_after: int | None = None
    honour_ranges: bool = True
    requests: list[str | None] = field(default_factory=list)  # Range headers seen
    #: seconds to pause after each block of ``block_size`` bytes (0: send at once), for a slow link;
    #: read per request, so a test can speed the server up between attempts
    delay_per_block: float = 0.0
    block_size: int = 64 * 1024
    #: answer requests outside /cdn/ with a 302 to a signed /cdn/ URL (as Hugging Face does)
    redirect: bool = False
    paths: list[str] = field(default_factory=list)  # request targets seen


@contextmanager
def serve_file(path: Path, **options: object) -> Iterator[tuple[str, ServerControl]]:
    control = ServerControl(path, **options)  # type: ignore[arg-type]
    data = path.read_bytes()
    stopping = threading.Event()  # ends a slow send when the server shuts down

    class Handler(BaseHTTPRequestHandler):
        timeout = 60  # a client that stops sending cannot block the handler (and server_close)

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            control.paths.append(self.path)
            if control.redirect and not self.path.startswith("/cdn/"):
                self.send_response(302)
                self.send_header("Location", f"/cdn/{path.name}?X-Amz-Signature=a%2Fb&Expires=1")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            header = self.headers.get("Range")
            control.requests.append(header)
            start = 0
            match = re.fullmatch(r"bytes=(\d+)-", header or "")
            if match and control.honour_ranges:
                start = int(match.group(1))
                if start >= len(data):
                    self.send_response(416)
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            else:
                self.send_response(200)
            body = data[start:]
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                if control.cut_after is not None:
                    cut, control.cut_after = control.cut_after, None
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if control.delay_per_block <= 0:
                    self.wfile.write(body)
                    return
                for offset in range(0, len(body), control.block_size):
                    if stopping.is_set():
                        self.close_connection = True
                        return
                    self.wfile.write(body[offset : offset + control.block_size])
                    self.wfile.flush()
                    time.sleep(control.delay_per_block)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client went away (a cancelled download)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{path.name}", control
    finally:
        stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=60)
        assert not thread.is_alive(), "the file server did not stop"

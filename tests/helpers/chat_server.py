"""``python -m llama_cpp.server`` for the tests, safe on CPUs with AMX.

llama.cpp's AMX weight repacking segfaults at the first decode of a quantized model on such CPUs
(ggml-org/llama.cpp#20824; the product turns it off in ``kortty_rag.embedding.llama.open_llama``).
The server has no option for it, so this wrapper changes llama.cpp's default model parameters for
the whole (single-purpose) server process, then runs the server's own entry point with the same
arguments. On a CPU without AMX it changes nothing.

Run as ``python -m tests.helpers.chat_server --model FILE --host 127.0.0.1 --port N …``, or
through :func:`serving`, which starts it on a free loopback port and waits (bounded) until it
answers.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: seconds a starting server may take to answer /v1/models
START_TIMEOUT = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    host, port = base.removeprefix("http://").split(":")
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"llama_cpp.server exited with {process.returncode}:\n{log.read_text()}"
            )
        conn = http.client.HTTPConnection(host, int(port), timeout=5)
        try:
            conn.request("GET", "/v1/models")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.5)
    raise RuntimeError(f"llama_cpp.server did not answer /v1/models:\n{log.read_text()}")


@contextlib.contextmanager
def serving(model: Path, folder: Path, *, context: int = 4096) -> Iterator[str]:
    """The chat server for ``model`` on a free loopback port (its base URL); stopped at the end."""
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.helpers.chat_server",
                "--model",
                str(model),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                str(context),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def main() -> None:
    import llama_cpp
    import llama_cpp.llama as high_level
    from llama_cpp.server.__main__ import main as serve

    if b"AMX_INT8 = 1" in llama_cpp.llama_print_system_info():
        low_level = high_level.llama_cpp
        defaults = low_level.llama_model_default_params

        def without_repacking() -> Any:
            params = defaults()
            params.use_extra_bufts = False
            return params

        low_level.llama_model_default_params = without_repacking
    serve()


if __name__ == "__main__":
    main()

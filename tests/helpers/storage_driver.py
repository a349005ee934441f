"""Real indexing processes for the crash-point, kill -9 and I/O-fault tests (fake embedder: the storage
is under test here, not the model).

    python -m tests.helpers.storage_driver serve
        A fork server: imports everything once, then forks one child per JSON command on stdin, so a
        test can stop or ``kill -9`` thousands of real indexing processes without paying Python's
        start-up each time. Answers ``{"pid": …}`` when the child starts and ``{"pid": …, "code": …}``
        when it ended (``code`` is negative for a signal).
    python -m tests.helpers.storage_driver iofault SPEC.json
        Under ``LD_PRELOAD=libiofault.so``: for every k, restore the store from a template, run the job
        with the k-th file-system modification failing, and print one JSON line of facts.

A job is one of ``index`` (add FOLDER as a source of STORE on the first run, refresh it afterwards; the
store is created if needed) or ``remove`` (forget the source again).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.helpers.children import LineReader, stop_child

REPO = Path(__file__).resolve().parents[2]
#: deadlines for the fork server's answers: the pid of a forked job, and the end of one job
ANSWER_SECONDS = 60.0
JOB_SECONDS = 600.0
EXIT_OK, EXIT_FAILED, EXIT_BUSY, EXIT_SNAPSHOT, EXIT_CONFIG, EXIT_OTHER = 0, 1, 2, 3, 4, 5
EXIT_CRASH_POINT = 77


# -- the job --------------------------------------------------------------------------------------


def run_job(
    store_name: str, folder: Path, job: str = "index", dims: int = 32, chunk_tokens: int = 64
) -> dict[str, Any]:
    """Run one job in this process (``KORTTY_HOME`` from the environment); raises on failure."""
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.errors import NotFoundError
    from kortty_rag.sync.session import StoreSession
    from tests.helpers.fakes import HashEmbedder

    embedder = HashEmbedder(dims=dims, chunk_tokens=chunk_tokens, record=False)
    registry = StoreRegistry()
    try:
        store = registry.get(store_name)
    except NotFoundError:
        store = registry.create(store_name, embedder.identity)
    with StoreSession(store, registry=registry) as running:
        source = next((s for s in running.store.sources if s.path == str(folder)), None)
        if job == "remove":
            assert source is not None, "nothing to remove"
            return {"removed_chunks": running.remove_source(source.id)}
        if source is not None:
            review = running.review_refresh()
        else:
            review = running.review_new_sources([folder])
        return running.apply(review, embedder).to_json()


def served_state(store_name: str) -> dict[str, Any]:
    """What retrieval would serve now (opening also removes leftovers), and what is left on disk.

    ``docs`` maps rel path → SHA-256 of the configured sources' documents in the active snapshot
    (empty when the store does not exist or has no snapshot); ``error`` is set when the store could
    not be read at all.
    """
    from kortty_rag.config.atomic import TEMP_MARKER
    from kortty_rag.config.registry import STORE_FILE, StoreRegistry
    from kortty_rag.errors import KorttyRagError, NotFoundError
    from kortty_rag.index.local import LocalStore
    from kortty_rag.index.snapshot import SNAPSHOTS, read_pointer
    from tests.helpers.fakes import HashEmbedder

    registry = StoreRegistry()
    try:
        store = registry.get(store_name)
    except NotFoundError:
        return {"docs": {}, "store": None, "leftovers": [], "searchable": True}
    except KorttyRagError as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    folder = registry.folder(store)
    try:
        vectors = LocalStore(folder, store.embedding)
    except KorttyRagError as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    try:
        configured = {s.id for s in store.sources}
        docs = {d.rel_path: d.sha256 for d in vectors.documents() if d.source_id in configured}
        searchable = True
        if vectors.documents():
            labels = {d.source_id for d in vectors.documents()}
            searchable = bool(vectors.search(HashEmbedder().embed_query("alpha beta"), 3, labels))
    finally:
        vectors.close()
    pointer = read_pointer(folder)
    snapshots = folder / SNAPSHOTS
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(TEMP_MARKER)]
    if snapshots.is_dir():
        leftovers += [p.name for p in snapshots.iterdir() if not pointer or p.name != pointer[0]]
    return {
        "docs": docs,
        "store": _normalised(json.loads((folder / STORE_FILE).read_text("utf-8"))),
        "leftovers": leftovers,
        "searchable": searchable,
    }


def _normalised(store_json: dict[str, Any]) -> Any:
    """A store definition without its timestamps and random ids (they differ between otherwise equal
    runs)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "id" and not k.endswith("_at")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(store_json)


def exit_code(exc: BaseException | None) -> int:
    from kortty_rag.errors import ConfigError, KorttyRagError, SnapshotError, StoreBusyError

    if exc is None:
        return EXIT_OK
    for kind, code in (
        (StoreBusyError, EXIT_BUSY),
        (SnapshotError, EXIT_SNAPSHOT),
        (ConfigError, EXIT_CONFIG),
        (KorttyRagError, EXIT_OTHER),
    ):
        if isinstance(exc, kind):
            return code
    return EXIT_FAILED


# -- crash points -----------------------------------------------------------------------------------


class Checkpoints:
    """Replaces the product's checkpoint seams: counts every durable step, optionally records them
    (with the Python-level durable operations between them) and exits the process at one of them."""

    def __init__(self, exit_at: int | None = None, record: bool = False) -> None:
        self.exit_at = exit_at
        self.record = record
        self.count = 0
        self.log: list[tuple[str, str]] = []
        #: every version of every store definition seen at a checkpoint (normalised)
        self.definitions: list[Any] = []
        self._inner = 0

    def __call__(self, step: str) -> None:
        self.count += 1
        if self.record:
            self.log.append(("checkpoint", step))
            self._note_definitions()
        if self.count == self.exit_at:
            os._exit(EXIT_CRASH_POINT)

    def _note_definitions(self) -> None:
        from kortty_rag.config.paths import stores_dir

        for path in sorted(stores_dir().glob("*/store.json")):
            seen = _normalised(json.loads(path.read_text("utf-8")))
            if seen not in self.definitions:
                self.definitions.append(seen)

    def install(self) -> None:
        from kortty_rag.config import atomic
        from kortty_rag.index import snapshot

        snapshot.checkpoint = self
        atomic.checkpoint = self
        if self.record:
            for name in ("fsync", "replace", "rename", "unlink", "rmdir"):
                setattr(os, name, self._logged(name, getattr(os, name)))
            shutil.rmtree = self._logged("rmtree", shutil.rmtree, inner=True)  # type: ignore[assignment]

    def _logged(
        self, name: str, real: Callable[..., Any], inner: bool = False
    ) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if not self._inner:
                self.log.append(("op", f"{name} {_describe(args[0]) if args else ''}"))
            self._inner += inner
            try:
                return real(*args, **kwargs)
            finally:
                self._inner -= inner

        return call


def _describe(target: Any) -> str:
    if isinstance(target, int):
        try:
            return os.readlink(f"/proc/self/fd/{target}")
        except OSError:
            return f"fd {target}"
    return os.fspath(target)


# -- the fork server --------------------------------------------------------------------------------


def _child(command: dict[str, Any]) -> None:
    code = EXIT_FAILED
    result = Path(command["result"])
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        errors = os.open(f"{result}.err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(errors, 2)
        os.environ["KORTTY_HOME"] = command["home"]
        hooks = Checkpoints(command.get("exit_at"), bool(command.get("record")))
        hooks.install()
        error: BaseException | None = None
        outcome: dict[str, Any] = {}
        try:
            outcome = run_job(
                command["store"], Path(command["folder"]), command.get("job", "index")
            )
        except Exception as exc:
            error = exc
            traceback.print_exc()
        code = exit_code(error)
        outcome = {
            "summary": outcome,
            "error": None if error is None else f"{type(error).__name__}: {error}",
            "checkpoints": hooks.count,
            "log": hooks.log,
            "definitions": hooks.definitions,
        }
        result.write_text(json.dumps(outcome))
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def serve() -> None:
    import hnswlib  # noqa: F401  (imported once here, not in every child)

    import kortty_rag.sync.session  # noqa: F401

    for line in sys.stdin:
        command = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(command)
        print(json.dumps({"pid": pid}), flush=True)
        status = _wait(pid, command.get("kill_after"))
        print(json.dumps({"pid": pid, "code": os.waitstatus_to_exitcode(status)}), flush=True)


def _wait(pid: int, kill_after: float | None) -> int:
    """Reap the child; with ``kill_after``, SIGKILL it at that moment if it is still running (the
    server kills, not the test: an unreaped child's pid cannot have been reused)."""
    if kill_after is not None:
        deadline = time.monotonic() + kill_after
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            time.sleep(min(0.001, max(0.0, deadline - time.monotonic())))
        os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1]


class ForkServer:
    """The test side of ``serve``."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.work.mkdir(parents=True, exist_ok=True)
        self._n = 0
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.helpers.storage_driver", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=REPO,
        )
        self.answers = LineReader(self.proc.stdout)  # type: ignore[arg-type]

    def start(self, **command: Any) -> tuple[int, Path]:
        """Fork one job; returns its pid and the file its outcome will be written to."""
        assert self.proc.stdin is not None
        self._n += 1
        result = self.work / f"result-{self._n}.json"
        command["result"] = str(result)
        self.proc.stdin.write(json.dumps(command, default=str) + "\n")
        self.proc.stdin.flush()
        return int(json.loads(self.answers.readline(ANSWER_SECONDS))["pid"]), result

    def wait(self) -> int:
        return int(json.loads(self.answers.readline(JOB_SECONDS))["code"])

    def run(self, **command: Any) -> tuple[int, dict[str, Any]]:
        """Run one job to its end: exit code and outcome (empty if the child died first)."""
        _, result = self.start(**command)
        code = self.wait()
        outcome = json.loads(result.read_text()) if result.exists() else {}
        if code not in (EXIT_OK, EXIT_CRASH_POINT) and not outcome.get("error"):
            outcome["stderr"] = Path(f"{result}.err").read_text(errors="replace")[-4000:]
        return code, outcome

    def close(self) -> None:
        """End of input ends the server; it is killed if it has not ended within a minute."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=60)
        finally:
            stop_child(self.proc)


@contextmanager
def fork_server(work: Path) -> Iterator[ForkServer]:
    server = ForkServer(work)
    try:
        yield server
    finally:
        server.close()


# -- I/O faults -------------------------------------------------------------------------------------


def restore(template: Path, home: Path) -> None:
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(template, home, symlinks=True)


def iofault(spec: dict[str, Any]) -> None:
    """Fail the k-th file-system modification under KORTTY_HOME for every k of the spec."""
    lib = ctypes.CDLL(None)
    lib.iofault_arm.argtypes = [ctypes.c_char_p, ctypes.c_long]
    lib.iofault_disarm.restype = ctypes.c_long
    lib.iofault_failed.restype = ctypes.c_char_p
    home, template = Path(spec["home"]), Path(spec["template"])
    os.environ["KORTTY_HOME"] = str(home)
    prefix = os.path.realpath(home).encode()
    for k in range(spec["first"], spec["last"] + 1):
        restore(template, home)
        error: BaseException | None = None
        lib.iofault_arm(prefix, k)
        try:
            run_job(spec["store"], Path(spec["folder"]), spec.get("job", "index"))
        except BaseException as exc:
            error = exc
        finally:
            ops = lib.iofault_disarm()
        facts = {
            "k": k,
            "ops": ops,
            "failed_op": lib.iofault_failed().decode(errors="replace") if ops >= k else "",
            "error_type": type(error).__name__ if error else None,
            "error": str(error) if error else None,
            "error_is_product": exit_code(error)
            in (EXIT_OK, EXIT_SNAPSHOT, EXIT_CONFIG, EXIT_BUSY),
        } | served_state(spec["store"])
        print(json.dumps(facts), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    sub.add_parser("serve")
    fault = sub.add_parser("iofault")
    fault.add_argument("spec", type=Path)
    args = parser.parse_args()
    sys.dont_write_bytecode = True
    if args.mode == "serve":
        serve()
    else:
        iofault(json.loads(args.spec.read_text()))


if __name__ == "__main__":
    main()

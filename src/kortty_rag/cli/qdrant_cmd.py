"""The Qdrant parts of ``kortty-rag store …``: create with a URL, ``store check``, ``store key``.

The API key is read from standard input (never from an argument, where it would end up in the shell
history and the process list) and goes straight to the OS keyring; no output, ``--json`` included,
ever contains it.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from dataclasses import replace

from kortty_rag.app.stores import QdrantTarget, check_qdrant_target
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json
from kortty_rag.errors import UsageError
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType
from kortty_rag.untrusted import escape_line


def read_key(prompt: str = "Qdrant API key: ") -> str:
    """The key from standard input: a prompt without echo on a terminal, else the piped text."""
    key = getpass.getpass(prompt) if sys.stdin.isatty() else sys.stdin.read()
    key = key.strip()
    if not key:
        raise UsageError("No API key on standard input", hint="Pipe the key, e.g. from a file.")
    return key


def create_qdrant_store(
    args: argparse.Namespace, identity: EmbeddingIdentity, roles: StoreRoles
) -> Store:
    """:meth:`Workspace.create_store` with the options given: everything is validated
    before anything is created, and the store is connected before success is reported."""
    if not args.url:
        raise UsageError("A Qdrant store needs --url", hint="e.g. --url https://qdrant.example.com")
    target = QdrantTarget(args.url, args.collection or "")
    check_qdrant_target(target)  # before the key is asked for
    key = read_key() if args.api_key_from_stdin else None
    return Workspace().create_store(
        args.name, identity, roles=roles, qdrant=replace(target, api_key=key)
    )


def _qdrant_store(name: str) -> Store:
    store = Workspace().store(name)
    if store.type is not StoreType.QDRANT:
        raise UsageError(
            f"Store {store.name!r} is a {store.type.value} store, not a Qdrant store",
            hint="`store check` and `store key` apply to Qdrant stores.",
        )
    return store


def cmd_check(args: argparse.Namespace) -> int:
    store = _qdrant_store(args.name)
    report = Workspace().qdrant.check(store)
    if args.json:
        print_json({"store": store.name, "ok": True} | report.to_json())
        return 0
    key = (
        "sent and accepted"
        if report.api_key == "accepted"
        else "none stored (the server accepted requests without one)"
    )
    where = escape_line(f"{report.server_version} at {report.endpoint}")
    print(f"Store {store.name!r}: Qdrant {where}")
    print(f"  collection {report.collection!r}: cosine, {report.dimensions} dimensions — OK")
    print(
        f"  points: {report.collection_points} in the collection, {report.store_points} chunks "
        f"of this store ({report.documents} documents, version {report.version})"
    )
    print(f"  API key: {key}")
    return 0


def cmd_key(args: argparse.Namespace) -> int:
    store = _qdrant_store(args.name)
    if args.remove:
        removed = Workspace().qdrant.remove_key(store)
        if args.json:
            print_json({"store": store.name, "removed": removed})
        else:
            print(f"{'Removed' if removed else 'There was no'} API key of store {store.name!r}.")
        return 0
    backend = Workspace().qdrant.set_key(store, read_key())
    if args.json:
        print_json({"store": store.name, "stored": True, "keyring": backend})
    else:
        print(f"Stored the API key of store {store.name!r} in the keyring ({backend}).")
        print(f"Check it with: kortty-rag store check {store.name!r}")
    return 0

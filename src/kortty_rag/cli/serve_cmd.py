"""``kortty-rag serve``: the retrieval service for other local AI tools (MCP over stdio, docs/DESIGN.md §12).

Meant to be started by an MCP client, not typed by hand: stdout carries the protocol, so this command
prints nothing there. The SDK is imported only here, so the other commands do not pay for it.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any) -> None:
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
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from kortty_rag.mcp_server.server import serve_stdio

    serve_stdio(allow_changes=args.allow_changes, log_queries=args.log_queries)  # exits on signals
    return 0

"""``kortty-rag serve``: the retrieval service for other local AI tools (MCP over stdio, docs/DESIGN.md §12).

Meant to be started by an MCP client, not typed by hand: stdout carries the protocol, so this command
prints nothing there. The SDK is imported only here, so the other commands do not pay for it.
"""

from __future__ import annotations

import argparse


def cmd_serve(args: argparse.Namespace) -> int:
    from kortty_rag.mcp_server.server import serve_stdio

    serve_stdio(allow_changes=args.allow_changes, log_queries=args.log_queries)  # exits on signals
    return 0

"""Remedies in the MCP server's words (docs/DESIGN.md "Hints as data"): what a tool's caller — an
agent, not the person — can do about a problem. Where one of the server's tools does it, the hint
names the tool; anything else only the user can do, so the hint asks the agent to ask them, with the
command they would run."""

from __future__ import annotations

from kortty_rag.remedies import Form, Operation, Remedy, worded

#: operations a tool of this server does, and whether the tool changes a store (those exist only
#: when the user started the server with --allow-changes)
TOOLS: dict[Operation, tuple[str, bool]] = {
    Operation.STORE_LIST: ("list_stores", False),
    Operation.SOURCE_LIST: ("list_sources", False),
    Operation.SOURCE_REVIEW: ("refresh_source", True),
    Operation.SOURCE_INDEX: ("refresh_source", True),
    Operation.SOURCE_REMOVE: ("forget_source", True),
}


def remedy_words(remedy: Remedy) -> str:
    """One remedy as the server says it to its caller."""
    tool = TOOLS.get(remedy.operation)
    command = str(Remedy(remedy.operation, Form.PLACE, remedy.arguments))
    if tool is not None:
        name, changing = tool
        place = f"the {name} tool"
        if changing:
            place += f" (if the user allowed changes; else they run {command})"
        if remedy.form is Form.RUN:
            return f"Call {place}"
        if remedy.form is Form.RUN_ON:
            return f"call {place}"
        return place
    if remedy.form is Form.RUN:
        return f"Ask the user to run {command}"
    if remedy.form is Form.RUN_ON:
        return f"ask the user to run {command}"
    return f"{command} (the user's command)"


def mcp_words(text: str) -> str:
    """``text`` with every remedy in it said to the server's caller."""
    return str(worded(text, remedy_words))

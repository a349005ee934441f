"""The application layer: what the front ends (the CLI, the desktop app, the MCP server) do, in one
place and without Qt (docs/DESIGN.md, "Layers").

Its functions are synchronous and take progress and cancel where a job is long; the GUI runs them in
its worker jobs, the CLI prints their results, the MCP server serialises them. Its messages name no
command-line option and no widget: an error that concerns one input says which one through a
:class:`~kortty_rag.app.fields.ProfileFieldError` field, and each front end words the hint for its own
controls.
"""

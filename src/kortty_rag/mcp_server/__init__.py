"""The retrieval service for other local AI tools (docs/DESIGN.md §12): a Model Context Protocol server."""

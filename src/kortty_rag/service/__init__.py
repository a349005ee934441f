"""The retrieval service for other local AI tools (SPEC §12): a Model Context Protocol server."""

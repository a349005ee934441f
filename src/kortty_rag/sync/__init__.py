"""Synchronisation: change plans from content hashes, indexing jobs, file watching (SPEC §8)."""

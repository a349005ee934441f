"""Synchronisation: change plans from content hashes, indexing jobs, file watching (docs/DESIGN.md §8)."""

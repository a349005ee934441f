"""Where vectors live: the local snapshot (hnswlib + SQLite) and, behind the same interface, Qdrant."""

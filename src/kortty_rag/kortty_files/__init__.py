"""korTTY's own files, read only and never changed: its knowledge-store registry
(:mod:`~kortty_rag.kortty_files.registry`) and its HNSW index files
(:mod:`~kortty_rag.kortty_files.hnsw`, records in :mod:`~kortty_rag.kortty_files.hnsw_records`).
Written from the formats' descriptions; ``kortty-rag import kortty``
(:mod:`kortty_rag.app.kortty_import`) is their one user."""

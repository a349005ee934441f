"""Embedding models: the catalog, installation and conversion, and the llama.cpp runtime (imported lazily)."""

"""Deterministic, model-tokenizer-bounded chunking (docs/DESIGN.md §9)."""

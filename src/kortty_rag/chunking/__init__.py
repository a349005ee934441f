"""Deterministic, model-tokenizer-bounded chunking (SPEC §9)."""

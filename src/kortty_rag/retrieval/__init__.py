"""Retrieval: ranking chunks for a query and building the bounded, untrusted context block."""

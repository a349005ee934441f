"""kortty-rag: a desktop knowledge-store manager for local retrieval-augmented generation.

The core (everything except :mod:`kortty_rag.gui`) never imports Qt; the CLI and the GUI are two faces of
the same headless functions.
"""

__version__ = "0.1.0"

"""Where data lives and how definitions are persisted (docs/DESIGN.md §1, §2)."""

"""Where data lives and how definitions are persisted (SPEC §1, §2)."""

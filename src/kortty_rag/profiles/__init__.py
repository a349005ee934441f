"""AI profiles, the Text/Coding roles, request-kind gates and prompt assembly (docs/DESIGN.md §12)."""

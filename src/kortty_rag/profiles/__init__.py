"""AI profiles, the Text/Coding roles, request-kind gates and prompt assembly (SPEC §12)."""

"""Qt item models over core data (sources, review rows)."""

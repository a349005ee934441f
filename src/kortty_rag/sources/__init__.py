"""Safe folder scanning, the format allowlist, include/exclude and .gitignore rules, the review report."""

"""Which paths a folder scan looks at (SPEC §7): fixed exclusions, hidden paths, globs, nested .gitignore.

Include globs only ever *narrow* the format allowlist; exclude globs and ``.gitignore`` files only remove.
All glob patterns use gitignore semantics (``pathspec``), relative to the source root.
"""

from __future__ import annotations

from collections.abc import Iterable

import pathspec

from kortty_rag.models import SourceOptions

EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".gradle",
        ".idea",
        ".vscode",
        ".venv",
        "venv",
        "node_modules",
        "vendor",
        "build",
        "target",
        "dist",
        "out",
        "coverage",
        "__pycache__",
    }
)

GITIGNORE = ".gitignore"


def _spec(patterns: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    lines = [p for p in patterns if p.strip()]
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


class PathRules:
    """The per-source rules that do not depend on file contents."""

    def __init__(self, options: SourceOptions) -> None:
        self._include = _spec(options.include)
        self._exclude = _spec(options.exclude)

    @staticmethod
    def hidden_or_fixed_dir(name: str) -> str | None:
        if name in EXCLUDED_DIRS:
            return f"excluded folder ({name})"
        if name.startswith("."):
            return "hidden folder"
        return None

    def folder_reason(self, rel: str) -> str | None:
        """Why the folder at ``rel`` (relative, POSIX) is not walked, or ``None``."""
        name = rel.rsplit("/", 1)[-1]
        fixed = self.hidden_or_fixed_dir(name)
        if fixed:
            return fixed
        if self._exclude is not None and self._exclude.match_file(rel + "/"):
            return "excluded by an exclude pattern"
        return None

    def file_reason(self, rel: str) -> str | None:
        """Why the file at ``rel`` is not considered (before format and content checks), or ``None``."""
        name = rel.rsplit("/", 1)[-1]
        if name.startswith("."):
            return "hidden file"
        if self._exclude is not None and self._exclude.match_file(rel):
            return "excluded by an exclude pattern"
        return None

    def included(self, rel: str) -> bool:
        """Include patterns narrow the allowlist; no include pattern means everything allowed stays."""
        return self._include is None or self._include.match_file(rel)


class GitignoreRules:
    """Nested ``.gitignore`` files with git's precedence: the deepest file that has an opinion wins."""

    def __init__(self) -> None:
        self._specs: dict[str, pathspec.GitIgnoreSpec] = {}

    def add(self, folder_rel: str, text: str) -> None:
        """Register the ``.gitignore`` of ``folder_rel`` ("" for the source root)."""
        spec = _spec(text.splitlines())
        if spec is not None:
            self._specs[folder_rel] = spec

    def ignored(self, rel: str, *, is_dir: bool) -> bool:
        parts = rel.split("/")
        for depth in range(len(parts) - 1, -1, -1):
            folder = "/".join(parts[:depth])
            spec = self._specs.get(folder)
            if spec is None:
                continue
            inner = "/".join(parts[depth:]) + ("/" if is_dir else "")
            decision = spec.check_file(inner).include
            if decision is not None:
                return bool(decision)
        return False

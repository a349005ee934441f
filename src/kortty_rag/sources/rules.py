"""Which paths a folder scan looks at (docs/DESIGN.md §7): fixed exclusions, hidden paths, globs, nested .gitignore.

Include globs only ever *narrow* the format allowlist; exclude globs and ``.gitignore`` files only remove.
All glob patterns use gitignore semantics (``pathspec``), relative to the source root.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable

import pathspec

from kortty_rag.errors import UsageError
from kortty_rag.messages import msg
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


def _spec(patterns: Iterable[str], *, option: str | None = None) -> pathspec.GitIgnoreSpec | None:
    """Compile gitignore-style patterns. A line git would ignore as invalid (``!``, a trailing
    backslash, a bad character range) is ignored in a ``.gitignore`` file, as git does; in a source
    ``option`` (include/exclude) it is the user's mistake and a :class:`UsageError`."""
    lines: list[str] = []
    for pattern in patterns:
        if not pattern.strip():
            continue
        try:
            with warnings.catch_warnings():  # "possible nested set" for "[[": valid in gitignore
                warnings.simplefilter("ignore", FutureWarning)
                pathspec.GitIgnoreSpec.from_lines([pattern])
        except (ValueError, re.error) as exc:  # GitIgnorePatternError is a ValueError
            if option is not None:
                raise UsageError(
                    msg(
                        "Invalid {option} pattern {pattern} ({error})",
                        option=option,
                        pattern=repr(pattern),
                        error=str(exc),
                    ),
                    hint=msg("Patterns use .gitignore syntax, for example *.md or drafts/."),
                ) from None
            continue
        lines.append(pattern)
    if not lines:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return pathspec.GitIgnoreSpec.from_lines(lines)


class PathRules:
    """The per-source rules that do not depend on file contents."""

    def __init__(self, options: SourceOptions) -> None:
        self._include = _spec(options.include, option="include")
        self._exclude = _spec(options.exclude, option="exclude")

    @staticmethod
    def hidden_or_fixed_dir(name: str) -> str | None:
        if name in EXCLUDED_DIRS:
            return msg("excluded folder ({name})", name=name)
        if name.startswith("."):
            return msg("hidden folder")
        return None

    def folder_reason(self, rel: str) -> str | None:
        """Why the folder at ``rel`` (relative, POSIX) is not walked, or ``None``."""
        name = rel.rsplit("/", 1)[-1]
        fixed = self.hidden_or_fixed_dir(name)
        if fixed:
            return fixed
        if self._exclude is not None and self._exclude.match_file(rel + "/"):
            return msg("excluded by an exclude pattern")
        return None

    def file_reason(self, rel: str) -> str | None:
        """Why the file at ``rel`` is not considered (before format and content checks), or ``None``."""
        name = rel.rsplit("/", 1)[-1]
        if name.startswith("."):
            return msg("hidden file")
        if self._exclude is not None and self._exclude.match_file(rel):
            return msg("excluded by an exclude pattern")
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
        # git splits lines at LF only (str.splitlines would also split at FF, VT, U+2028, …)
        spec = _spec(line.removesuffix("\r") for line in text.split("\n"))
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

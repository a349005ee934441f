"""Keep the desktop app's translations current with Qt's own tools.

(docs/DESIGN.md "Languages and accessibility")

    python scripts/translations.py            # update the .ts files from the code, compile the .qm
    python scripts/translations.py --check    # fail if either is not what the code needs

``pyside6-lupdate`` reads every module of the desktop app and of the core (not the CLI or the MCP
server, which stay English) and writes

- ``resources/translations/kortty_rag_de.ts``: every string, for the German translation;
- ``resources/translations/kortty_rag_en.ts``: the plural forms only (``%n``), for English.

``msg("…")`` in the core is lupdate's ``QT_TR_NOOP`` (``-tr-function-alias``). Locations are left
out of the .ts files, so they change only when a string does. ``pyside6-lrelease`` compiles each to
its ``.qm``; both are committed, and ``--check`` (run by ``scripts/test``) fails when a string of the
code is missing from a .ts file, when a .ts file has an unfinished or obsolete entry, or when a .qm
file is not what ``pyside6-lrelease`` makes of its .ts file.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "kortty_rag"
FOLDER = ROOT / "resources" / "translations"
#: front ends that stay English
ENGLISH_ONLY = ("cli", "mcp_server")
#: (file stem, lupdate's target language, extra lupdate options)
FILES = (
    ("kortty_rag_de", "de_DE", ()),
    ("kortty_rag_en", "en_US", ("-pluralonly",)),
)
TIMEOUT = 300


def tool(name: str) -> str:
    """A Qt tool of the PySide6 beside this Python (the project's .venv), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install the project with its dev extra first")
    return found


def sources(package: Path = PACKAGE) -> list[Path]:
    return sorted(
        path
        for path in package.rglob("*.py")
        if path.relative_to(package).parts[0] not in ENGLISH_ONLY
    )


def run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{Path(command[0]).name} failed:\n{result.stdout}{result.stderr}")


def lupdate(ts: Path, language: str, extra: tuple[str, ...], package: Path = PACKAGE) -> None:
    files = [str(path) for path in sources(package)]
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as listing:
        listing.write("\n".join(files))  # one argument: the list is long
    try:
        run(
            [
                tool("pyside6-lupdate"),
                "-tr-function-alias",
                "QT_TR_NOOP+=msg",
                "-locations",
                "none",
                "-no-obsolete",
                "-target-language",
                language,
                *extra,
                f"@{listing.name}",
                "-ts",
                str(ts),
            ]
        )
    finally:
        Path(listing.name).unlink()


def lrelease(ts: Path, qm: Path) -> None:
    run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)])


def problems_of(ts: Path) -> list[str]:
    """Entries a finished translation must not have: unfinished, obsolete or vanished."""
    found = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")  # (an element without children is falsy)
            kind = translation.get("type") if translation is not None else "unfinished"
            if kind in ("unfinished", "obsolete", "vanished"):
                found.append(f"{ts.name}: {kind} [{name}] {message.findtext('source')!r}")
    return found


def update() -> int:
    for stem, language, extra in FILES:
        ts = FOLDER / f"{stem}.ts"
        lupdate(ts, language, extra)
        lrelease(ts, FOLDER / f"{stem}.qm")
    problems = [p for stem, _, _ in FILES for p in problems_of(FOLDER / f"{stem}.ts")]
    for problem in problems:
        print(problem)
    print(f"{len(problems)} entries to translate" if problems else "translations complete")
    return 0


def check(package: Path = PACKAGE) -> int:
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        for stem, language, extra in FILES:
            ts, qm = FOLDER / f"{stem}.ts", FOLDER / f"{stem}.qm"
            fresh_ts, fresh_qm = Path(scratch) / ts.name, Path(scratch) / qm.name
            shutil.copyfile(ts, fresh_ts)
            lupdate(fresh_ts, language, extra, package)
            if fresh_ts.read_bytes() != ts.read_bytes():
                failures.append(
                    f"{ts.name} is not current: the code has strings it lacks (or it keeps ones "
                    "the code no longer has)"
                )
            failures.extend(problems_of(ts))
            lrelease(ts, fresh_qm)
            if not qm.exists() or fresh_qm.read_bytes() != qm.read_bytes():
                failures.append(f"{qm.name} is not compiled from {ts.name}")
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        print("run: python scripts/translations.py, then translate what it lists", file=sys.stderr)
        return 1
    print("translations current")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if not current")
    parser.add_argument(
        "--package", type=Path, default=PACKAGE, help="the package to read (--check only; tests)"
    )
    args = parser.parse_args()
    return check(args.package) if args.check else update()


if __name__ == "__main__":
    sys.exit(main())

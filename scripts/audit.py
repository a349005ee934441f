"""Report known vulnerabilities of the locked dependencies (``requirements/lock.txt``).

    python scripts/audit.py [--strict] [LOCKFILE]

Uses the same data as pip-audit's default service: the vulnerability list PyPI's JSON API gives for
a release (advisories from the Python Packaging Advisory Database and OSV). Where the per-release
endpoint is not reachable (some mirrors serve only the project endpoint, which lists the
vulnerabilities of the newest release), a locked version that *is* the newest release is still
audited exactly; an older one is reported as "not audited, behind the newest release".

Prints one line per finding and a summary. Exit status 0 (report only), unless ``--strict`` is given
and a vulnerability was found or a package could not be audited.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

PYPI = "https://pypi.org/pypi"
TIMEOUT = 20


@dataclass
class Result:
    name: str
    version: str
    audited: bool = False
    vulnerabilities: list[dict[str, object]] = field(default_factory=list)
    note: str = ""


def locked(path: Path) -> list[tuple[str, str]]:
    pins = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins.append((name.strip(), version.strip()))
    return pins


def fetch(url: str) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            data: dict[str, object] = json.load(response)
            return data
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None
        raise


def audit(name: str, version: str) -> Result:
    result = Result(name, version)
    try:
        release = fetch(f"{PYPI}/{name}/{version}/json")
        if release is not None:
            result.audited = True
            result.vulnerabilities = list(release.get("vulnerabilities") or [])  # type: ignore[call-overload]
            return result
        project = fetch(f"{PYPI}/{name}/json")
    except (OSError, ValueError) as exc:
        result.note = f"not audited ({exc})"
        return result
    if project is None:
        result.note = "not audited (not on PyPI)"
        return result
    newest = str(project["info"]["version"])  # type: ignore[index]
    if newest == version:
        result.audited = True
        result.vulnerabilities = list(project.get("vulnerabilities") or [])  # type: ignore[call-overload]
    else:
        result.note = f"not audited: behind the newest release {newest}"
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lockfile", nargs="?", type=Path, default=Path("requirements/lock.txt"))
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()
    pins = locked(args.lockfile)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda pin: audit(*pin), pins))
    found = [r for r in results if r.vulnerabilities]
    unaudited = [r for r in results if not r.audited]
    for r in found:
        for vuln in r.vulnerabilities:
            fixed = ", ".join(map(str, vuln.get("fixed_in") or [])) or "no fixed release"  # type: ignore[call-overload]
            print(f"VULNERABLE {r.name}=={r.version}: {vuln.get('id')} (fixed in {fixed})")
    for r in unaudited:
        print(f"{r.name}=={r.version}: {r.note}")
    print(
        f"audit: {len(pins)} locked packages, {len(pins) - len(unaudited)} audited, "
        f"{len(found)} with known vulnerabilities, {len(unaudited)} not audited"
    )
    return 1 if args.strict and (found or unaudited) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Peak memory of reading one korTTY index (``index.hnsw``) in a fresh process.

    python -m tests.helpers.korthns_probe read FILE
    python -m tests.helpers.korthns_probe convert FILE

``read`` reads FILE with kortty-rag's reader and keeps the result. ``convert`` then also turns it into
kortty-rag's documents, chunks and vectors the way ``kortty-rag import kortty`` does before writing
them (``app.kortty_import._documents``; every source id of the file mapped to a folder source),
holding what the importer holds. Each prints one JSON line: the resident set before reading (every
module imported, the peak reset), the peak after, the file's size, the nodes and chunks.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

from kortty_rag.models import Source, SourceKind


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


class EverySource(dict[str, "Source"]):
    """Every source id of the file mapped to a folder source of its own, made when it is asked for
    (learning the ids first would decode every chunk)."""

    def get(self, key: str, default: object = None) -> Source:  # type: ignore[override]
        if key not in self:
            self[key] = Source(f"src-{len(self):012x}", f"/nowhere/{len(self)}", SourceKind.FOLDER)
        return self[key]


def main() -> int:
    mode, path = sys.argv[1], Path(sys.argv[2])
    from kortty_rag.app.kortty_import import _documents
    from kortty_rag.kortty_files.hnsw import read_korthns

    gc.collect()
    # from here on VmHWM is the peak of what follows (Linux ≥ 4.0: "5" resets the high-water mark)
    Path("/proc/self/clear_refs").write_text("5")
    baseline = _status("VmRSS")
    snapshot = read_korthns(path)
    nodes, chunks = len(snapshot.vectors), 0
    if mode == "convert":
        for _document, new, rows in _documents(snapshot, EverySource()):
            chunks += len(new)
            snapshot.vectors[rows].sum()  # what `_build` hands to the store, one document at a time
    peak = _status("VmHWM")
    print(
        json.dumps(
            {
                "baseline_rss": baseline,
                "peak_rss": peak,
                "file_bytes": path.stat().st_size,
                "nodes": nodes,
                "chunks": chunks,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

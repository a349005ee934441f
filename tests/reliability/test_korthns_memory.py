"""Issue 23, item 6: reading korTTY's ``index.hnsw`` holds at most 4× the file's size (docs/DESIGN.md
§14). A review's 21.7 MB file of 400 nodes with 33 layers of links each took 572 MB: every link above
layer 0 was a Python tuple. Now the file is read once into one buffer, the graph is checked in it,
and what stays are numpy columns — the file once, the vectors once, and a few bytes per node.

Each file is read in a fresh process (``tests/helpers/korthns_probe.py``) whose peak resident set is
compared with the resident set it had just before reading (every module imported, the peak reset).
Two bounds are asserted: the promise, 4× the file's size for any file; and the design's own, the file
plus its vectors plus 64 bytes per node plus 16 MiB for the interpreter's own churn — what tells that
no per-link or per-chunk Python object is left (the old reader kept an ordinary file under 4× too:
2.3× for 384 dimensions, 3.1× for 768).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
from tests.helpers.kortty_writer import Graph, Node, write_korthns
from tests.helpers.reliability import WORDS, record_figure, size

#: the promise: peak memory over the process's baseline, as a multiple of the file's size
MULTIPLE = 4
#: the design: the file, its vectors, this per node, and this much for the interpreter itself
PER_NODE = 64
SLACK = 16 << 20
REPO = Path(__file__).resolve().parents[2]


def probe(mode: str, path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.helpers.korthns_probe", mode, str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def measured(case: str, mode: str, path: Path, dimensions: int) -> dict[str, Any]:
    """Probe ``path``, record the figures, check both bounds."""
    result = probe(mode, path)
    grown = result["peak_rss"] - result["baseline_rss"]
    file_bytes, nodes = result["file_bytes"], result["nodes"]
    design = file_bytes + 4 * dimensions * nodes + PER_NODE * nodes + SLACK
    record_figure(
        "korthns-memory",
        case=case,
        mode=mode,
        nodes=nodes,
        file_mib=round(file_bytes / 2**20, 1),
        baseline_mib=round(result["baseline_rss"] / 2**20, 1),
        grown_mib=round(grown / 2**20, 1),
        multiple=round(grown / file_bytes, 2),
        design_bound_mib=round(design / 2**20, 1),
    )
    assert grown <= MULTIPLE * file_bytes, (case, grown / file_bytes)
    assert grown <= design, (case, grown, design)
    return result


def test_a_many_layer_graph_takes_at_most_four_times_its_file(tmp_path: Path) -> None:
    """The finding's file: 400 nodes, each on every one of 33 layers and linked to all others there
    (M = 399), 384 dimensions — 21.8 MB, 5.3 M links. Before: 19.7× (409 MiB over the baseline)."""
    count, dims = size(400, 1200), 384
    rng = np.random.default_rng(1)
    nodes = [
        Node("src-a", f"doc{i}.md", "ab" * 32, 0, 0, 10, f"chunk {i}",
             rng.normal(size=dims).astype(np.float32), {"format": ".md"})
        for i in range(count)
    ]  # fmt: skip
    others = [[j for j in range(count) if j != i] for i in range(count)]
    graph = Graph(0, 32, lambda i: [others[i]] * 33)
    path = tmp_path / "index.hnsw"
    write_korthns(path, nodes, version=2, dimensions=dims, model_id="m", m=count - 1, graph=graph)
    result = measured(f"{count} nodes × 33 layers", "convert", path, dims)
    assert result["chunks"] == count


def korttys_notes(count: int, dims: int, m: int) -> tuple[list[Node], Graph]:
    """Notes as korTTY indexes them: chunks of up to 800 tokens (680 new ones each) cut from notes
    of lognormal length (median about 660 tokens), typographic punctuation, 768-dimensional vectors
    (nomic-embed-text), and an HNSW graph with korTTY's level distribution and neighbour limits."""
    r, rng = random.Random(3), np.random.default_rng(3)
    vocabulary = [f"{w}{i}" for w in WORDS for i in range(300)] + ["don’t", "—", "naïve", "„so“"]
    nodes: list[Node] = []
    note = 0
    while len(nodes) < count:
        note, tokens, index, at = note + 1, int(r.lognormvariate(6.5, 1.0)) + 20, 0, 0
        while tokens > 0 and len(nodes) < count:
            text = " ".join(r.choices(vocabulary, k=min(tokens, 800)))
            nodes.append(
                Node(f"src-{note % 3}", f"notes/n{note}.md", f"{note:064x}", index, at,
                     at + len(text), text, rng.normal(size=dims).astype(np.float32),
                     {"format": ".md"})
            )  # fmt: skip
            tokens, index, at = tokens - 680, index + 1, at + len(text) * 85 // 100
    levels = [min(32, int(-np.log(1 - r.random()) / np.log(m))) for _ in range(count)]
    top = max(levels)
    on = [[i for i in range(count) if levels[i] >= layer] for layer in range(top + 1)]

    def layers(i: int) -> list[list[int]]:
        lists = []
        for layer in range(levels[i] + 1):
            pool = [j for j in r.sample(on[layer], min(len(on[layer]), 2 * m + 1)) if j != i]
            lists.append(sorted(pool[: 2 * m if layer == 0 else m]))
        return lists

    return nodes, Graph(levels.index(top), top, layers)


def test_an_ordinary_index_takes_little_more_than_its_file_and_vectors(tmp_path: Path) -> None:
    """korTTY's notes index, read and turned into this product's documents and chunks as the
    import does before writing them. Before: 3.1× (and 2.3× at 384 dimensions)."""
    count, dims = size(4_000, 40_000), 768
    nodes, graph = korttys_notes(count, dims, m=16)
    path = tmp_path / "index.hnsw"
    write_korthns(path, nodes, version=2, dimensions=dims, model_id="m", graph=graph)
    del nodes
    result = measured("ordinary notes", "convert", path, dims)
    assert result["chunks"] == count


def test_many_small_nodes_take_at_most_four_times_their_file(tmp_path: Path) -> None:
    """The per-node cost: 300,000 nodes of 111 bytes (one dimension, empty texts, korTTY's 64-hex
    chunk ids), where the columns weigh most against the file. Before: 4.4×. Read only: converting
    one document holds its chunks as this product's objects, whatever their number (§14)."""
    count = size(300_000, 3_000_000)
    path = tmp_path / "index.hnsw"
    graph = Graph(-1, -1, lambda _: [[]])
    write_korthns(path, SmallNodes(count), version=1, dimensions=1, model_id="m", graph=graph)
    measured(f"{count:,} small nodes", "read", path, 1)


class SmallNodes(Sequence[Node]):
    """``count`` nodes made when they are written (the soak tier's 3 M would not fit as a list)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __len__(self) -> int:
        return self.count

    @overload
    def __getitem__(self, index: int) -> Node: ...
    @overload
    def __getitem__(self, index: slice) -> list[Node]: ...
    def __getitem__(self, index: int | slice) -> Node | list[Node]:
        if isinstance(index, slice):
            return [self[i] for i in range(self.count)[index]]
        if not 0 <= index < self.count:
            raise IndexError(index)
        return Node("s", "d", "h", index, index, index, "", np.ones(1, np.float32))

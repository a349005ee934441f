"""A store's relevance calibration: how close its chunks come to questions it knows nothing about.

After each index the pipeline embeds the fixed off-topic probes (:mod:`kortty_rag.embedding.probes`)
with the store's model, and the builder of the new snapshot records, for every probe, the best cosine
similarity any of its chunks reaches. The list (ascending) is written into the manifest, so it is
kept with the snapshot under the pointer's checksum and changes only with an activation; retrieval
sets the store's dense floor above it (:mod:`kortty_rag.retrieval.relevance`). A snapshot written
before calibration existed has none until its next index; its floor is the model's fixed one.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def best_similarities(index: Any, probes: np.ndarray | None, live: int) -> tuple[float, ...]:
    """For each probe (a row of ``probes``), the best cosine similarity of any of the ``live``
    elements of the hnswlib ``index``, ascending; empty without probes or elements."""
    if probes is None or len(probes) == 0 or live == 0:
        return ()
    try:
        _, distances = index.knn_query(np.ascontiguousarray(probes, dtype=np.float32), k=1)
    except RuntimeError:  # hnswlib found no element for some probe (a graph of deleted elements)
        return ()
    return tuple(sorted(round(1.0 - float(d), 6) for d in distances[:, 0]))

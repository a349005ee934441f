"""The lexical half of hybrid ranking for local stores: BM25 over the same chunks, in the snapshot.

Two parts, both inside the snapshot and covered by its checksums:

* In ``chunks.sqlite``, each chunk's terms (:mod:`kortty_rag.index.analysis`) as term ids with their
  counts, and the vocabulary. They are written incrementally — only new chunks are analysed — and are
  the source of truth the next snapshot is built from.
* ``lexical.npz``: the inverted index built from them at activation (for each term the rows of the
  chunks that hold it and its counts; per row the chunk's label, length and source). A query reads
  the postings of its few terms and scores them with numpy, so its cost grows with the postings of
  the query's terms, not with the store: a few milliseconds at 100,000 chunks.

Scores are Lucene's BM25 (``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``, ``k1`` = 1.2, ``b`` = 0.75).
Each hit also carries its *coverage*: the IDF-weighted share of the query's terms that occur in the
chunk (a term found nowhere counts with the largest IDF), which the relevance floor reads as
lexical evidence. A query's compound that no chunk holds is searched as its two parts where the
index holds both (:mod:`kortty_rag.index.compounds`).
"""

from __future__ import annotations

import io
import sqlite3
import zipfile
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kortty_rag.index.analysis import (
    Analyzer,
    analyzer,
    detect_language,
    parse_key,
)
from kortty_rag.index.compounds import COMPOUNDING_LANGUAGES, with_compounds_split
from kortty_rag.languages import LANGUAGES, NO_LANGUAGE
from kortty_rag.models import with_heading

K1 = 1.2
B = 0.75
_MAX_TF = np.iinfo(np.uint16).max
#: chunks read at once when analysing or building (bounded memory)
_BATCH = 2000
#: chunk texts sampled (evenly) to detect a store's language
_DETECT_SAMPLES = 200

SCHEMA = """
CREATE TABLE IF NOT EXISTS lexical_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lexical_vocabulary (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS lexical_terms (
    label INTEGER PRIMARY KEY,
    length INTEGER NOT NULL,
    ids BLOB NOT NULL,
    counts BLOB NOT NULL
);
"""

#: the FTS5 index of snapshot format 2, dropped when such a snapshot is migrated
_LEGACY = """
DROP TRIGGER IF EXISTS chunks_fts_insert;
DROP TRIGGER IF EXISTS chunks_fts_delete;
DROP TABLE IF EXISTS chunks_fts;
"""

AUTO = "auto"


#: how the recorded analyzer was chosen (``lexical_meta`` key ``analyzer_origin``): detected from the
#: text for ``auto``, or a language the store set; an index from before this was recorded has none
DETECTED, SET = "detected", "set"


def configured_analyzer_key(
    recorded: str | None, configured: str, origin: str | None = None
) -> str | None:
    """The analyzer a snapshot must use: the configured language, or for ``auto`` the recorded one if
    it is still current and was not a language set by hand (back to ``auto`` means "detect");
    ``None`` means "detect it from the text"."""
    if configured != AUTO:
        return analyzer(configured).key
    if recorded is not None and parse_key(recorded) is not None and origin != SET:
        return recorded
    return None


class LexicalWriter:
    """The lexical tables of a snapshot being built (inside the builder's transaction)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(_LEGACY + SCHEMA)
        row = db.execute("SELECT value FROM lexical_meta WHERE key = 'analyzer'").fetchone()
        self.recorded: str | None = None if row is None else str(row[0])
        row = db.execute("SELECT value FROM lexical_meta WHERE key = 'analyzer_origin'").fetchone()
        self.origin: str | None = None if row is None else str(row[0])

    def needs_update(self, language: str) -> bool:
        """Whether the next snapshot must re-analyse every chunk (another language or analyzer), or
        detect the language again (``auto`` after a language set by hand)."""
        key = configured_analyzer_key(self.recorded, language, self.origin)
        return key is None or key != self.recorded

    def forget(self, labels: Iterable[int]) -> None:
        self.db.executemany("DELETE FROM lexical_terms WHERE label = ?", ((x,) for x in labels))

    def update(self, language: str) -> bool:
        """Analyse every chunk that has no terms yet, with the analyzer ``language`` asks for
        (re-analysing all chunks if that differs from the one recorded). True if anything changed."""
        key = configured_analyzer_key(self.recorded, language, self.origin)
        origin = SET if language != AUTO else self.origin if key is not None else DETECTED
        if key is None:
            key = analyzer(detect_language(self._samples())).key
        changed = key != self.recorded
        if changed:
            self.db.execute("DELETE FROM lexical_terms")
            self.db.execute("DELETE FROM lexical_vocabulary")
            self.db.execute(
                "INSERT OR REPLACE INTO lexical_meta (key, value) VALUES ('analyzer', ?)", (key,)
            )
            self.recorded = key
        if origin is not None and origin != self.origin:
            self.db.execute(
                "INSERT OR REPLACE INTO lexical_meta (key, value) VALUES ('analyzer_origin', ?)",
                (origin,),
            )
            self.origin = origin
            changed = True
        language_code = parse_key(key)
        assert language_code is not None
        return self._analyse_pending(analyzer(language_code)) or changed

    def _samples(self) -> list[str]:
        total = int(self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
        step = max(1, total // _DETECT_SAMPLES)
        rows = self.db.execute(
            "SELECT text FROM chunks WHERE label % ? = 0 ORDER BY label LIMIT ?",
            (step, _DETECT_SAMPLES),
        )
        return [str(r[0]) for r in rows]

    def _analyse_pending(self, words: Analyzer) -> bool:
        vocabulary: dict[str, int] = {}
        next_id = int(
            self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM lexical_vocabulary").fetchone()[0]
        )
        changed = False
        while True:
            rows = self.db.execute(
                "SELECT c.label, c.text, c.heading FROM chunks c"
                " LEFT JOIN lexical_terms t ON t.label = c.label"
                " WHERE t.label IS NULL ORDER BY c.label LIMIT ?",
                (_BATCH,),
            ).fetchall()
            if not rows:
                return changed
            changed = True
            analysed = [
                (int(label), *words.terms(with_heading(str(heading), str(text))))
                for label, text, heading in rows
            ]
            wanted = {t for _, terms, _ in analysed for t in terms} - vocabulary.keys()
            self._lookup(wanted, vocabulary)
            new = sorted(wanted - vocabulary.keys())
            self.db.executemany(
                "INSERT INTO lexical_vocabulary (id, term) VALUES (?, ?)",
                ((next_id + i, term) for i, term in enumerate(new)),
            )
            vocabulary.update((term, next_id + i) for i, term in enumerate(new))
            next_id += len(new)
            self.db.executemany(
                "INSERT INTO lexical_terms (label, length, ids, counts) VALUES (?, ?, ?, ?)",
                (_row(label, terms, length, vocabulary) for label, terms, length in analysed),
            )

    def _lookup(self, terms: set[str], vocabulary: dict[str, int]) -> None:
        wanted = sorted(terms)
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            vocabulary.update(
                (str(term), int(i))
                for i, term in self.db.execute(
                    f"SELECT id, term FROM lexical_vocabulary WHERE term IN ({marks})", part
                )
            )

    def write_index(self, out: io.BufferedIOBase) -> None:
        """Write ``lexical.npz``: the inverted index of every chunk's terms.

        Memory is what serving the index takes (its arrays) plus one batch of chunks, whatever the
        store's size: a first pass counts each term's postings, which fixes where every term's
        postings go; a second pass reads the chunks a batch at a time and places each batch's
        postings straight where they belong."""
        vocabulary = int(
            self.db.execute("SELECT COALESCE(MAX(id), 0) FROM lexical_vocabulary").fetchone()[0]
        )
        labels: list[int] = []
        lengths: list[int] = []
        sources: list[int] = []
        source_codes: dict[str, int] = {}
        df = np.zeros(vocabulary + 1, dtype=np.int64)
        for rows in self._batches("t.label, t.length, t.ids, c.source_id"):
            for label, length, _, source_id in rows:
                labels.append(int(label))
                lengths.append(int(length))
                sources.append(source_codes.setdefault(str(source_id), len(source_codes)))
            ids = np.concatenate([np.frombuffer(r[2], dtype="<i4") for r in rows])
            df += np.bincount(ids, minlength=vocabulary + 1)[: vocabulary + 1]
        offsets = np.zeros(vocabulary + 2, dtype=np.int64)
        np.cumsum(df, out=offsets[1:])
        del df
        arrays: dict[str, np.ndarray] = {
            "analyzer": np.frombuffer((self.recorded or "").encode(), dtype=np.uint8),
            "sources": np.frombuffer("\n".join(source_codes).encode(), dtype=np.uint8),
            "labels": np.asarray(labels, dtype=np.int64),
            "lengths": np.asarray(lengths, dtype=np.float32),
            "row_sources": np.asarray(sources, dtype=np.int32),
            "offsets": offsets,
        }
        del labels, lengths, sources
        arrays["rows"], arrays["counts"] = self._placed_postings(offsets)
        with zipfile.ZipFile(out, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for name, array in arrays.items():
                with zf.open(f"{name}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, array, allow_pickle=False)

    def _batches(self, columns: str) -> Iterator[list[Any]]:
        """The chunks' analysed rows in label order (the row order of the index), a batch at a time."""
        cursor = self.db.execute(
            f"SELECT {columns} FROM lexical_terms t JOIN chunks c ON c.label = t.label"
            " ORDER BY t.label"
        )
        while rows := cursor.fetchmany(_BATCH):
            yield rows

    def _placed_postings(self, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every posting's row and count at its place: term ``t``'s postings fill
        ``offsets[t]`` … ``offsets[t + 1]``, in row order."""
        total = int(offsets[-1])
        rows_of = np.empty(total, dtype="<i4")
        counts_of = np.empty(total, dtype="<u2")
        filled = offsets[:-1].copy()  # where each term's next posting goes
        base = 0
        for rows in self._batches("t.ids, t.counts"):
            ids = [np.frombuffer(r[0], dtype="<i4") for r in rows]
            per_row = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
            flat = np.concatenate(ids)
            order = np.argsort(flat, kind="stable")  # by term, then row
            flat = flat[order]
            row_numbers = np.repeat(np.arange(base, base + len(rows), dtype="<i4"), per_row)[order]
            counts = np.concatenate([np.frombuffer(r[1], dtype="<u2") for r in rows])[order]
            base += len(rows)
            terms, starts, sizes = np.unique(flat, return_index=True, return_counts=True)
            # posting i of the batch goes to its term's next free place plus its rank in the term
            places = np.repeat(filled[terms] - starts, sizes) + np.arange(len(flat))
            filled[terms] += sizes
            rows_of[places] = row_numbers
            counts_of[places] = counts
        if not np.array_equal(filled, offsets[1:]):
            # the chunk table changed between the passes: never write an inconsistent index
            raise sqlite3.DatabaseError("the lexical terms changed while the index was written")
        return rows_of, counts_of


def _row(
    label: int, terms: list[str], length: int, vocabulary: dict[str, int]
) -> tuple[int, int, bytes, bytes]:
    counted = Counter(vocabulary[t] for t in terms)
    ids = np.fromiter(sorted(counted), dtype="<i4", count=len(counted))
    tf = np.fromiter((min(counted[int(i)], _MAX_TF) for i in ids), dtype="<u2", count=len(ids))
    return label, length, ids.tobytes(), tf.tobytes()


def _typed(array: np.ndarray, dtype: type) -> np.ndarray:
    """``array`` if it is one-dimensional of ``dtype`` (what :meth:`LexicalWriter.write_index`
    writes); anything else is a damaged index."""
    if array.ndim != 1 or array.dtype != np.dtype(dtype).newbyteorder("="):
        raise ValueError(f"the lexical index holds an array of {array.dtype}, {array.ndim}-d")
    return array


@dataclass(frozen=True)
class LexicalHit:
    label: int
    score: float
    coverage: float


class LexicalIndex:
    """The loaded inverted index of an active snapshot (read-only; safe to share between threads)."""

    def __init__(self, data: bytes, db: sqlite3.Connection) -> None:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                key = arrays["analyzer"].tobytes().decode()
                sources = arrays["sources"].tobytes().decode()
                self.labels = _typed(arrays["labels"], np.int64)
                self.lengths = _typed(arrays["lengths"], np.float32)
                self.row_sources = _typed(arrays["row_sources"], np.int32)
                self.offsets = _typed(arrays["offsets"], np.int64)
                self.rows = _typed(arrays["rows"], np.int32)
                self.counts = _typed(arrays["counts"], np.uint16)
        except (zipfile.BadZipFile, KeyError, OSError, EOFError, UnicodeDecodeError) as exc:
            raise ValueError(f"the lexical index is unreadable ({exc})") from exc
        language = parse_key(key)
        #: False when the index was made by another analyzer version: it is then searched with this
        #: version's analyzer for its language (nearly the same terms) until it is migrated
        self.current = language is not None
        if language is None:
            recorded = key.partition(":")[2]
            language = recorded if recorded in LANGUAGES else NO_LANGUAGE
        self.analyzer = analyzer(language)
        self.db = db
        self.source_codes = {s: i for i, s in enumerate(sources.split("\n")) if s}
        n = len(self.labels)
        if not (
            len(self.lengths) == n == len(self.row_sources)
            and len(self.offsets) > 0
            and len(self.rows) == len(self.counts) == int(self.offsets[-1])
            and bool(np.all(np.diff(self.offsets) >= 0))
            and int(self.offsets[0]) == 0
            and (len(self.rows) == 0 or (self.rows.min() >= 0 and self.rows.max() < n))
            and bool(np.all(np.isfinite(self.lengths)))
        ):
            raise ValueError("the lexical index is inconsistent")
        self.size = n
        self.average = float(self.lengths.mean()) if n else 1.0
        self._norm = K1 * (1 - B + B * self.lengths / max(self.average, 1e-9))

    def _term_ids(self, terms: Collection[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        wanted = sorted(terms)
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for i, term in self.db.execute(
                f"SELECT id, term FROM lexical_vocabulary WHERE term IN ({marks})", part
            ):
                if 0 < int(i) < len(self.offsets) - 1:
                    found[str(term)] = int(i)
        return found

    def query_terms(self, query: str) -> tuple[list[str], dict[str, int]]:
        """The query's terms, a compound the index does not hold split into two parts it holds
        (:mod:`kortty_rag.index.compounds`), and the ids of those the index holds."""
        terms = self.analyzer.query_terms(query)
        ids = self._term_ids(terms)
        compounding = self.analyzer.language in COMPOUNDING_LANGUAGES
        absent = {t for t in terms if t not in ids} if compounding else set()

        def known_of(words: set[str]) -> set[str]:
            found = self._term_ids(words)
            ids.update(found)
            return set(found)

        return with_compounds_split(terms, known_of, absent), ids

    def allowed_rows(self, source_ids: Collection[str]) -> np.ndarray | None:
        """A mask of the rows of ``source_ids`` (``None``: every row)."""
        codes = [self.source_codes[s] for s in source_ids if s in self.source_codes]
        if len(codes) == len(self.source_codes):
            return None
        return np.isin(self.row_sources, np.asarray(codes, dtype=np.int32))

    def search(self, query: str, k: int, allowed: np.ndarray | None) -> list[LexicalHit]:
        if k <= 0 or self.size == 0:
            return []
        terms, ids = self.query_terms(query)
        if not terms:
            return []
        n = self.size
        scores = np.zeros(n, dtype=np.float32)
        matched = np.zeros(n, dtype=np.float32)
        idf_all = 0.0
        for term in terms:
            i = ids.get(term)
            lo, hi = (int(self.offsets[i]), int(self.offsets[i + 1])) if i else (0, 0)
            df = hi - lo
            idf = float(np.log1p((n - df + 0.5) / (df + 0.5)))
            idf_all += idf
            if df == 0:
                continue
            rows = self.rows[lo:hi]
            tf = self.counts[lo:hi].astype(np.float32)
            scores[rows] += idf * tf / (tf + self._norm[rows])
            matched[rows] += idf
        if allowed is not None:
            scores[~allowed] = 0.0
        hits = np.flatnonzero(scores)
        if len(hits) > k:
            hits = hits[np.argpartition(-scores[hits], k - 1)[:k]]
        hits = hits[np.lexsort((self.labels[hits], -scores[hits]))]
        return [
            LexicalHit(int(self.labels[r]), float(scores[r]), float(matched[r] / idf_all))
            for r in hits
        ]

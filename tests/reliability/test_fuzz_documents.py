"""Promise 6 for the format readers: every mutated DOCX, ODT, EPUB, PPTX, RTF and HTML document gets
an answer — its text or one reason — within the time limit, never an exception (Hypothesis; see
``tests/helpers/fuzz.py``). The seeds are pandoc's; mutations hit the container's bytes and, unpacked
with zipfile and packed again, the XML of its parts."""

from __future__ import annotations

import functools
import io
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from tests.helpers.documents import FORMATS, garden_documents
from tests.helpers.fuzz import FUZZ, assert_worker_answer, mutate, mutations, time_limit
from tests.helpers.hostile_documents import rezip

from kortty_rag.extract.readers import read_document

TOKENS = [b"<", b">", b"</", b"/>", b"&", b"&amp;", b"&#0;", b"&#xD800;", b"<!DOCTYPE x>", b"]]>"]
TOKENS += [b"<w:p>", b"<w:tbl>", b"<text:h>", b"<text:list>", b"<li>", b"<table>", b"\\bin9 "]
TOKENS += [b"\\outlinelevel0 ", b"\\u-10179?", b"{\\pict ", b"{", b"}", b"\\", b"\x00", b"\xff"]
mutation = mutations(TOKENS)


@functools.cache
def seeds() -> dict[str, tuple[bytes, tuple[str, ...]]]:
    """Each format's garden document and the names of its XML parts."""
    with tempfile.TemporaryDirectory() as folder:
        documents = garden_documents(Path(folder))
        out = {}
        for suffix, path in documents.items():
            data = path.read_bytes()
            names: tuple[str, ...] = ()
            if zipfile.is_zipfile(io.BytesIO(data)):
                with zipfile.ZipFile(io.BytesIO(data)) as archive:
                    names = tuple(
                        n
                        for n in archive.namelist()
                        if n.endswith((".xml", ".rels", ".xhtml", ".opf"))
                    )
            out[suffix] = (data, names)
        return out


def check(kind: str, data: bytes) -> None:
    with time_limit(20):
        answer = read_document(kind, data, 4 << 20)
    assert_worker_answer(answer, reasons=("reason", "too_much_text"))


@FUZZ
@given(st.sampled_from(sorted(FORMATS)), st.lists(mutation, max_size=6))
def test_every_mutated_document_gets_an_answer(
    suffix: str, operations: list[tuple[str, int, Any]]
) -> None:
    data, _ = seeds()[suffix]
    check(FORMATS[suffix], mutate(data, operations))


@FUZZ
@given(
    st.sampled_from(["docx", "odt", "epub", "pptx"]),
    st.integers(0, 1 << 16),
    st.lists(mutation, min_size=1, max_size=6),
)
def test_every_document_with_a_mutated_part_gets_an_answer(
    suffix: str, which: int, operations: list[tuple[str, int, Any]]
) -> None:
    data, names = seeds()[suffix]
    name = names[which % len(names)]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        part = archive.read(name)
    with tempfile.NamedTemporaryFile(suffix="." + suffix) as handle:
        handle.write(data)
        handle.flush()
        changed = rezip(Path(handle.name), {name: mutate(part, operations)})
    check(FORMATS[suffix], changed)

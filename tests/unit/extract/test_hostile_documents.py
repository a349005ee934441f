"""Hostile containers are skipped with one reason and never reach outside the file: zip bombs,
billion laughs, external entities aimed at a local file, relationships to external targets, encrypted
and DRM-protected documents, damaged containers. The documents are pandoc's, changed with zipfile."""

from __future__ import annotations

import io
import re
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from tests.helpers.documents import garden_documents
from tests.helpers.fuzz import time_limit
from tests.helpers.hostile_documents import (
    LAUGHS,
    claim_packed_size,
    flag_encrypted,
    member,
    rezip,
    with_doctype,
    zip_bomb,
)

from kortty_rag.extract.readers import read_document

KINDS = {"docx": "DOCX", "odt": "ODT", "epub": "EPUB", "pptx": "PPTX"}
MAIN_PART = {
    "docx": "word/document.xml",
    "odt": "content.xml",
    "epub": "EPUB/text/ch001.xhtml",
    "pptx": "ppt/slides/slide2.xml",
}


@pytest.fixture(scope="module")
def garden(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return garden_documents(tmp_path_factory.mktemp("garden"))


def reason(kind: str, data: bytes) -> str:
    answer = read_document(kind, data)
    assert answer["ok"] is False and set(answer) == {"ok", "reason"}, answer
    assert "\n" not in answer["reason"]
    return str(answer["reason"])


@pytest.mark.parametrize("suffix", list(KINDS))
def test_a_zip_bomb_is_refused_before_it_is_unpacked(garden: dict[str, Path], suffix: str) -> None:
    bomb = zip_bomb(garden[suffix], MAIN_PART[suffix])
    assert len(bomb) < 1 << 20  # 40 MiB of one byte pack into a few KiB
    assert "zip bomb" in reason(KINDS[suffix], bomb)


def test_a_bomb_that_claims_a_larger_packed_size_is_still_refused(garden: dict[str, Path]) -> None:
    bomb = zip_bomb(garden["odt"], "content.xml")
    claimed = (40 << 20) // 150  # a ratio of 150: under the limit, and far past the file's end
    lying = claim_packed_size(bomb, "content.xml", claimed)
    assert zipfile.ZipFile(io.BytesIO(lying)).getinfo("content.xml").compress_size == claimed
    assert "zip bomb" in reason("ODT", lying)


def test_many_small_parts_that_unpack_to_much_are_a_bomb_too(garden: dict[str, Path]) -> None:
    # each part under the ratio check's 1 MiB floor; python-docx would parse every one of them
    parts = {f"word/header{n}.xml": b"<w:p/>" * (1 << 17) for n in range(12)}
    many = rezip(garden["docx"], parts)
    assert len(many) < 1 << 20
    assert "zip bomb" in reason("DOCX", many)


def test_many_document_types_without_an_end_are_checked_at_once(garden: dict[str, Path]) -> None:
    unended = b"<!DOCTYPE " * 100_000  # under 1 MiB: no ratio check stops it first
    with time_limit(30):  # a backtracking check took time quadratic in their number
        answer = read_document("DOCX", rezip(garden["docx"], {"word/extra.xml": unended}))
    assert answer["ok"], answer  # declares nothing: not refused, and not parsed by the reader
    subset = b"<!DOCTYPE a><!DOCTYPE b [<!ELEMENT b ANY>]><b/>"
    assert "declares entities" in reason("DOCX", rezip(garden["docx"], {"word/extra.xml": subset}))


@pytest.mark.parametrize("suffix", list(KINDS))
def test_entities_are_never_expanded(garden: dict[str, Path], suffix: str) -> None:
    part = MAIN_PART[suffix]
    laughs = rezip(garden[suffix], {part: with_doctype(member(garden[suffix], part), LAUGHS)})
    assert "declares entities" in reason(KINDS[suffix], laughs)


@pytest.mark.parametrize("suffix", list(KINDS))
def test_an_external_entity_never_reads_a_local_file(
    garden: dict[str, Path], suffix: str, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("KENNWORT-4711")
    xxe = f'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
    part = MAIN_PART[suffix]
    hostile = rezip(garden[suffix], {part: with_doctype(member(garden[suffix], part), xxe)})
    assert "declares entities" in reason(KINDS[suffix], hostile)
    # a DTD in a part no reader parses is refused too: the whole package is checked first
    other = {"docx": "word/settings.xml", "odt": "meta.xml", "pptx": "ppt/presProps.xml"}
    if suffix in other:
        name = other[suffix]
        hostile = rezip(garden[suffix], {name: with_doctype(member(garden[suffix], name), xxe)})
        answer = read_document(KINDS[suffix], hostile)
        assert "KENNWORT" not in str(answer)


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A loopback HTTP server that records every request it gets."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_relationships_to_external_targets_are_never_followed(
    garden: dict[str, Path], listener: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, seen = listener
    secret = tmp_path / "secret.xml"
    secret.write_text("<w:document>KENNWORT-4711</w:document>")
    rels = member(garden["docx"], "word/_rels/document.xml.rels").decode()
    base = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    external = "".join(
        f'<Relationship Id="rX{n}" Type="{base}/{kind}" Target="{target}" TargetMode="External"/>'
        for n, (kind, target) in enumerate(
            [
                ("image", f"{url}/bild.png"),
                ("subDocument", f"file://{secret}"),
                ("attachedTemplate", f"{url}/vorlage.dotx"),
                ("hyperlink", f"{url}/link"),
                ("footnotes", f"{url}/footnotes.xml"),
            ]
        )
    )
    document = member(garden["docx"], "word/document.xml").decode()
    linked = (
        '<w:p><w:subDoc r:id="rX1"/><w:r><w:drawing><a:blip r:link="rX0"/></w:drawing></w:r>'
        '<w:hyperlink r:id="rX3"><w:r><w:t>Verweis</w:t></w:r></w:hyperlink></w:p>'
    )
    hostile = rezip(
        garden["docx"],
        {
            "word/_rels/document.xml.rels": rels.replace(
                "</Relationships>", external + "</Relationships>"
            ).encode(),
            "word/document.xml": document.replace("<w:body>", "<w:body>" + linked, 1).encode(),
        },
    )
    answer = read_document("DOCX", hostile)
    assert answer["ok"], answer
    text = "".join(answer["pages"])
    assert "Verweis" in text and "Tomaten im Gewächshaus" in text
    assert "KENNWORT" not in text
    assert seen == []


def test_encrypted_office_documents_are_skipped_with_that_reason(garden: dict[str, Path]) -> None:
    from msoffcrypto.format.ooxml import OOXMLFile

    for suffix in ("docx", "pptx"):
        encrypted = io.BytesIO()
        with garden[suffix].open("rb") as plain:
            OOXMLFile(plain).encrypt("geheim", encrypted)
        assert "password-protected" in reason(KINDS[suffix], encrypted.getvalue())


def test_an_encrypted_odt_is_skipped_with_that_reason(garden: dict[str, Path]) -> None:
    manifest = member(garden["odt"], "META-INF/manifest.xml").decode()
    entry = (
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" '
        'manifest:size="10985"><manifest:encryption-data manifest:checksum-type="SHA1/1K" '
        'manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" '
        'manifest:initialisation-vector="AAAA"/></manifest:encryption-data></manifest:file-entry>'
    )
    manifest = manifest.replace(
        '<manifest:file-entry manifest:media-type="application/xml" manifest:full-path="content.xml" manifest:version="1.2" />',
        entry,
    )
    assert "encryption-data" in manifest
    hostile = rezip(
        garden["odt"],
        {"META-INF/manifest.xml": manifest.encode(), "content.xml": bytes(range(256)) * 40},
    )
    assert "password-protected" in reason("ODT", hostile)


@pytest.mark.parametrize("suffix", list(KINDS))
def test_a_zip_with_encrypted_members_is_skipped(garden: dict[str, Path], suffix: str) -> None:
    assert "encrypted" in reason(KINDS[suffix], flag_encrypted(garden[suffix].read_bytes()))


def test_a_drm_protected_book_is_skipped_and_font_obfuscation_is_not_drm(
    garden: dict[str, Path],
) -> None:
    def encryption(algorithm: str) -> bytes:
        return (
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            f'<enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
            '<enc:CipherReference URI="EPUB/text/ch001.xhtml"/></enc:CipherData>'
            "</enc:EncryptedData></encryption>"
        ).encode()

    drm = rezip(
        garden["epub"],
        {"META-INF/encryption.xml": encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc")},
    )
    assert "DRM" in reason("EPUB", drm)
    adept = rezip(garden["epub"], {"META-INF/rights.xml": b"<rights/>"})
    assert "DRM" in reason("EPUB", adept)
    fonts = rezip(
        garden["epub"],
        {"META-INF/encryption.xml": encryption("http://www.idpf.org/2008/embedding")},
    )
    assert read_document("EPUB", fonts)["ok"]


@pytest.mark.parametrize("suffix", list(KINDS))
@pytest.mark.parametrize("share", [0.1, 0.5, 0.9])
def test_a_truncated_container_is_a_reason_not_a_crash(
    garden: dict[str, Path], suffix: str, share: float
) -> None:
    data = garden[suffix].read_bytes()
    assert "damaged" in reason(KINDS[suffix], data[: int(len(data) * share)])


def test_a_container_that_is_not_one_is_a_reason(garden: dict[str, Path]) -> None:
    for kind in KINDS.values():
        assert "damaged" in reason(kind, b"just some text, not a ZIP container at all")
    assert "not an RTF file" in reason("RTF", b"just text")


def test_a_part_the_spine_or_slide_list_names_twice_is_read_once(garden: dict[str, Path]) -> None:
    opf = member(garden["epub"], "EPUB/content.opf")
    first = re.search(rb"<itemref [^>]*/>", opf)
    assert first is not None
    twice = opf.replace(first.group(), first.group() * 50, 1)
    book = read_document("EPUB", rezip(garden["epub"], {"EPUB/content.opf": twice}))
    assert book["ok"], book
    assert "".join(book["pages"]).count("Brennnesseljauche") == 1

    listing = member(garden["pptx"], "ppt/presentation.xml")
    slide = re.search(rb"<p:sldId [^>]*/>", listing)
    assert slide is not None
    repeated = listing.replace(slide.group(), slide.group() * 50, 1)
    deck = read_document("PPTX", rezip(garden["pptx"], {"ppt/presentation.xml": repeated}))
    original = read_document("PPTX", garden["pptx"].read_bytes())
    assert deck["ok"] and deck["pages"] == original["pages"], deck


def test_rtf_that_striprtf_would_take_long_on_is_read_at_once() -> None:
    font_table = rb"{\rtf1{\fonttbl" + rb"\f1 x" * 40_000 + rb"} Gartenbrief\par}"
    fields = rb"{\rtf1 " + rb'{\field{\*\fldinst{HYPERLINK "' * 3000 + rb"} Ende\par}"
    with time_limit(30):  # both take minutes in striprtf as it is (quadratic and cubic patterns)
        assert read_document("RTF", font_table)["pages"] == ["Gartenbrief\n"]
        read_document("RTF", fields)
    link = (
        rb'{\rtf1 Siehe {\field{\*\fldinst{HYPERLINK "http://x.de"}}{\fldrslt{Gartenseite}}}.\par}'
    )
    assert read_document("RTF", link)["pages"] == ["Siehe Gartenseite.\n"]


def test_rtf_escapes_outside_unicode_or_like_heading_marks_are_text() -> None:
    answer = read_document("RTF", rb"{\rtf1 a\u-99999 ?b\u9999999999 ?c \'02" + rb"7\'03 Zaun\par}")
    assert answer["ok"], answer
    (text,) = answer["pages"]
    assert text == "a\ufffdb\ufffdc 7 Zaun\n"  # no heading made of the mark's own characters


def test_rtf_pictures_and_binary_data_are_skipped() -> None:
    rtf = (
        rb"{\rtf1\ansi{\fonttbl{\f0 Helvetica;}}"
        rb"{\pard\outlinelevel0 Bilder\par}"
        rb"{\pard Vorher {\pict\pngblip\picw10\pich10 89504e470d0a1a0aDEADBEEF}"
        rb" Mitte {\*\shppict{\pict\wmetafile8\bin6 "
        + bytes([0, 1, 2, 0x7B, 0x7D, 0x5C])
        + rb"}} Nachher\par}}"
    )
    answer = read_document("RTF", rtf)
    assert answer["ok"], answer
    (text,) = answer["pages"]
    assert text.startswith("# Bilder\n")
    assert "Vorher" in text and "Mitte" in text and "Nachher" in text
    assert "89504e47" not in text.lower() and "DEADBEEF" not in text.upper()

"""Real PDF files for tests, written with fpdf2 (text pages, encrypted, image-only) or by hand."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fpdf import FPDF


def _document(pages: Sequence[str]) -> FPDF:
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return pdf


def text_pdf(path: Path, pages: Sequence[str]) -> Path:
    _document(pages).output(str(path))
    return path


def encrypted_pdf(path: Path, pages: Sequence[str], *, user_password: str = "secret") -> Path:
    from fpdf.enums import EncryptionMethod

    pdf = _document(pages)
    pdf.set_encryption(
        owner_password="owner",
        user_password=user_password,
        encryption_method=EncryptionMethod.AES_128,
    )
    pdf.output(str(path))
    return path


def image_only_pdf(path: Path, pages: int = 2) -> Path:
    pdf = FPDF()
    for _ in range(pages):
        pdf.add_page()
        pdf.set_fill_color(40, 90, 160)
        pdf.rect(20, 20, 120, 80, style="F")  # drawn content, no text at all
    pdf.output(str(path))
    return path


def malformed_pdf(path: Path) -> Path:
    path.write_bytes(
        b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nendobj\ngarbage\x00\xff"
    )
    return path


def compression_bomb_pdf(path: Path, expanded_mib: int = 256) -> Path:
    """A one-page PDF whose content stream inflates to ``expanded_mib`` MiB of spaces."""
    import zlib

    compressor = zlib.compressobj(9)
    block = b" " * (1 << 20)
    stream = b"".join(compressor.compress(block) for _ in range(expanded_mib)) + compressor.flush()
    raw_pdf(
        path,
        [
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream",
        ],
    )
    return path


def raw_pdf(path: Path, objects: list[bytes]) -> Path:
    """A hand-written PDF: object 1 is the catalog, pointing at ``objects[0]`` (object 2) as its page
    tree; ``objects[i]`` becomes object ``i + 2``."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate([b"<< /Type /Catalog /Pages 2 0 R >>", *objects], start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(offsets) + 1,
        xref,
    )
    path.write_bytes(bytes(out))
    return path


#: the 256 characters one code of :func:`expanding_pdf` stands for (words, so the text chunks normally)
EXPANSION = ("alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega. " * 4)[:255] + " "


def expanding_pdf(path: Path, codes: int = 200_000) -> Path:
    """A one-page PDF of about 1 KiB whose font's ToUnicode map turns one code byte into the 256
    characters of :data:`EXPANSION`: ``codes`` bytes of content extract to ``codes * 256`` characters
    (the security review's 1.1 KiB file made 51.2 M with the default 200,000)."""
    import zlib

    assert len(EXPANSION) == 256
    target = EXPANSION.encode("utf-16-be").hex().upper().encode()
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        b"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        b"1 beginbfchar <41> <" + target + b"> endbfchar\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    cmap_stream = zlib.compress(cmap, 9)
    content = zlib.compress(b"BT /F1 12 Tf 72 720 Td (" + b"A" * codes + b") Tj ET", 9)
    raw_pdf(
        path,
        [
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content)
            + content
            + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(cmap_stream)
            + cmap_stream
            + b"\nendstream",
        ],
    )
    return path

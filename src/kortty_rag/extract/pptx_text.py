"""PowerPoint presentations (PPTX) as outline text per slide (:mod:`kortty_rag.extract.outline`;
docs/DESIGN.md §6).

python-pptx opens the package (a relationship to an external target, such as a linked picture or
a hyperlink, is recorded by it, never followed). Each slide is one page of the document (the
location says ``slide 4``, as a PDF's says ``page 4``): its title is its heading, then the text of
its other shapes in their order (group shapes read through, tables as rows of cells), then its
speaker notes. A slide the presentation lists twice is read once; a shape python-pptx cannot read
(an unknown kind, a damaged one) is left out, not the whole presentation.
"""

from __future__ import annotations

from io import BytesIO
from typing import Any

from kortty_rag.extract.containers import SafeZip, damaged
from kortty_rag.extract.outline import Budget, Outline, Unreadable

KIND = "PPTX"


def read_pptx(data: bytes, budget: Budget) -> list[str]:
    """The outline text of each slide, in order."""
    package = SafeZip(data, KIND)
    package.check_xml_parts()
    import pptx  # imported here: the worker imports it before its memory limit applies

    try:
        presentation = pptx.Presentation(BytesIO(data))
        pages = []
        seen: set[str] = set()
        for slide in presentation.slides:
            name = str(slide.part.partname)
            if name not in seen:
                seen.add(name)
                pages.append(_slide(slide, Outline(budget)))
        return pages
    except Unreadable:
        raise
    except (KeyError, ValueError, AttributeError, TypeError, IndexError, LookupError) as exc:
        raise damaged(KIND, exc) from None


#: what python-pptx raises on a shape it cannot read
_SHAPE_ERRORS = (NotImplementedError, AttributeError, KeyError, ValueError, TypeError, IndexError)


def _slide(slide: Any, outline: Outline) -> str:
    try:
        title = slide.shapes.title
    except _SHAPE_ERRORS:
        title = None
    if title is not None and title.has_text_frame:
        outline.heading(1, title.text_frame.text)
    for shape in slide.shapes:
        try:
            if title is not None and shape.shape_id == title.shape_id:
                continue
            _shape(shape, outline, 0)
        except _SHAPE_ERRORS:
            continue
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        if notes is not None:
            for paragraph in notes.paragraphs:
                outline.paragraph(paragraph.text)
    return outline.text()


def _shape(shape: Any, outline: Outline, depth: int) -> None:
    if depth > 50:
        return
    if getattr(shape, "shape_type", None) is not None and hasattr(shape, "shapes"):
        for inner in shape.shapes:  # a group
            _shape(inner, outline, depth + 1)
        return
    if getattr(shape, "has_table", False):
        for row in shape.table.rows:
            outline.row([cell.text for cell in row.cells])
        return
    if getattr(shape, "has_text_frame", False):
        for paragraph in shape.text_frame.paragraphs:
            if paragraph.level > 0:
                outline.item(paragraph.text, paragraph.level - 1)
            else:
                outline.paragraph(paragraph.text)

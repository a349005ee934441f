"""HTML as its main text: no script, style, template, noscript or navigation; headings as the outline;
the encoding the page declares. The pages are written here by hand, as a web page is."""

from __future__ import annotations

import pytest
from tests.helpers.fuzz import time_limit

from kortty_rag.extract.readers import read_document

PAGE = """<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><title>Gartenblog</title>
<style>body { color: red } .geheim::after { content: "STYLETEXT" }</style>
<script>var tracking = "SCRIPTTEXT";</script></head>
<body>
<header><nav><a href="/">Start</a> <a href="/impressum">NAVTEXT Impressum</a></nav></header>
<main>
<h1>Kompost anlegen</h1>
<p>Ein guter Kompost braucht <b>Luft</b>, Feuchtigkeit und <a href="x">Geduld</a>.</p>
<noscript>NOSCRIPTTEXT bitte JavaScript einschalten</noscript>
<template><p>TEMPLATETEXT</p></template>
<h2>Schichten</h2>
<ul><li>grobes Material unten<ul><li>Äste</li></ul></li><li>Küchenabfälle darüber</li></ul>
<h3>Verhältnis</h3>
<table><tr><th>Grün</th><th>Braun</th></tr><tr><td>1 Teil</td><td>2 Teile</td></tr></table>
<div hidden>HIDDENTEXT</div><div aria-hidden="true">ARIAHIDDENTEXT</div>
<pre>  Zeile eins
# keine Überschrift</pre>
</main>
<aside>ASIDETEXT Werbung</aside>
<footer>FOOTERTEXT © 2026</footer>
</body></html>"""


def text_of(data: bytes) -> str:
    answer = read_document("HTML", data)
    assert answer["ok"], answer
    (page,) = answer["pages"]
    return str(page)


def test_the_main_text_with_its_outline_and_nothing_else() -> None:
    text = text_of(PAGE.encode())
    for word in ("STYLE", "SCRIPT", "NAV", "NOSCRIPT", "TEMPLATE", "HIDDEN", "ASIDE", "FOOTER"):
        assert word + "TEXT" not in text
    assert "<" not in text and "color: red" not in text
    assert text.splitlines()[0] == "# Kompost anlegen"
    assert "\n## Schichten\n" in text and "\n### Verhältnis\n" in text
    assert "Ein guter Kompost braucht Luft, Feuchtigkeit und Geduld." in text
    assert "- grobes Material unten\n  - Äste\n- Küchenabfälle darüber" in text
    assert "Grün | Braun\n1 Teil | 2 Teile" in text
    assert "  Zeile eins\n\\# keine Überschrift" in text  # preformatted: lines kept, escaped


@pytest.mark.parametrize(
    ("declaration", "encoding"),
    [
        ('<meta charset="windows-1252">', "cp1252"),
        ('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-15">', "iso8859_15"),
        ("", "utf-8"),
        ('<meta charset="utf-8">', "utf-8"),
    ],
)
def test_the_declared_encoding_is_used(declaration: str, encoding: str) -> None:
    page = f"<html><head>{declaration}</head><body><p>Größe, Süße, Maße - 5 €</p></body></html>"
    assert "Größe, Süße, Maße - 5 €" in text_of(page.encode(encoding))


def test_undeclared_bytes_that_are_not_utf8_are_read_as_windows_1252() -> None:
    page = "<html><body><p>Gemüse für 3 €</p></body></html>".encode("cp1252")
    assert "Gemüse für 3 €" in text_of(page)


def test_xhtml_with_an_xml_declaration_and_named_entities() -> None:
    page = (
        '<?xml version="1.0" encoding="iso-8859-1"?>\n'
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
        '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Gr\xfc\xdfe</h1>'
        "<p>A&nbsp;&amp;&nbsp;B</p></body></html>"
    ).encode("latin-1")
    text = text_of(page)
    assert text.startswith("# Grüße\n") and "A & B" in text


def test_entities_a_page_declares_are_not_expanded() -> None:
    from tests.helpers.hostile_documents import LAUGHS

    laughs = LAUGHS.split("[", 1)[1].split("]", 1)[0]
    page = f"<!DOCTYPE html [{laughs}]><html><body><p>Anfang &l9; Ende</p></body></html>"
    assert text_of(page.encode()) == "Anfang &l9; Ende\n"


def test_an_empty_page_is_skipped_with_a_reason() -> None:
    answer = read_document("HTML", b"<html><head><title>x</title></head><body> </body></html>")
    assert answer == {"ok": False, "reason": "no text to index (the HTML file has none)"}


def test_a_document_type_without_its_end_is_no_text_and_read_at_once() -> None:
    with time_limit(30):  # a backtracking pattern took minutes on this
        answer = read_document("HTML", b"<!DOCTYPE " + b"a" * 400_000)
    assert answer == {"ok": False, "reason": "no text (empty HTML document)"}
    subset = read_document("HTML", b'<!DOCTYPE x [<!ENTITY a "]">]><p>Beet</p>')
    assert subset["pages"] == ["Beet\n"]


def test_a_tag_with_thousands_of_attributes_is_refused() -> None:
    attributes = b" ".join(b"a%d=x" % n for n in range(20_000))
    with time_limit(30):  # libxml2's HTML parser is quadratic in their number
        answer = read_document("HTML", b"<p " + attributes + b">Beet</p>")
    assert answer["ok"] is False and "attributes" in answer["reason"]
    picture = b'<p>Beet <img alt="Foto" src="data:image/png;base64,' + b"QUJD" * 50_000 + b'"></p>'
    assert read_document("HTML", picture)["ok"]  # one long attribute is no attack


def test_latin1_means_windows_1252_and_control_characters_are_dropped() -> None:
    page = b'<meta charset="iso-8859-1"><p>Gr\xfc\xdfe \x93Beet\x94 \x85 ok\x1b[31m</p>'
    assert text_of(page) == "Grüße “Beet” … ok[31m\n"
    nel = '<meta charset="utf-8"><p>a\u0085b\u009bc\ufeffd</p>'.encode()
    assert text_of(nel) == "abcd\n"


def test_deep_nesting_keeps_the_text_after_it() -> None:
    page = b"<p>vorher</p>" + b"<span>x" * 1000 + b"<p>nachher</p>"
    assert "nachher" in text_of(page)


@pytest.mark.parametrize("charset", ["base64", "rot13", "undefined", "utf-16", "x-unknown"])
def test_a_charset_that_is_no_text_encoding_falls_back(charset: str) -> None:
    page = f'<meta charset="{charset}"><p>Gartenzaun</p>'.encode()
    assert text_of(page) == "Gartenzaun\n"


@pytest.mark.parametrize(
    "page",
    [b"<html><body>Hallo <b>Welt</b></body></html>", b"<p>eins</p>Hallo <b>Welt</b>"],
)
def test_text_after_the_last_block_is_kept(page: bytes) -> None:
    assert "Hallo Welt" in text_of(page)

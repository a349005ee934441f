"""The format allowlist (docs/DESIGN.md §6). A recognised name is necessary, never sufficient: content is checked too."""

from __future__ import annotations

from pathlib import PurePath

from kortty_rag.models import Document

PDF = "PDF"
HTML = "HTML"
DOCX = "DOCX"
ODT = "ODT"
EPUB = "EPUB"
PPTX = "PPTX"
RTF = "RTF"
#: formats read by a format reader in the isolated worker, not as text (docs/DESIGN.md §6)
EXTRACTED = frozenset({PDF, HTML, DOCX, ODT, EPUB, PPTX, RTF})
#: formats whose pages are the document's segments: PDF pages, presentation slides
PAGED = frozenset({PDF, PPTX})
#: compressed containers, which can yield many more characters than they have bytes
COMPRESSED = frozenset({PDF, DOCX, ODT, EPUB, PPTX})
#: how each format is read, where that changed: a document a local store indexed with an older
#: reader is read again at the next refresh (docs/DESIGN.md §9). HTML 1: the outline reader, not
#: the markup as text; Markdown 1: links rendered as labels, front matter and links kept.
READERS = {HTML: 1, "Markdown": 1}
#: the hash a stale document is known by: no file has it, so the scan indexes it again
READ_AGAIN = "read-again"

_GROUPS: dict[str, tuple[str, ...]] = {
    # plain text and markup
    "Text": ("txt", "text"),
    "Markdown": ("md", "markdown", "mdown", "mkd"),
    "reStructuredText": ("rst",),
    "AsciiDoc": ("adoc", "asciidoc"),
    "Org": ("org",),
    "TeX": ("tex", "bib", "sty", "cls"),
    # data
    "CSV": ("csv",),
    "TSV": ("tsv",),
    "JSON": ("json", "jsonl", "ndjson", "geojson"),
    "YAML": ("yaml", "yml"),
    "TOML": ("toml",),
    "INI": ("ini", "cfg", "conf", "properties"),
    "XML": ("xml", "xsd", "xsl", "xslt"),
    HTML: ("html", "htm", "xhtml"),
    "Log": ("log",),
    # source code in the common languages
    "Python": ("py", "pyi", "pyw"),
    "JavaScript": ("js", "mjs", "cjs", "jsx"),
    "TypeScript": ("ts", "tsx", "mts", "cts"),
    "Java": ("java",),
    "Kotlin": ("kt", "kts"),
    "Scala": ("scala", "sc"),
    "Groovy": ("groovy", "gradle"),
    "C": ("c", "h"),
    "C++": ("cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl"),
    "C#": ("cs", "csx"),
    "F#": ("fs", "fsi", "fsx"),
    "Go": ("go",),
    "Rust": ("rs",),
    "Ruby": ("rb", "rake", "gemspec"),
    "PHP": ("php",),
    "Swift": ("swift",),
    "Objective-C": ("m", "mm"),
    "Shell": ("sh", "bash", "zsh", "fish", "ksh"),
    "PowerShell": ("ps1", "psm1", "psd1"),
    "Batch": ("bat", "cmd"),
    "Perl": ("pl", "pm"),
    "R": ("r",),
    "Julia": ("jl",),
    "Lua": ("lua",),
    "Dart": ("dart",),
    "Elixir": ("ex", "exs"),
    "Erlang": ("erl", "hrl"),
    "Haskell": ("hs", "lhs"),
    "Clojure": ("clj", "cljs", "cljc", "edn"),
    "Elm": ("elm",),
    "OCaml": ("ml", "mli"),
    "Nim": ("nim",),
    "Zig": ("zig",),
    "Lisp": ("lisp", "el", "scm", "rkt"),
    "SQL": ("sql",),
    "Protocol Buffers": ("proto",),
    "GraphQL": ("graphql", "gql"),
    "Vue": ("vue",),
    "Svelte": ("svelte",),
    "CSS": ("css", "scss", "sass", "less"),
    "CMake": ("cmake",),
    "Makefile": ("mk", "mak"),
    "Terraform": ("tf", "tfvars", "hcl"),
    "Nix": ("nix",),
    "Vim script": ("vim",),
    "Assembly": ("asm", "s"),
    "Fortran": ("f90", "f95", "f03", "for"),
    "Pascal": ("pas",),
    "Ada": ("adb", "ads"),
    "Diff": ("diff", "patch"),
    # documents: read by their format's reader in the isolated worker
    PDF: ("pdf",),
    DOCX: ("docx",),
    ODT: ("odt",),
    EPUB: ("epub",),
    PPTX: ("pptx",),
    RTF: ("rtf",),
}

SUFFIX_FORMATS: dict[str, str] = {
    suffix: fmt for fmt, suffixes in _GROUPS.items() for suffix in suffixes
}

#: Well-known names without a suffix, compared case-insensitively.
NAME_FORMATS: dict[str, str] = {
    name.lower(): fmt
    for name, fmt in {
        "README": "Text",
        "LICENSE": "Text",
        "LICENCE": "Text",
        "COPYING": "Text",
        "NOTICE": "Text",
        "AUTHORS": "Text",
        "CONTRIBUTORS": "Text",
        "CHANGELOG": "Text",
        "CHANGES": "Text",
        "HISTORY": "Text",
        "NEWS": "Text",
        "INSTALL": "Text",
        "TODO": "Text",
        "CODEOWNERS": "Text",
        "Dockerfile": "Dockerfile",
        "Containerfile": "Dockerfile",
        "Makefile": "Makefile",
        "GNUmakefile": "Makefile",
        "Justfile": "Makefile",
        "CMakeLists.txt": "CMake",
        "Jenkinsfile": "Groovy",
        "Vagrantfile": "Ruby",
        "Gemfile": "Ruby",
        "Rakefile": "Ruby",
        "Podfile": "Ruby",
        "Brewfile": "Ruby",
        "Procfile": "Text",
        "BUILD": "Starlark",
        "WORKSPACE": "Starlark",
    }.items()
}


def detect_format(name: str) -> str | None:
    """The format of a file name, or ``None`` when it is not on the allowlist (case-insensitive)."""
    lowered = name.lower()
    if lowered in NAME_FORMATS:
        return NAME_FORMATS[lowered]
    suffix = PurePath(lowered).suffix
    if suffix:
        return SUFFIX_FORMATS.get(suffix[1:])
    return None


def is_pdf(fmt: str | None) -> bool:
    return fmt == PDF


def reader_version(fmt: str | None) -> int:
    """The version of the reader that reads ``fmt`` now (0: it never changed)."""
    return READERS.get(fmt or "", 0)


def stale(document: Document) -> bool:
    """Whether a local store's document was read by an older reader than its format's now."""
    return document.reader is not None and document.reader < reader_version(document.format)


def is_extracted(fmt: str | None) -> bool:
    """Read by a format reader in the isolated worker (PDF, HTML, office documents, EPUB, RTF)."""
    return fmt in EXTRACTED


def is_paged(fmt: str | None) -> bool:
    """Its segments are pages (a PDF's) or slides (a presentation's)."""
    return fmt in PAGED


def is_compressed(fmt: str | None) -> bool:
    return fmt in COMPRESSED


def has_slides(fmt_or_name: str | None) -> bool:
    """A page of this format (or of a file of this name) is a slide (``slide 4``, not ``page 4``)."""
    return fmt_or_name == PPTX or (fmt_or_name or "").lower().endswith(".pptx")

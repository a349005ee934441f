"""The scanner's rules, one by one (docs/DESIGN.md §6, §7)."""

from __future__ import annotations

import os
import socket
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kortty_rag.extract.pdf import PdfExtractor
from kortty_rag.models import FileStatus, MiB, Source, SourceKind, SourceOptions
from kortty_rag.sources.review import ReviewReport, ReviewRow, RootState
from kortty_rag.sources.rules import EXCLUDED_DIRS
from kortty_rag.sources.scan import ScanLimits, Scanner


@pytest.fixture
def pdf() -> Iterator[PdfExtractor]:
    with PdfExtractor() as extractor:
        yield extractor


def folder_source(root: Path, **options: object) -> Source:
    return Source(id="s1", path=str(root), kind=SourceKind.FOLDER, options=SourceOptions(**options))  # type: ignore[arg-type]


def scan(pdf: PdfExtractor, source: Source, **kwargs: object) -> ReviewReport:
    return Scanner(pdf=pdf, **kwargs).scan([source])  # type: ignore[arg-type]


def rows_by_rel(report: ReviewReport) -> dict[str, ReviewRow]:
    return {row.rel_path: row for row in report.rows}


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_accepts_text_markdown_and_code(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "a.txt", "hello")
    write(tmp_path / "b.MD", "# Title")  # suffixes are case-insensitive
    write(tmp_path / "src" / "c.py", "print(1)")
    write(tmp_path / "README", "read me")
    write(tmp_path / "Dockerfile", "FROM scratch")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert {rel: r.status for rel, r in rows.items()} == {
        "a.txt": FileStatus.INDEX,
        "b.MD": FileStatus.INDEX,
        "src/c.py": FileStatus.INDEX,
        "README": FileStatus.INDEX,
        "Dockerfile": FileStatus.INDEX,
    }
    assert rows["b.MD"].format == "Markdown"
    assert rows["src/c.py"].format == "Python"
    assert all(r.reason == "new" and len(r.sha256) == 64 for r in rows.values())


@pytest.mark.parametrize("name", sorted(EXCLUDED_DIRS))
def test_each_fixed_directory_is_excluded(tmp_path: Path, pdf: PdfExtractor, name: str) -> None:
    write(tmp_path / name / "inside.txt", "never indexed")
    write(tmp_path / "kept.txt", "indexed")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert "kept.txt" in rows and f"{name}/inside.txt" not in rows
    assert rows[name].status is FileStatus.SKIPPED
    assert rows[name].reason in {f"excluded folder ({name})", "hidden folder"}


def test_hidden_files_and_folders_are_excluded(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / ".env.txt", "secret")
    write(tmp_path / ".config" / "x.txt", "x")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert rows[".env.txt"].reason == "hidden file"
    assert rows[".config"].reason == "hidden folder"
    assert ".config/x.txt" not in rows


def test_symlinks_are_never_followed(tmp_path: Path, pdf: PdfExtractor) -> None:
    outside = write(tmp_path / "outside" / "secret.txt", "outside the source")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link.txt").symlink_to(outside)
    (root / "linkdir").symlink_to(outside.parent, target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)
    rows = rows_by_rel(scan(pdf, folder_source(root)))
    assert set(rows) == {"link.txt", "linkdir", "loop"}
    assert all(
        r.status is FileStatus.SKIPPED and "symbolic link" in r.reason for r in rows.values()
    )


def test_symlinked_root_is_an_error(tmp_path: Path, pdf: PdfExtractor) -> None:
    real = tmp_path / "real"
    write(real / "a.txt", "a")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    review = scan(pdf, folder_source(link)).sources[0]
    assert review.root_state is RootState.ERROR
    assert "symbolic link" in review.root_error
    assert review.rows == ()


def test_fifo_and_socket_are_skipped_without_opening(tmp_path: Path, pdf: PdfExtractor) -> None:
    os.mkfifo(tmp_path / "pipe.txt")  # a plain open() would block forever
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(tmp_path / "sock.txt"))
    try:
        rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    finally:
        sock.close()
    assert "FIFO" in rows["pipe.txt"].reason and "never opened" in rows["pipe.txt"].reason
    assert "socket" in rows["sock.txt"].reason


def test_device_file_is_skipped(tmp_path: Path, pdf: PdfExtractor) -> None:
    try:
        os.mknod(tmp_path / "null.txt", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating device nodes needs CAP_MKNOD")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert "character device" in rows["null.txt"].reason


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"abc\x00def", "NUL byte"),
        (b"caf\xe9 latin-1", "not valid UTF-8"),
        (b"\xc3", "not valid UTF-8"),  # truncated sequence at the end
        (b"text with \x07 bell", "control byte 0x07"),
        (b"\x7fELF", "control byte 0x7F"),
    ],
)
def test_binary_and_invalid_utf8_are_skipped(
    tmp_path: Path, pdf: PdfExtractor, data: bytes, reason: str
) -> None:
    write(tmp_path / "x.txt", data)
    row = rows_by_rel(scan(pdf, folder_source(tmp_path)))["x.txt"]
    assert row.status is FileStatus.SKIPPED
    assert reason in row.reason


def test_bom_crlf_tabs_and_escape_are_text(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "x.txt", b"\xef\xbb\xbfline\r\n\tindented \x1b[1mbold\x1b[0m\x0c")
    row = rows_by_rel(scan(pdf, folder_source(tmp_path)))["x.txt"]
    assert row.status is FileStatus.INDEX


def test_unsupported_formats_are_skipped(tmp_path: Path, pdf: PdfExtractor) -> None:
    for name in ("report.doc", "photo.png", "archive.zip", "data.sqlite", "noext"):
        write(tmp_path / name, "looks like text")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert rows["report.doc"].reason == "unsupported format (.doc)"
    assert rows["noext"].reason.startswith("unsupported file type")
    assert all(r.status is FileStatus.SKIPPED for r in rows.values())


def test_default_size_limit_and_override(tmp_path: Path, pdf: PdfExtractor) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:  # sparse: 60 MiB without writing them
        handle.truncate(60 * MiB)
    write(tmp_path / "two.txt", "x" * (2 * MiB))
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert "too large" in rows["big.txt"].reason and "50.0 MiB" in rows["big.txt"].reason
    assert rows["two.txt"].status is FileStatus.INDEX
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path, max_file_size=1 * MiB)))
    assert "too large" in rows["two.txt"].reason


def test_empty_file_has_one_reason(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "empty.md", b"")
    assert (
        rows_by_rel(scan(pdf, folder_source(tmp_path)))["empty.md"].reason == "empty file (no text)"
    )


def test_include_globs_only_narrow_the_allowlist(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "a.md", "a")
    write(tmp_path / "b.txt", "b")
    write(tmp_path / "c.png", "text but not an allowed format")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path, include=("*.md", "*.png"))))
    assert rows["a.md"].status is FileStatus.INDEX
    assert rows["b.txt"].reason == "not matched by the include patterns"
    assert rows["c.png"].reason == "unsupported format (.png)"  # include cannot widen


def test_exclude_globs(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "keep" / "a.md", "a")
    write(tmp_path / "drafts" / "b.md", "b")
    write(tmp_path / "notes.log", "c")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path, exclude=("drafts/", "*.log"))))
    assert rows["keep/a.md"].status is FileStatus.INDEX
    assert rows["drafts"].reason == "excluded by an exclude pattern"
    assert rows["notes.log"].reason == "excluded by an exclude pattern"


def test_nested_gitignore_semantics(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / ".gitignore", "*.log\nsecret/\n")
    write(tmp_path / "app.log", "root log")
    write(tmp_path / "secret" / "s.txt", "hidden by folder rule")
    write(tmp_path / "docs" / ".gitignore", "!keep.log\ndraft.md\n")
    write(tmp_path / "docs" / "keep.log", "re-included by the deeper file")
    write(tmp_path / "docs" / "other.log", "still ignored")
    write(tmp_path / "docs" / "draft.md", "ignored in docs")
    write(tmp_path / "draft.md", "not ignored at the root")
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path)))
    assert rows["app.log"].reason == "ignored by .gitignore"
    assert rows["secret"].reason == "ignored by .gitignore"
    assert "secret/s.txt" not in rows
    assert rows["docs/keep.log"].status is FileStatus.INDEX
    assert rows["docs/other.log"].reason == "ignored by .gitignore"
    assert rows["docs/draft.md"].reason == "ignored by .gitignore"
    assert rows["draft.md"].status is FileStatus.INDEX
    # with .gitignore handling off, everything allowed is indexed
    rows = rows_by_rel(scan(pdf, folder_source(tmp_path, respect_gitignore=False)))
    assert rows["app.log"].status is FileStatus.INDEX


def test_deep_tree_does_not_exhaust_recursion(tmp_path: Path, pdf: PdfExtractor) -> None:
    depth = sys.getrecursionlimit() + 100
    folder = str(tmp_path)
    for _ in range(depth):  # iteratively: Path.mkdir(parents=True) itself would recurse
        folder += "/d"
        os.mkdir(folder)
    Path(folder, "deep.txt").write_text("at the bottom")
    try:
        rows = scan(pdf, folder_source(tmp_path)).rows
        assert [r.status for r in rows] == [FileStatus.INDEX]
        assert rows[0].rel_path.count("/") == depth
    finally:  # shutil.rmtree (and pytest's temp cleanup) would recurse too deep
        os.unlink(Path(folder, "deep.txt"))
        while folder != str(tmp_path):
            os.rmdir(folder)
            folder = os.path.dirname(folder)


def test_unchanged_changed_and_removed(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "same.txt", "same")
    write(tmp_path / "edit.txt", "edited")
    import hashlib

    known = {
        "s1": {
            "same.txt": hashlib.sha256(b"same").hexdigest(),
            "edit.txt": hashlib.sha256(b"before").hexdigest(),
            "gone.txt": "0" * 64,
        }
    }
    report = scan(pdf, folder_source(tmp_path), known=known)
    rows = rows_by_rel(report)
    assert rows["same.txt"].status is FileStatus.UNCHANGED
    assert (rows["edit.txt"].status, rows["edit.txt"].reason) == (FileStatus.INDEX, "changed")
    assert report.sources[0].removed == ("gone.txt",)
    summary = report.summary()
    assert (summary.new, summary.changed, summary.unchanged, summary.removed) == (0, 1, 1, 1)


def test_missing_root(tmp_path: Path, pdf: PdfExtractor) -> None:
    review = scan(pdf, folder_source(tmp_path / "gone"), known={"s1": {"a.txt": "x"}}).sources[0]
    assert review.root_state is RootState.MISSING
    assert review.removed == ("a.txt",)


def test_root_type_mismatch_is_an_error(tmp_path: Path, pdf: PdfExtractor) -> None:
    write(tmp_path / "file.txt", "x")
    review = scan(pdf, folder_source(tmp_path / "file.txt")).sources[0]
    assert review.root_state is RootState.ERROR


def test_file_source_inside_folder_is_not_indexed_twice(tmp_path: Path, pdf: PdfExtractor) -> None:
    single = write(tmp_path / "single.txt", "already a file source")
    write(tmp_path / "other.txt", "x")
    rows = rows_by_rel(
        scan(pdf, folder_source(tmp_path), file_sources={os.path.realpath(single): str(single)})
    )
    assert rows["single.txt"].reason.startswith("already indexed as the file source")
    assert rows["other.txt"].status is FileStatus.INDEX


def test_visited_files_cap_is_reported(tmp_path: Path, pdf: PdfExtractor) -> None:
    for i in range(10):
        write(tmp_path / f"f{i}.txt", f"file {i}")
    report = scan(
        pdf,
        folder_source(tmp_path),
        limits=ScanLimits(max_visited_files=4),
        known={"s1": {"f9.txt": "x"}},
    )
    assert len(report.rows) == 4
    assert report.caps_reached == ("4 visited files",)
    assert report.sources[0].complete is False
    assert report.sources[0].removed == ()  # nothing is removed after an incomplete walk


def test_accepted_bytes_and_character_caps(tmp_path: Path, pdf: PdfExtractor) -> None:
    for i in range(5):
        write(tmp_path / f"f{i}.txt", "x" * 1000)
    report = scan(pdf, folder_source(tmp_path), limits=ScanLimits(max_accepted_bytes=2500))
    assert [r.status for r in report.rows] == [FileStatus.INDEX] * 2
    assert report.caps_reached == ("2.4 KiB of accepted data",)
    report = scan(pdf, folder_source(tmp_path), limits=ScanLimits(max_extracted_characters=3500))
    assert len(report.rows) == 3
    assert "characters of extracted text" in report.caps_reached[0]


def test_scan_is_deterministic(tmp_path: Path, pdf: PdfExtractor) -> None:
    for name in ("b/z.txt", "a/y.md", "c.txt", "a/x.py"):
        write(tmp_path / name, name)
    first = scan(pdf, folder_source(tmp_path)).to_json()
    second = scan(pdf, folder_source(tmp_path)).to_json()
    assert first == second
    assert [r["path"] for r in first["sources"][0]["rows"]] == sorted(
        r["path"] for r in first["sources"][0]["rows"]
    )


def test_single_file_source(tmp_path: Path, pdf: PdfExtractor) -> None:
    path = write(tmp_path / ".hidden-but-chosen.md", "explicitly chosen")
    source = Source(id="f1", path=str(path), kind=SourceKind.FILE)
    rows = scan(pdf, source).rows
    assert [(r.rel_path, r.status) for r in rows] == [(path.name, FileStatus.INDEX)]

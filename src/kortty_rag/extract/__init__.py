"""Taking text out of files: strict UTF-8 for text formats, pypdf in an isolated worker for PDFs."""

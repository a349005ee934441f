"""The file and folder choosers answered the way a user would, without a dialog (the GUI tests'
``chooser`` fixture, tests/gui/conftest.py): set ``next_folder``, ``next_files`` … before the action
that asks."""

from __future__ import annotations

from kortty_rag.gui.file_dialogs import PathChooser


class FixedChooser(PathChooser):
    """Answers the file dialogs the way a user would, without native dialogs."""

    def __init__(self) -> None:
        self.next_folder: str | None = None
        self.next_files: list[str] = []
        self.next_gguf: str | None = None
        self.next_location: str | None = None
        self.next_save: str | None = None
        self.next_archive: str | None = None
        self.next_kortty: str | None = None

    def save_archive(self, parent: object, suggested: str) -> str | None:  # type: ignore[override]
        assert suggested.endswith(".kortty.tar")
        return self.next_save

    def archive(self, parent: object) -> str | None:  # type: ignore[override]
        return self.next_archive

    def kortty_folder(self, parent: object) -> str | None:  # type: ignore[override]
        return self.next_kortty

    def new_location(self, parent: object, old: str, *, folder: bool) -> str | None:  # type: ignore[override]
        assert folder  # the sources here are folders: the folder chooser is the one asked
        return self.next_location

    def folder(self, parent: object) -> str | None:  # type: ignore[override]
        return self.next_folder

    def files(self, parent: object) -> list[str]:  # type: ignore[override]
        return self.next_files

    def gguf(self, parent: object) -> str | None:  # type: ignore[override]
        return self.next_gguf

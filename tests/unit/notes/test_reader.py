"""A Markdown note's links rendered as labels and its facts read, as a person reading the note in
Obsidian would name them (the expected values are written out by hand, not computed)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fuzz import time_limit

from kortty_rag.notes.markup import Link, LinkKind, render_line
from kortty_rag.notes.reader import MAX_LINKS, NoteReader, read_note


def test_wikilinks_render_as_their_labels() -> None:
    text, links, _ = render_line(
        "Vectors per the [[VSC|storage decision]], see [[Qdrant]] and [[Setup#Install]].\n"
    )
    assert text == "Vectors per the storage decision, see Qdrant and Setup > Install.\n"
    assert links == [
        Link(LinkKind.WIKI, "VSC", "", "storage decision"),
        Link(LinkKind.WIKI, "Qdrant", "", "Qdrant"),
        Link(LinkKind.WIKI, "Setup", "Install", "Setup > Install"),
    ]


def test_embeds_markdown_links_and_what_is_no_link() -> None:
    line = (
        "![[diagram.png]] ![[Meeting notes]] [the guide](../docs/Set%20up.md#first-steps) "
        "[site](https://example.org/a.md) [top](#top) ![photo](img/cat.jpg) "
        "`[[code]]` \\[[escaped]] [spaced](<my note.md>)\n"
    )
    text, links, _ = render_line(line)
    assert text == (
        "diagram.png Meeting notes the guide [site](https://example.org/a.md) [top](#top) "
        "photo `[[code]]` \\[[escaped]] spaced\n"
    )
    assert links == [
        Link(LinkKind.EMBED, "diagram.png", "", "diagram.png"),
        Link(LinkKind.EMBED, "Meeting notes", "", "Meeting notes"),
        Link(LinkKind.MARKDOWN, "../docs/Set up.md", "first-steps", "the guide"),
        Link(LinkKind.MARKDOWN, "img/cat.jpg", "", "photo"),
        Link(LinkKind.MARKDOWN, "my note.md", "", "spaced"),
    ]


def test_tags_but_not_headings_numbers_or_anchors() -> None:
    _, _, tags = render_line("Status #project/alpha and #todo-later, not #123, a#b or C#.\n")
    assert tags == ["project/alpha", "todo-later"]
    assert render_line("# A heading\n")[2] == []


NOTE = """---
title: Project Alpha
aliases:
  - Alpha
  - PA
tags: [project, "#active"]
type: project
---
# Project Alpha

Uses the [[VSC|storage decision]]. #status/green

```python
x = "[[not a link]]"
```

~~~
[[nor this]]
~~~
Then [[Qdrant]].
"""


def test_front_matter_code_fences_and_the_text_as_indexed() -> None:
    text, facts = read_note(NOTE)
    assert facts.title == "Project Alpha"
    assert facts.aliases == ["Alpha", "PA"]
    assert facts.tags == ["project", "active", "status/green"]
    assert facts.type == "project"
    assert facts.problem == ""
    assert [link.target for link in facts.links] == ["VSC", "Qdrant"]
    assert "Uses the storage decision." in text
    assert '"[[not a link]]"' in text and "[[nor this]]" in text  # code stays as written
    assert text.startswith("---\ntitle: Project Alpha\n")  # front matter as written
    assert "[[VSC" not in text and "Then Qdrant." in text


@pytest.mark.parametrize(
    ("front", "problem"),
    [
        ("title: [unclosed\n", "not valid YAML"),
        ("- just\n- a list\n", "not a list of fields"),
        ("a: &x [*x]\n", ""),  # a recursive alias: read safely, nothing taken from it
        ("title: !!python/object:os.system ls\n", "not valid YAML"),  # no Python objects
    ],
)
def test_bad_front_matter_is_a_problem_and_the_body_is_still_read(front: str, problem: str) -> None:
    text, facts = read_note(f"---\n{front}---\nBody with [[Link]].\n")
    assert problem in facts.problem
    assert bool(facts.problem) == bool(problem)
    assert "Body with Link." in text
    assert [link.target for link in facts.links] == ["Link"]


def test_oversized_front_matter_is_reported_not_parsed() -> None:
    big = "---\n" + "".join(f"k{n}: {'v' * 60}\n" for n in range(2000)) + "---\nBody.\n"
    text, facts = read_note(big)
    assert "front matter longer than 64 KiB" in facts.problem
    assert text == big  # the text is unchanged


def test_links_kept_per_note_are_bounded() -> None:
    _, facts = read_note("".join(f"[[N{n}]]\n" for n in range(MAX_LINKS + 50)))
    assert len(facts.links) == MAX_LINKS


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_blocks_cut_anywhere_read_as_the_whole(seed: int) -> None:
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(NOTE)), rng.randint(1, 12)))
    blocks = [NOTE[a:b] for a, b in zip([0, *cuts], [*cuts, len(NOTE)], strict=True)]
    reader = NoteReader()
    text = "".join(reader.blocks(blocks))
    whole, facts = read_note(NOTE)
    assert text == whole
    assert reader.facts == facts


@pytest.mark.parametrize(
    "line",
    [
        "[[a]] " * 10_000 + "[b](c.md) " * 1_000,  # many links of both kinds
        "[[a]] [x](" * 6_000,  # links between unclosed Markdown links
        "[[" * 32_768,  # openers without an end
        "\\[[a]] " * 9_000,  # escaped
    ],
)
def test_a_long_line_of_links_is_read_in_linear_time(line: str) -> None:
    """A hang guard, not a speed measurement: each of these took 18-21 s when every link searched
    the rest of the line again (a 50 MiB note of such lines would have taken hours)."""
    with time_limit(5):
        text, facts = read_note(line + "\n")
    assert len(text) <= len(line) + 1
    assert len(facts.links) <= MAX_LINKS

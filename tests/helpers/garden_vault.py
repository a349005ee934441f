"""A small vault of real-looking gardening notes: an H1 title, H2 sections of a sentence or two,
front matter and lists, as people write them in Obsidian or Logseq (tests of excerpt quality)."""

from __future__ import annotations

from pathlib import Path

NOTES = {
    "tomatoes.md": """---
title: Growing Tomatoes
tags: [vegetables, summer]
---
# Growing Tomatoes

## Sowing
Sow the seeds indoors in March, a few millimetres deep, and keep them at about 20 °C.

## Watering
Water deeply twice a week at the roots; wet leaves invite blight.

## Pruning
Pinch out the side shoots of cordon varieties every week.

## Feeding
- Feed with a potash-rich liquid once the first flowers open.
- Stop feeding in September.
""",
    "roses.md": """# Pruning Roses

## When
Prune in late winter, when the buds begin to swell.

## How
Cut about five millimetres above an outward-facing bud, at a slant.

## Dead wood
Remove dead, diseased and crossing stems first.
""",
    "watering.md": """# Watering Guide

## Morning or evening
Water in the early morning so the foliage dries during the day.

## Containers
Pots dry out fast: check them daily in summer and water until it runs out below.

## Lawns
An established lawn needs about 25 litres per square metre once a week in a dry spell.
""",
    "basil.md": """# Basil

Basil loves heat and sun; keep it out of cold draughts.

## Harvest
Pick the top pairs of leaves often so the plant branches out and does not flower.
""",
    "compost.md": """# Compost

## Ingredients
Mix green material (grass clippings, vegetable peelings) with brown material (dry leaves,
cardboard) in roughly equal parts.

## Turning
Turn the heap every few weeks to let air in; it is ready when it is dark and crumbly.
""",
    "slugs.md": """# Slugs and Snails

## Barriers
Copper tape around pots and a ring of grit keep slugs off young plants.

## Beer traps
Sink a jar of beer into the soil near the lettuces and empty it every morning.
""",
    "garlic.md": """# Garlic

## Planting
Plant single cloves in October, pointed end up, ten centimetres apart.

## Harvest
Lift the bulbs in July when the lower leaves turn yellow, and dry them in the sun.
""",
    "seed-saving.md": """# Saving Seeds

## Beans
Leave a few pods on the plant until they rattle, then shell and dry the beans.

## Storage
Keep seeds in paper envelopes in a cool, dry, dark place, labelled with the year.
""",
}


def write_vault(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder

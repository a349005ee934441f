"""Notes as a graph (docs/DESIGN.md §6, "Notes and links"): front matter, wikilinks, Markdown links
and tags of Markdown notes; links rendered as their labels; targets resolved as Obsidian does."""

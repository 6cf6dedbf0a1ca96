"""How a page is dated: the evidence ladder, its rungs and the stamp rule (docs/lastmod.md)."""

"""How a page is dated: the evidence ladder and the stamp rule (docs/lastmod.md)."""

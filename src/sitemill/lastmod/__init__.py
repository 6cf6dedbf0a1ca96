"""How a page is dated: the evidence ladder and its rungs."""

"""hreflang alternates: declared by each page or its language folder, joined into clusters."""
# The clusters are reciprocal, of confirmed links.

"""A built page's source in the repository and its dates: rung 2 of the ladder (docs/lastmod.md)."""

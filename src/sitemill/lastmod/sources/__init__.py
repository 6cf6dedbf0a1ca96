"""Rung 2 of the evidence ladder: a built page's source in the repository, and its dates."""

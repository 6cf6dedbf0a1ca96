"""Rung 3 of the evidence ladder: the modification dates a page declares, and their checks."""

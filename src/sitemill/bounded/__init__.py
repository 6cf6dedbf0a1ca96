"""Helpers that keep memory bounded: URLs seen, repeats, spooled entries, bounded gzip."""

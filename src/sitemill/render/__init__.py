"""Rendering: the Jinja environment, templates compiled to plain Python, splitting, indexes."""

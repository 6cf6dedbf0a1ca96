"""Rendering: the Jinja environment, templates compiled to plain Python, splitting, indexes,
and the Renderer through which the writer uses them (the writer itself never imports Jinja)."""

"""Rendering: the Jinja environment, compiled templates, splitting, indexes, the Renderer."""
# Templates are compiled to plain Python where they can be; the writer uses all this through the
# Renderer and itself never imports Jinja.

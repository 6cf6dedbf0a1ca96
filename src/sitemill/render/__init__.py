"""Rendering: the Renderer, compiled or Jinja templates, split files, indexes, sitemap.html."""
# Templates are compiled to plain Python where they can be; the writer uses all this through the
# Renderer and itself never imports Jinja.

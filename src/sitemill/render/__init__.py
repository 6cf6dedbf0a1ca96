"""Rendering: the Renderer, compiled or Jinja templates, split files, indexes, sitemap.html."""
# The writer uses all this through the Renderer and itself never imports Jinja.

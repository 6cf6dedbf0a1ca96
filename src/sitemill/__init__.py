"""sitemill: correct, deterministic sitemaps (sitemaps.org 0.9) for static sites."""

from sitemill.errors import ConfigError, SinkError, SitemillError, SourceError, TemplateError

__all__ = ["ConfigError", "SinkError", "SitemillError", "SourceError", "TemplateError"]
__version__ = "0.1.0"

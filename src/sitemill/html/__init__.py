"""What a page's bytes say, pure (bytes in, facts out)."""
# Tokens and head tags, noindex, the facts of a head (a meta refresh, <html lang> among them), the
# URLs a page names, the images it shows, hreflang values, its title and its generator.
#
# Nothing here imports the pipeline's data, the configuration, a source or a sink: only the standard
# library and sitemill.errors, sitemill.protocol and sitemill.urls (tests/core/test_layout.py).

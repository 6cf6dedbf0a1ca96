"""What a page's bytes say, pure (bytes in, facts out)."""
# Tokens and head tags, noindex, the facts of a head, the URLs a page names, the images it shows,
# hreflang values, the content fingerprint.
#
# Nothing here imports the pipeline's data, the configuration, a source or a sink: only the standard
# library and sitemill.errors, sitemill.protocol and sitemill.urls (tests/core/test_layout.py).

"""What a page's bytes say, pure (bytes in, facts out)."""
# Nothing here imports the pipeline's data, the configuration, a source or a sink: only the standard
# library and sitemill.errors, sitemill.protocol and sitemill.urls (tests/core/test_layout.py).

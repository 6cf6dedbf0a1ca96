"""One configuration: the model and its defaults, the file reader (``sitemill.toml``), the
value parsers every front-end shares."""

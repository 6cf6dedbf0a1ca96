"""The version of sitemill (pyproject.toml holds the same), apart so that any module can name it."""

__version__ = "0.1.0"

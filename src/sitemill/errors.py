"""The one error tree of sitemill; adapters map it to exit codes, workflow commands or results.

    SitemillError
    ├── ConfigError     a configuration value is wrong (names the key)
    ├── SourceError     a site tree, URL list or bucket cannot be read
    ├── SinkError       an output cannot be written, replaced or deleted
    │   └── ConflictError   another writer changed an output during this run
    ├── TemplateError   a template is missing, broken or renders invalid output
    └── GitError        git failed or gave history that cannot be used

A problem with a single page is not an error: it is counted and reported as a skip.
"""

from __future__ import annotations


class SitemillError(Exception):
    """Base class: every failure sitemill reports to a user is one of these."""


class ConfigError(SitemillError):
    """A configuration value is invalid; ``key`` names it in its file spelling."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class SourceError(SitemillError):
    """The input (site tree, URL list, bucket listing) cannot be read or parsed."""


class SinkError(SitemillError):
    """An output file or object cannot be written, replaced or deleted."""


class ConflictError(SinkError):
    """Another writer replaced or created an output after this run read it: list and redo."""


class TemplateError(SitemillError):
    """A template is missing, fails to render, or produces output over a limit."""


class GitError(SitemillError):
    """git is missing, failed, or its history cannot be used for lastmod."""

"""sitemill: correct, deterministic sitemaps (sitemaps.org 0.9) for static sites."""
# The public API: the three jobs, the configuration, the sinks and the errors. Names are imported on
# first use, so that ``import sitemill`` stays cheap (the CLI's ``validate`` needs no Jinja) and the
# S3 names need boto3 only when they are used.

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sitemill.version import __version__ as __version__

# name -> the module that defines it
_HOMES = {
    "build_from_tree": "sitemill.library",
    "build_from_url_list": "sitemill.library",
    "rebuild_bucket": "sitemill.library",
    "BucketSite": "sitemill.jobs.bucket",
    "Config": "sitemill.config.model",
    "load_config": "sitemill.config.model",
    "read_config_file": "sitemill.config.file",
    "Report": "sitemill.report",
    "WriteResult": "sitemill.report",
    "Sink": "sitemill.sinks",
    "MemorySink": "sitemill.sinks",
    "LocalDirSink": "sitemill.sinks",
    "S3Sink": "sitemill.sinks.s3",
    **{
        name: "sitemill.errors"
        for name in (
            "SitemillError",
            "ConfigError",
            "GlobSyntaxError",
            "SourceError",
            "NoPagesError",
            "EventError",
            "InventoryError",
            "RefusedError",
            "TooLargeError",
            "InflateError",
            "SinkError",
            "IncompleteRunError",
            "DiffError",
            "ConflictError",
            "TemplateError",
            "StateError",
            "FetchError",
            "GitError",
            "MissingExtraError",
            "UsageError",
        )
    },
}
__all__ = [
    "BucketSite",
    "Config",
    "ConfigError",
    "ConflictError",
    "DiffError",
    "EventError",
    "FetchError",
    "GitError",
    "GlobSyntaxError",
    "IncompleteRunError",
    "InflateError",
    "InventoryError",
    "LocalDirSink",
    "MemorySink",
    "MissingExtraError",
    "NoPagesError",
    "RefusedError",
    "Report",
    "S3Sink",
    "Sink",
    "SinkError",
    "SitemillError",
    "SourceError",
    "StateError",
    "TemplateError",
    "TooLargeError",
    "UsageError",
    "WriteResult",
    "build_from_tree",
    "build_from_url_list",
    "load_config",
    "read_config_file",
    "rebuild_bucket",
]

if TYPE_CHECKING:
    from sitemill.config.file import read_config_file
    from sitemill.config.model import Config, load_config
    from sitemill.errors import (
        ConfigError,
        ConflictError,
        DiffError,
        EventError,
        FetchError,
        GitError,
        GlobSyntaxError,
        IncompleteRunError,
        InflateError,
        InventoryError,
        MissingExtraError,
        NoPagesError,
        RefusedError,
        SinkError,
        SitemillError,
        SourceError,
        StateError,
        TemplateError,
        TooLargeError,
        UsageError,
    )
    from sitemill.jobs.bucket import BucketSite
    from sitemill.library import build_from_tree, build_from_url_list, rebuild_bucket
    from sitemill.report import Report, WriteResult
    from sitemill.sinks import LocalDirSink, MemorySink, Sink
    from sitemill.sinks.s3 import S3Sink


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sitemill' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # once imported, a plain attribute
    return value


def __dir__() -> list[str]:
    return [*__all__, "__version__"]

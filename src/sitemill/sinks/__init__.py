"""Where output files go: the Sink port; folder, S3, in-memory and overlay sinks."""
# ``S3Sink`` lives in ``sitemill.sinks.s3`` (it needs boto3, an optional extra). Each name is
# imported on first use: a bucket's run, which writes through S3Sink, loads no local sink.

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sitemill.sinks._local import LocalDirSink
    from sitemill.sinks.port import MemorySink, Sink

__all__ = ["LocalDirSink", "MemorySink", "Sink"]
_HOMES = {
    "LocalDirSink": "sitemill.sinks._local",
    "MemorySink": "sitemill.sinks.port",
    "Sink": "sitemill.sinks.port",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)

"""Where output files go: the Sink port and its local and in-memory implementations."""
# ``S3Sink`` lives in ``sitemill.sinks.s3`` (it needs boto3, an optional extra).

from sitemill.sinks.local import LocalDirSink
from sitemill.sinks.memory import MemorySink
from sitemill.sinks.port import Sink

__all__ = ["LocalDirSink", "MemorySink", "Sink"]

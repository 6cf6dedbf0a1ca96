"""The one error tree of sitemill; adapters map it to exit codes, workflow commands or results.

    SitemillError
    ├── ConfigError         a configuration value is wrong (names the key)
    ├── GlobSyntaxError     a glob pattern cannot be compiled (config names the key)
    ├── SourceError         a site tree, URL list or bucket cannot be read
    │   ├── NoPagesError    nothing to list: every page found was left out, or none was found
    │   ├── EventError      a Lambda event (or one SQS message) cannot be read
    │   └── InventoryError  an S3 Inventory report cannot be trusted (the run lists instead)
    ├── RefusedError        a file sitemill will not read: outside its root, not regular, too big
    │   └── TooLargeError   larger than it is read whole (its head may tell enough)
    ├── InflateError        gzip data that is no gzip, is cut off, or inflates past its bound
    ├── SinkError           an output cannot be written, replaced or deleted
    │   └── ConflictError   another writer changed an output during this run
    ├── TemplateError       a template is missing, broken or renders invalid output
    ├── StateError          a remembered state cannot be used (a warning: a first run)
    ├── FetchError          an http(s) download passed a bound: its deadline, its size
    ├── GitError            git failed or gave history that cannot be used
    ├── IncompleteRunError  a distributed rebuild whose shards did not all report
    ├── DiffError           a change report with no state to compare with
    ├── MissingExtraError   an optional extra (boto3, lxml) is not installed
    └── UsageError          a command line that names something wrong (exit 2, as argparse's)

A problem with a single page is not an error: it is counted and reported as a skip. Three
signals that never reach a user as such subclass SitemillError where they are raised:
sitemill.validate.violation.DocumentStop (one document checked no further: one violation),
sitemill.scaleout._shardworker.FullRebuildNeeded (the router runs a full rebuild instead) and
sitemill.aws._logs.RedactedError (an error raised again with its secret redacted).
"""

from __future__ import annotations

import os
from typing import Final


class SitemillError(Exception):
    """Base class: every failure sitemill reports to a user is one of these."""


class ConfigError(SitemillError):
    """A configuration value is invalid; ``key`` names it in its file spelling."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class SourceError(SitemillError):
    """The input (site tree, URL list, bucket listing) cannot be read or parsed."""


class NoPagesError(SourceError):
    """Nothing to list: no page passed include, exclude and the rules (nothing written)."""


class SinkError(SitemillError):
    """An output file or object cannot be written, replaced or deleted."""


class ConflictError(SinkError):
    """Another writer replaced or created an output after this run read it: list and redo."""


class TemplateError(SitemillError):
    """A template is missing, fails to render, or produces output over a limit."""


class StateError(SitemillError, ValueError):
    """A remembered state that cannot be used: a warning and a first run, never a failure."""


class FetchError(SitemillError):
    """An http(s) download passed a bound (its deadline, its size) or was cut off."""


class GitError(SitemillError):
    """git is missing, failed, or its history cannot be used for lastmod."""


class GlobSyntaxError(SitemillError, ValueError):
    """A glob pattern that cannot be compiled; config turns it into a ConfigError naming the key."""


class EventError(SourceError):
    """An event (or one SQS message) that the Lambda cannot read."""


class InventoryError(SourceError):
    """An S3 Inventory report that cannot be trusted (none, tampered, incomplete, malformed):
    the run falls back to listing the bucket."""


class IncompleteRunError(SitemillError):
    """A distributed rebuild whose shards did not all report: the reducer publishes nothing."""


class DiffError(SitemillError):
    """A change report (sitemill diff) that has no state to compare with."""


class RefusedError(SitemillError, ValueError):
    """A file sitemill will not read; ``reason`` completes the sentence "<path> ...".

    It leads outside its root (or into a hidden path), it is not a regular file, or it holds
    more than the caller allows.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"{os.fspath(path)} {reason}")
        self.path = os.fspath(path)
        self.reason = reason


class TooLargeError(RefusedError):
    """A file that holds more than the caller reads whole (the file may be fine: only its
    head is read, where that tells enough)."""


class InflateError(SitemillError):
    """gzip data that is no gzip, is cut off, or would inflate past the bound it is read to
    (a few MB may inflate to gigabytes): sitemill.bounded.inflate. ``kind`` says which:
    "too big", "not gzip" or "cut off"."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class MissingExtraError(SitemillError):
    """An optional extra is not installed; the message says what to install."""


# The extras of pyproject.toml (tests/core/test_messages.py holds them equal): what each holds.
EXTRAS: Final = {"s3": "boto3>=1.34", "validate": "lxml>=5.0"}


def install_hint(extra: str) -> str:
    """How to install an extra while sitemill is on no package index (``sitemill[s3]`` would
    not be found): the package it holds, or the extra from a checkout of sitemill."""
    checkout = f"in a sitemill checkout: pip install -e '.[{extra}]'"
    return f"pip install '{EXTRAS[extra]}' (the {extra} extra; {checkout})"


class UsageError(SitemillError):
    """A command line that names something wrong: a SITE_DIR that is a file, an --out inside
    SITE_DIR (the CLI exits 2 for it, as for a flag argparse refuses or a ConfigError)."""

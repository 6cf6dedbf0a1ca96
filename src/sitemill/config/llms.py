"""The llms.txt settings' values: whether llms.txt is written, and over a user's or not."""

from __future__ import annotations

from enum import Enum
from typing import Final, Protocol

from sitemill.config.values import parse_enum_or_bool
from sitemill.errors import ConfigError

# llms-full.txt's default byte limit: the sitemaps' own (max_bytes), a size an agent reads whole.
DEFAULT_LLMS_FULL_BYTES: Final = 10 * 1024 * 1024
MIN_LLMS_FULL_BYTES: Final = 64 * 1024
MAX_LLMS_FULL_BYTES: Final = 64 * 1024 * 1024  # (filenames.outputs.MAX_LLMS_TXT_BYTES)


class LlmsMode(Enum):
    """Whether a run writes llms.txt (sitemill.llms); true is "on"."""

    OFF = "off"
    ON = "on"  # written; an llms.txt that sitemill did not write stays the user's
    REPLACE = "replace"  # written over an llms.txt sitemill did not write (said once)


# off, on or replace; a boolean too (true: on).
parse_llms_mode: Final = parse_enum_or_bool(LlmsMode.ON, LlmsMode.OFF)


class LlmsSettings(Protocol):
    @property
    def llms_txt(self) -> LlmsMode: ...
    @property
    def llms_full(self) -> bool: ...
    @property
    def llms_pages(self) -> bool: ...


def writes_llms(config: LlmsSettings) -> bool:
    """Whether a run writes any of llms.txt, llms-full.txt and the Markdown twins."""
    return config.llms_txt is not LlmsMode.OFF or config.llms_full or config.llms_pages


def refuse_llms(config: LlmsSettings) -> None:
    """llms.txt and its kin are made of pages' heads and content, which a URL list has not: a
    ConfigError naming the key set, before anything is written."""
    for key, on in (
        ("llms_txt", config.llms_txt is not LlmsMode.OFF),
        ("llms_full", config.llms_full),
        ("llms_pages", config.llms_pages),
    ):
        if on:
            raise ConfigError(
                key, "is for a site folder or a bucket: a URL list holds no page to read"
            )

"""The record a build with llms_txt on keeps: its state's digests name each llms file it wrote
(name -> MD5 of the bytes), as they name the sitemap files. Until every build writes them, a
test gives a built site's state those digests as it is read."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import pytest

import sitemill.state.parse as state_parse
from sitemill.state.model import State


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def keep_llms_digests(
    monkeypatch: pytest.MonkeyPatch, files: Mapping[str, bytes], *, only: bool = False
) -> None:
    """Every state read from now on has the digests of ``files`` (llms file name -> bytes)
    among its digests (``only``: as its only digests)."""
    parse = state_parse.parse_state

    def parsed(data: bytes, *args: object, **kwargs: object) -> State:
        state = parse(data, *args, **kwargs)  # type: ignore[arg-type]
        kept = {} if only else state.digests
        state.digests = {**kept, **{name: md5(body) for name, body in files.items()}}
        return state

    monkeypatch.setattr(state_parse, "parse_state", parsed)

"""The record a build with llms_txt on keeps: its state names each llms file it wrote (name ->
MD5 of the bytes, State.llms). A test gives a site built without llms files that record as its
state is read, to check what check asks of files it serves by hand."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import pytest

import sitemill.state.parse as state_parse
from sitemill.state.model import State


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def keep_llms_digests(monkeypatch: pytest.MonkeyPatch, files: Mapping[str, bytes]) -> None:
    """Every state read from now on records ``files`` (llms file name -> bytes) as written."""
    parse = state_parse.parse_state

    def parsed(data: bytes, *args: object, **kwargs: object) -> State:
        state = parse(data, *args, **kwargs)  # type: ignore[arg-type]
        state.llms = {name: md5(body) for name, body in files.items()}
        return state

    monkeypatch.setattr(state_parse, "parse_state", parsed)

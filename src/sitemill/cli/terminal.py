"""What the CLI writes to the terminal, in one place: each line shown (messages.shown)."""

from __future__ import annotations

from typing import TextIO

from sitemill.messages import shown


def say(stream: TextIO, line: str) -> None:
    """Write ``line`` and a newline to ``stream``, as every line of the CLI is written: what
    it quotes (file names, keys, URLs, argv) with no secret and no character that steers a
    terminal (an OSC 52 clipboard write, a screen clear, a link): a line break in a name is
    written ``\\x0a``, so that nothing it holds can start a line of its own."""
    stream.write(f"{shown(line)}\n")


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of white space as single spaces (a message of
    several lines, an OSError's): one line, as an error is shown."""
    return " ".join(text.split()) if "\n" in text else text

"""Check an llms.txt (llmstxt.org) against the format its reference parser and CommonMark read."""

# llmstxt.org's grammar as the reference parser (llms-txt's miniparse) reads it: what it cannot
# read is an error (a reader using it stops or loses a section: a non-item line in a section, a
# "*" bullet, a "]" in a title, a ")" in a URL, CR, a BOM, no text before the first section); what
# it reads wrongly is a warning. Patterns run in linear time; a file above MAX_LLMS_TXT_BYTES
# (sitemill.filenames) is not read.

from __future__ import annotations

import re
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from sitemill.filenames.outputs import LLMS_TXT, MAX_LLMS_TXT_BYTES
from sitemill.validate.document import MAX_ERRORS
from sitemill.validate.limits import NOT_FURTHER
from sitemill.validate.violation import Violation, short, warning

# llmstxt.org sets no limit; sitemill's own files are read up to MAX_LLMS_TXT_BYTES (64 MiB).
BOM: Final = b"\xef\xbb\xbf"
_HEADING: Final = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*)|$)")
_BARE_HASHES: Final = re.compile(r"#{1,6}[^# \t]")
_ITEM: Final = re.compile(r"- \[(?P<title>[^\]]+)\]\((?P<url>[^()\s]+)\)(?P<rest>.*)")
_OTHER_BULLET: Final = re.compile(r" {0,3}[*+][ \t]")
_SETEXT: Final = re.compile(r" {0,3}(?:=+|-+)[ \t]*")
PARSER: Final = "the reference parser (llms-txt)"


def llms_txt_files(directory: Path) -> list[Path]:
    """A directory's llms.txt and those one folder down (a language's, as /fr/llms.txt)."""
    found = [directory / LLMS_TXT] if (directory / LLMS_TXT).is_file() else []
    return found + sorted(path for path in directory.glob(f"*/{LLMS_TXT}") if path.is_file())


def check_llms_txt_file(path: Path, file: str) -> list[Violation]:
    """Every format violation of the llms.txt at ``path`` (reported as ``file``)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_LLMS_TXT_BYTES + 1)
    except OSError as exc:
        return [Violation(file, None, f"cannot read the file: {exc}")]
    return check_llms_txt(data, file)


def check_llms_txt(data: bytes, file: str) -> list[Violation]:
    """Every format violation of one llms.txt's bytes, one a line, at most about MAX_ERRORS."""
    if len(data) > MAX_LLMS_TXT_BYTES:
        return [Violation(file, None, f"more than {MAX_LLMS_TXT_BYTES:,} bytes; {NOT_FURTHER}")]
    found: list[Violation] = []
    if data.startswith(BOM):
        found.append(
            Violation(file, 1, f"starts with a byte-order mark, which {PARSER} cannot read")
        )
        data = data[len(BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return [*found, Violation(file, line, f"not UTF-8; {NOT_FURTHER}")]
    if (cr := text.find("\r")) >= 0:
        line = text.count("\n", 0, cr) + 1
        message = f"CR line endings (CRLF), which {PARSER} cannot read; write LF"
        found.append(Violation(file, line, message))
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    _Reader(file, found).read(text.split("\n"))
    return found


class _Reader:
    """Reads the lines in order: the head (H1, summary, paragraphs), then "## " sections."""

    def __init__(self, file: str, found: list[Violation]) -> None:
        self.file = file
        self.found = found
        self.errors = 0
        self.section: tuple[str, int] | None = None  # the open section's name and line
        self.items = 0
        self.names: dict[str, int] = {}  # section name → the line that first gave it
        self.summary = 0  # the line of the "> " summary (0: none)
        self.info = False  # a paragraph after the head
        self.previous = ""

    def error(self, line: int, message: str) -> None:
        self.errors += 1
        if self.errors <= MAX_ERRORS:
            self.found.append(Violation(self.file, line, message))
        elif self.errors == MAX_ERRORS + 1:
            self.found.append(Violation(self.file, None, f"more errors; {NOT_FURTHER}"))

    def read(self, lines: list[str]) -> None:
        first = lines[0]
        heading = _HEADING.match(first)
        if heading is None or len(heading.group(1)) != 1 or not (heading.group(2) or "").strip():
            self.error(1, "no H1 first: an llms.txt starts with '# ' and the site's name")
        for number, line in enumerate(lines[1:], start=2):
            if self.errors > MAX_ERRORS:
                return
            self.line(number, line)
        self.close_section()

    def line(self, number: int, line: str) -> None:
        heading = _HEADING.match(line)
        if heading is not None:
            self.heading(number, len(heading.group(1)), (heading.group(2) or "").strip())
        elif line.startswith("##") and _BARE_HASHES.match(line):
            self.error(
                number, f"'#' with no space after: {PARSER} reads a section, CommonMark text"
            )
        elif self.section is None:
            self.head(number, line)
        elif line.strip():
            self.item(number, line)
        self.previous = line

    def heading(self, number: int, level: int, name: str) -> None:
        if level == 1:
            self.error(number, "a second H1: an llms.txt has one, the site's name")
        elif level > 2:
            message = f"a level-{level} heading: only '# ' and '## ' headings belong in an llms.txt"
            self.error(number, f"{message} ({PARSER} reads '### x' as a section '# x')")
        else:
            self.open_section(number, name)

    def head(self, number: int, line: str) -> None:
        if not line.strip():
            return
        after_text = self.previous.strip() and not self.previous.startswith((">", "#"))
        if _SETEXT.fullmatch(line) and after_text:
            self.error(number, "a setext heading (a line of '=' or '-' under text)")
        elif line.startswith(">"):
            if self.summary and self.previous.startswith(">"):
                message = f"the summary goes on over more lines; {PARSER} reads only the first"
                self.found.append(warning(self.file, number, message))
            self.summary = self.summary or number
        else:
            self.info = True

    def open_section(self, number: int, name: str) -> None:
        if self.section is None:
            self.before_sections(number)
        self.close_section()
        if not name:
            self.error(number, "a '## ' section with no name")
        elif name in self.names:
            message = f"section {short(name)!r} again (first on line {self.names[name]})"
            self.error(number, f"{message}: {PARSER} keeps only the last")
        else:
            self.names[name] = number
        self.section = (name, number)
        self.items = 0

    def before_sections(self, number: int) -> None:
        if not self.info and not self.summary:
            message = f"no summary or paragraph before the first section: {PARSER} cannot read it"
            self.error(number, message)
        elif not self.info:
            message = f"a summary and no paragraph after it: {PARSER} reads it as the info text"
            self.found.append(warning(self.file, self.summary, message))

    def close_section(self) -> None:
        if self.section is not None and not self.items:
            name, number = self.section
            self.found.append(warning(self.file, number, f"section {short(name)!r} holds no link"))

    def item(self, number: int, line: str) -> None:
        match = _ITEM.fullmatch(line)
        if match is None:
            self.error(number, _not_an_item(line))
            return
        self.items += 1
        rest = match.group("rest")
        if rest and not rest.startswith(":"):
            self.error(number, "text after an item's link must follow ': '")
        if not _is_web_url(match.group("url")):
            self.error(number, f"link {short(match.group('url'))!r} is not an absolute http(s) URL")


def _not_an_item(line: str) -> str:
    """What is wrong with a line in a section that is no "- [title](url)" item."""
    if _OTHER_BULLET.match(line):
        return f"a '*' or '+' bullet: {PARSER} reads only '- ' items"
    if not line.startswith("- "):
        return (
            f"a line in a '## ' section that is not a '- [title](url)' item: {PARSER} stops on it"
        )
    if not line.startswith("- ["):
        return "an item without a link"
    if line.startswith("- []"):
        return "an item whose link has no title"
    return (
        f"an item whose link {PARSER} cannot read: a ']' in the title or a '(', ')' or space in "
        "the URL (write &#93; and %28, %29, %20)"
    )


def _is_web_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed IPv6 host
        return False
    return parts.scheme in {"http", "https"} and bool(parts.hostname)

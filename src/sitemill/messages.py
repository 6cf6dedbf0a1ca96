"""Messages as sitemill shows them: no secret a URL carries, no character that steers a reader."""
# No character that steers a terminal, a log viewer or the reading order.
#
# A message quotes values sitemill was handed: hrefs from pages, keys, URLs from the configuration.
# Before one reaches a terminal, a workflow log, a job summary or CloudWatch, ``shown`` hides the
# user info of any URL (``https://***@host/``) and the values of query parameters that carry
# credentials (``X-Amz-Signature=***``, ``token=***``), and writes every control character (C0, DEL,
# C1), line separator and bidirectional control as an escape (``\x1b``, ``\u202e``): a page cannot
# forge a ``sitemill: error:`` line, colour a log or turn text around.

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Final, Generic, TypeVar

# A URL's user info, as urlsplit reads it: up to the last "@" of the authority (a password
# may hold "@"). A password holding "/", "?" or "#" ends the authority early for urlsplit, which
# then reads "user:pa" as a host and a port that is no number (``https://u:pa/ss@host/``,
# ``https://KEY:SECRET``): such an authority is hidden up to the token's last "@", or whole.
# A user name and password with no "//" before them (``KEY:SECRET@host``) go the same way,
# but an address (``mailto:someone@example.com``).
_UNQUOTED: Final = r"[^\s'\"<>`]"
_USERINFO: Final = re.compile(
    rf"(?<=//)(?:[^/?#\s'\"<>`]*@|(?!\[)[^/?#@:\s'\"<>`]*:(?![0-9]*(?:[/?#\s'\"<>`),.;:!\]]|$))"
    rf"(?:{_UNQUOTED}*@|[^/?#\s'\"<>`]*))"
    rf"|(?<![^\s'\"<>`=(\[])(?!mailto:)[\w.%+~-]+:[^\s/?#@'\"<>`]+@"
)
# Query parameters (any spelling of their case) whose value is a credential or signs one.
_SECRET_PARAMETER: Final = re.compile(
    r"(?i)(?<=[?&;])("
    r"[\w.-]*(?:token|signature|secret|password|passwd|credential|api[-_]?key|auth|session)"
    r"[\w.-]*|sig|key|pwd|code|jwt)=(?:[^&#;:\s\"'<>]|:(?![\s]|$))*"
)
_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)


# Values that no message may show, whatever quotes them (an IndexNow key: register_secret).
_SECRETS: set[str] = set()
_MIN_SECRET: Final = 8


def register_secret(value: str) -> None:
    """From now on ``redact`` shows ``value`` (8 characters or more) as ``***`` wherever."""
    if len(value) >= _MIN_SECRET:
        _SECRETS.add(value)


def redact(text: str) -> str:
    """``text`` with the user info of URLs, the values of secret parameters and every
    registered secret as ``***``."""
    for secret in _SECRETS:
        if secret in text:
            text = text.replace(secret, "***")
    return _SECRET_PARAMETER.sub(r"\1=***", _USERINFO.sub(_hidden, text))


def _hidden(match: re.Match[str]) -> str:
    return "***@" if match[0].endswith("@") else "***"


def printable(text: str) -> str:
    """``text`` with control, separator and bidirectional characters as escapes."""
    return _UNSAFE.sub(_escape, text)


def shown(text: str) -> str:
    """A message as sitemill shows it anywhere: redacted, then printable."""
    return printable(redact(text))


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 file``, ``3 files``, ``1,204 commits``: a count and its noun, singular for one."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


_K = TypeVar("_K")


@dataclass
class KindCounts(Generic[_K]):
    """How many of each kind a run met, with the first example of each: one message line per
    kind, however many there were (a link farm can hold thousands)."""

    counts: Counter[_K] = field(default_factory=Counter)
    examples: dict[_K, str] = field(default_factory=dict)

    def count(self, kind: _K, example: str) -> None:
        self.counts[kind] += 1
        self.examples.setdefault(kind, example)

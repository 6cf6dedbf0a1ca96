"""A `_redirects` file (Netlify and Cloudflare Pages: `from to [status][!]`) read, bounded.

https://docs.netlify.com/routing/redirects/ and
https://developers.cloudflare.com/pages/configuration/redirects/
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from sitemill.redirects._paths import url_text
from sitemill.redirects._rules import RedirectRule, RedirectRules
from sitemill.urls import path_key

# Netlify sets no small cap on `_redirects` (it advises a few thousand rules for speed):
# sitemill reads at most this much of one and says how many rules it left unread.
MAX_FILE_BYTES: Final = 4 * 1024 * 1024
MAX_RULES: Final = 100_000
MAX_DYNAMIC_RULES: Final = 2_000  # each one is tried for each path asked: bounded apart
MAX_LINE_CHARS: Final = 4_096
MAX_PATH_CHARS: Final = 2_048  # as a sitemap's URL
# Cloudflare Pages reads at most 2,000 static and 100 dynamic rules.
CLOUDFLARE_STATIC_RULES: Final = 2_000
CLOUDFLARE_DYNAMIC_RULES: Final = 100

# What separates words: JavaScript's \s, as Netlify's own parser splits a line.
_BLANKS: Final = re.compile(
    "[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)
_LEADING_DIGITS: Final = re.compile(r"[0-9]{1,9}")
_NOT_CONDITIONS: Final = frozenset({"Sign", "signed"})  # a proxy's signature, not a condition
_PLACEHOLDER: Final = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")
_SEGMENT_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one host reads of a `_redirects` file: how many rules, the status by default."""

    static_rules: int
    dynamic_rules: int  # with placeholders or a splat
    default_status: int


NETLIFY: Final = Dialect(MAX_RULES, MAX_DYNAMIC_RULES, 301)
# Cloudflare Pages: at most 2,000 static and 100 dynamic rules, and 302 by default.
# https://developers.cloudflare.com/pages/configuration/redirects/
CLOUDFLARE: Final = Dialect(CLOUDFLARE_STATIC_RULES, CLOUDFLARE_DYNAMIC_RULES, 302)


def rule_path(path: str) -> str:
    """A path as rules compare it: encoded in one spelling, no trailing "/" (Netlify matches
    "/a" and "/a/" alike)."""
    key = path_key(url_text(path))
    return key.rstrip("/") or "/"


@dataclass(frozen=True, slots=True)
class PatternRule:
    """A rule whose `from` holds `:name` segments or one splat `*`."""

    pattern: re.Pattern[str]
    target: str
    status: int

    def target_of(self, path: str) -> tuple[str, int] | None:
        match = self.pattern.fullmatch(path) if len(path) <= MAX_PATH_CHARS else None
        if match is None:
            return None
        values = {name: value or "" for name, value in match.groupdict().items()}

        def fill(placeholder: re.Match[str]) -> str:
            return values.get(placeholder.group(1), placeholder.group(0))

        return _PLACEHOLDER.sub(fill, self.target), self.status

    @property
    def many_to_one(self) -> bool:
        return _PLACEHOLDER.search(self.target) is None


def compile_from(source: str) -> re.Pattern[str] | None:
    """The pattern of a `from` path with placeholders or a splat (every literal escaped: no
    user text is a regular expression; one splat, placeholders whole segments, so matching is
    linear); None when it holds more than one splat."""
    if source.count("*") > 1:
        return None
    parts = []
    segments = source.rstrip("/").split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment.startswith(":") and _SEGMENT_NAME.fullmatch(segment[1:]):
            parts.append(f"(?P<{segment[1:]}>[^/]+)" if segment[1:] != "splat" else "([^/]+)")
        elif segment == "*" and last and index:
            parts[-1] += "(?:/(?P<splat>.*))?"
            continue
        else:
            head, star, tail = segment.partition("*")
            splat = "(?P<splat>.*)" if star else ""
            parts.append(re.escape(head) + splat + re.escape(tail))
    try:
        return re.compile("/".join(parts) or "/")
    except re.error:  # a placeholder name twice
        return None


@dataclass
class RuleReading:
    """The rules read so far (a `_redirects` file's, a netlify.toml's) and what was left."""

    exact: dict[str, tuple[int, str, int]] = field(default_factory=dict)
    rules: list[tuple[int, RedirectRule]] = field(default_factory=list)
    ignored: int = 0
    invalid: int = 0
    truncated: int = 0

    def rules_read(self) -> RedirectRules:
        """The rules, to ask paths of."""
        return RedirectRules(
            self.rules,
            exact=self.exact,
            normalize=rule_path,
            ignored=self.ignored,
            invalid=self.invalid,
            truncated=self.truncated,
        )


def parse_redirects_file(data: bytes, *, cloudflare: bool = False) -> RedirectRules:
    """The rules of a `_redirects` file, in order, at most MAX_FILE_BYTES and MAX_RULES
    (MAX_DYNAMIC_RULES with placeholders or a splat; with ``cloudflare``, Cloudflare
    Pages' caps and its default status, 302). Comments and blank lines are skipped; rules
    on a query, a country, a language, a role or a cookie, and rules of another host,
    never match a plain path: counted as ignored. Status 200 is a rewrite (the path is
    served), 404 a custom page."""
    reading = RuleReading()
    text = data[:MAX_FILE_BYTES].decode("utf-8", "replace").removeprefix("\ufeff")
    lines = [line.removesuffix("\r") for line in text.split("\n")]  # no other line break
    if len(data) > MAX_FILE_BYTES and lines:
        lines.pop()  # cut inside it
        reading.truncated += 1 + data[MAX_FILE_BYTES:].count(b"\n")
    host = CLOUDFLARE if cloudflare else NETLIFY
    for order, line in enumerate(lines):
        _read_line(reading, order, line, host)
    return reading.rules_read()


def _read_line(reading: RuleReading, order: int, line: str, host: Dialect) -> None:
    """One line as Netlify's own parser reads it: `from [query...] to [status[!]]
    [conditions...]`, where `to` is the first word that starts with "/", "http://" or
    "https://" and every word before it is a query condition; `from status` alone is a
    forward rule (`/a/* 200`: to `/a/:splat`)."""
    words = _words(line)
    if not words:
        return
    if len(line) > MAX_LINE_CHARS or len(words) < 2:
        reading.invalid += 1
        return
    source, parts = words[0], words[1:]
    if leading_int(parts[0]) is not None:
        query, target, options = [], forward_target(source, leading_int(parts[0])), parts
    else:
        at = next((index for index, word in enumerate(parts) if _is_target(word)), None)
        if at is None:
            reading.invalid += 1
            return
        query, target, options = parts[:at], parts[at], parts[at + 1 :]
    status = leading_int(options[0]) if options else host.default_status
    conditions = [word for word in options[1:] if word.split("=")[0] not in _NOT_CONDITIONS]
    if target is None or status is None:
        reading.invalid += 1
    elif query or conditions or not source.startswith("/"):
        reading.ignored += 1
    else:
        add_rule(reading, order, source, target, status, host)


def leading_int(word: str) -> int | None:
    """The status a word gives, as Netlify reads it (JavaScript's parseInt: "301!" is 301)."""
    digits = _LEADING_DIGITS.match(word)
    return int(digits.group()) if digits else None


def forward_target(source: str, status: int | None) -> str | None:
    """A rule without `to`: only `/a/*` with a 2xx status, to `/a/:splat`; else None."""
    if status is None or not 200 <= status < 300 or not source.endswith("/*"):
        return None
    return source[:-2] + "/:splat"


def _words(line: str) -> list[str]:
    """The words of a rule line, up to a word that starts a comment."""
    words = [word for word in _BLANKS.split(line) if word]
    for index, word in enumerate(words):
        if word.startswith("#"):
            return words[:index]
    return words


def _is_target(word: str) -> bool:
    return word.startswith(("/", "http://", "https://"))


def add_rule(
    reading: RuleReading, order: int, source: str, target: str, status: int, host: Dialect
) -> None:
    if len(source) > MAX_PATH_CHARS or len(target) > MAX_LINE_CHARS:
        reading.invalid += 1
        return
    dynamic = "*" in source or ":" in source
    if dynamic:
        if len(reading.rules) >= host.dynamic_rules:
            reading.truncated += 1
            return
        pattern = compile_from(rule_path(source))
        if pattern is None:
            reading.invalid += 1
            return
        reading.rules.append((order, PatternRule(pattern, target, status)))
    elif len(reading.exact) >= host.static_rules:
        reading.truncated += 1
    else:
        reading.exact.setdefault(rule_path(source), (order, target, status))


# The `[[redirects]]` of a netlify.toml, read as Netlify reads them after `_redirects`.
def parse_netlify_toml(data: bytes) -> RedirectRules:
    """The redirects of a netlify.toml (its `[[redirects]]` tables, in order), bounded as a
    `_redirects` file is: `from`, `to`, `status` (301), `force`; a rule with a `query` or
    `conditions` never matches a plain path (ignored); a table of the wrong shape is invalid.
    A file that is no TOML, past MAX_FILE_BYTES or nested past what tomllib's recursion
    takes, gives no rules and one invalid."""
    reading = RuleReading()
    try:
        if len(data) > MAX_FILE_BYTES:
            raise ValueError("too big")
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # TOMLDecodeError: a ValueError
        reading.invalid += 1
        return reading.rules_read()
    tables = document.get("redirects", [])
    if not isinstance(tables, list):
        reading.invalid += 1
        return reading.rules_read()
    for order, table in enumerate(tables):
        _read_table(reading, order, table)
    return reading.rules_read()


def _read_table(reading: RuleReading, order: int, table: Any) -> None:
    if not isinstance(table, Mapping):
        reading.invalid += 1
        return
    # Netlify's parser still takes the old names: origin, destination, params, parameters.
    source = table.get("from", table.get("origin"))
    status = table.get("status", 301)
    target = table.get("to", table.get("destination"))
    if target is None and isinstance(source, str) and _is_status(status):
        target = forward_target(source, status)  # `from = "/a/*"`, status 200: to /a/:splat
    if not isinstance(source, str) or not isinstance(target, str) or not _is_status(status):
        reading.invalid += 1
        return
    query = table.get("query", table.get("params", table.get("parameters")))
    if query or table.get("conditions") or not source.startswith("/"):
        reading.ignored += 1
        return
    add_rule(reading, order, source, target, status, NETLIFY)


def _is_status(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599

"""Read a site's robots.txt rules for all crawlers, as Google's parser and RFC 9309 do."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Final

# Parsing and matching follow RFC 9309 (https://www.rfc-editor.org/rfc/rfc9309) as Google reads
# it: https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt and its
# open-source parser, https://github.com/google/robotstxt/blob/master/robots.cc ("production
# code used by Googlebot"). tests/robots/test_robots_google.py checks the decisions against the
# Python binding of a fork of it, fast-robotstxt (https://github.com/nzrsky/robotstxt).
#
# Paths and patterns are compared in RFC 9309's form (section 2.2.2): escapes of unreserved
# characters decoded ("%7E" is "~"), other escapes kept, with upper-case hex, and what a URL
# cannot hold raw (non-ASCII as UTF-8, controls, space, '"<>[\]^`{|}', a "%" that starts no
# escape) percent-encoded. Where the parsers and the RFC part ways:
# - google/robotstxt compares escapes as written, so its "Disallow: /%7Euser" does not match
#   "/~user". The RFC says it MUST ("If a percent-encoded ASCII octet is encountered in the URI,
#   it MUST be unencoded prior to comparison"), fast-robotstxt agrees, and sitemill follows them.
#   sitemill writes unreserved characters raw, so next to Googlebot this can only leave pages
#   out of a sitemap, never list one it may not fetch.
# - fast-robotstxt decodes *every* escape, so "%2F" matches "/" and "%3F" matches "?". The RFC
#   keeps escaped reserved characters apart from raw ones ("unless it is a reserved character"),
#   and so does google/robotstxt: "/a%2Fb" is one path segment and "/a/b" two, and a file named
#   "a?b" is served at "/a%3Fb", which "Disallow: /a?" does not name. sitemill follows the RFC
#   and Googlebot.
# - fast-robotstxt reads the URL with a WHATWG parser whose query getter drops an empty query, so
#   it takes "/page?" for "/page". RFC 3986 and google/robotstxt keep the "?" (it is another URI,
#   and "Disallow: /page$" does not name it); sitemill does too.
# - fast-robotstxt rewrites a raw "*" or "$" in the URL as "%2A" or "%24" before matching, and a
#   wildcard then matches the letters in that escape: its "Disallow: /*A" matches "/?q=*". The RFC
#   and google/robotstxt compare the URL as it is; sitemill does too.
# - "The /robots.txt URI is implicitly allowed" (RFC 9309 section 2.2.2); neither parser says
#   so, since a crawler reads robots.txt before it asks robots.txt anything. sitemill follows
#   the RFC.
# The differential test tolerates a disagreement only on inputs of these last four kinds.

# "Google enforces a robots.txt file size limit of 500 kibibytes"; what follows is ignored.
MAX_ROBOTS_TXT_BYTES: Final = 500 * 1024
# Google's parser reads at most this many bytes of a line and ignores the rest of it (robots.cc:
# "kBrowserMaxLineLen * 8", less the C string's final NUL).
MAX_ROBOTS_LINE_BYTES: Final = 2083 * 8 - 1

_LINE_END: Final = re.compile(r"\r\n|\r|\n")
# Google's parser accepts these spellings (and anything starting with them) as field names.
_USER_AGENT_KEYS: Final = ("user-agent", "useragent", "user agent")
_DISALLOW_KEYS: Final = ("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw")
# ASCII whitespace, as absl::StripAsciiWhitespace and C's isspace() see it: not str.strip()'s
# Unicode spaces (U+00A0 is part of a field name or value). Only space and tab separate words.
_SPACES: Final = " \t\n\r\x0b\x0c"
_WORD_BREAK: Final = re.compile("[ \t]+")
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
# An escape, or a character a URL path never holds raw: controls, space, non-ASCII, a "%" that
# starts no escape, and the rest of RFC 3986's excluded characters.
_ESCAPE_OR_UNSAFE: Final = re.compile(r'%[0-9A-Fa-f]{2}|[^\x21-\x7e]|[%"<>\[\\\]^`{|}]')
_NEEDS_NORMALISING: Final = re.compile(
    r'%(?![0-9A-F]{2})|%(?:3[0-9]|[46][1-9A-F]|[57][0-9A]|2[DE]|5F|7E)|[^\x21-\x7e]|["<>\[\\\]^`{|}]'
)
# What Google's parser changes in a pattern: lower-case escapes, and non-ASCII (UTF-8) bytes.
_GOOGLE_ESCAPE: Final = re.compile(r"%[0-9A-Fa-f]{2}|[^\x00-\x7f]")
_LOWER_CASE_ESCAPE: Final = re.compile(r"%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])")
_UNRESERVED: Final = frozenset(string.ascii_letters + string.digits + "-._~")


@dataclass(frozen=True)
class RobotsRule:
    """One Allow or Disallow line, as Google's parser keeps it, ready to match paths.

    ``pattern`` is the line's value with escapes' hex upper-cased and non-ASCII characters
    percent-encoded (UTF-8), as Google's parser stores it: its length is the rule's priority.
    It matches in RFC 9309's normal form (``normalise_path``), split at its "*" wildcards.
    """

    allow: bool
    pattern: str
    head: str = field(repr=False, compare=False)  # up to the first "*"
    middle: tuple[str, ...] = field(repr=False, compare=False)  # between "*"s (none empty)
    last: str | None = field(repr=False, compare=False)  # after the last "*"; None: no "*"
    anchored: bool = field(repr=False, compare=False)  # a final "$": the path ends there

    @classmethod
    def compile(cls, allow: bool, pattern: str) -> RobotsRule:
        anchored = pattern.endswith("$")  # "$" is special only at the very end
        pieces = normalise_path(pattern[:-1] if anchored else pattern).split("*")
        middle = tuple(piece for piece in pieces[1:-1] if piece)  # "**" is one "*"
        last = pieces[-1] if len(pieces) > 1 else None
        return cls(allow, pattern, pieces[0], middle, last, anchored)

    @property
    def priority(self) -> int:
        """The longest pattern that matches decides (RFC 9309 section 2.2.2), in Google's bytes."""
        return len(self.pattern)

    def matches(self, path: str) -> bool:
        """Whether the rule applies to ``path`` (in ``normalise_path`` form)."""
        if not path.startswith(self.head):
            return False
        if self.last is None:
            return not self.anchored or len(path) == len(self.head)
        # Each "*" takes the shortest run up to the next literal: the earliest place for every
        # literal leaves the most room for the rest, so this finds a match if there is one, in
        # linear time however many stars there are.
        at = len(self.head)
        for literal in self.middle:
            at = path.find(literal, at)
            if at < 0:
                return False
            at += len(literal)
        if self.anchored:
            return path.endswith(self.last) and len(path) - len(self.last) >= at
        return path.find(self.last, at) >= 0


@dataclass(frozen=True)
class RobotsRules:
    """The rules a robots.txt sets for every crawler (``User-agent: *``), highest priority first."""

    rules: tuple[RobotsRule, ...] = ()

    @classmethod
    def parse(cls, text: str) -> RobotsRules:
        """The rules of the ``User-agent: *`` groups of a robots.txt (all merged)."""
        if len(text) > MAX_ROBOTS_TXT_BYTES // 4:  # else even 4-byte characters cannot reach it
            raw = text.encode("utf-8", "surrogatepass")[:MAX_ROBOTS_TXT_BYTES]
            text = raw.decode("utf-8", "ignore")
        rules: list[RobotsRule] = []
        in_global_group = False
        # An Allow or Disallow line ends the run of user-agent lines naming a group. Other
        # records do not: "a 'Sitemaps' record MUST NOT terminate a group" (RFC 9309 section
        # 2.2.4), and Google's parser lets Crawl-delay and unknown fields pass the same way.
        group_has_rules = False
        for line in _LINE_END.split(text.removeprefix("\ufeff")):
            record = _split_record(line)
            if record is None:
                continue
            key, value = record
            if key.startswith(_USER_AGENT_KEYS):
                if group_has_rules:
                    in_global_group = group_has_rules = False
                in_global_group |= _names_every_crawler(value)
                continue
            is_allow = key.startswith("allow")
            if not in_global_group or not (is_allow or key.startswith(_DISALLOW_KEYS)):
                continue
            group_has_rules = True
            if value:  # an empty Disallow allows everything, an empty Allow is no rule either
                rules.extend(_rules_for(is_allow, value))
        # The highest priority decides; on a tie the Allow rule wins (RFC 9309 section 2.2.2).
        rules.sort(key=lambda rule: (-rule.priority, not rule.allow))
        return cls(tuple(rules))

    def allows(self, path: str) -> bool:
        """Whether crawlers may fetch ``path`` (percent-encoded, from the host root, with "/")."""
        rule = self.matching_rule(path)
        return rule is None or rule.allow

    def matching_rule(self, path: str) -> RobotsRule | None:
        """The rule that decides for ``path``, or None when no rule matches (allowed)."""
        path = normalise_path(path if path.startswith("/") else "/" + path)
        if path.partition("?")[0] == "/robots.txt":
            return None  # "The /robots.txt URI is implicitly allowed" (RFC 9309 section 2.2.2)
        return next((rule for rule in self.rules if rule.matches(path)), None)


def normalise_path(value: str) -> str:
    """A path or pattern in RFC 9309's form for comparing (section 2.2.2).

    Escapes of unreserved characters are decoded, other escapes get upper-case hex, and what a
    URL path cannot hold raw is percent-encoded (UTF-8); "*" and "$" are left as they are.
    """
    if _NEEDS_NORMALISING.search(value) is None:
        return value  # the usual path: ASCII, no lower-case or unreserved escapes
    return _ESCAPE_OR_UNSAFE.sub(_normal_escape, value)


def _normal_escape(found: re.Match[str]) -> str:
    text = found.group()
    if len(text) == 3:
        char = chr(int(text[1:], 16))
        return char if char in _UNRESERVED else text.upper()
    return _escape_char(text)


def _google_pattern(value: str) -> str:
    """A rule's value as Google's parser stores it (robots.cc, MaybeEscapePattern)."""
    if value.isascii() and _LOWER_CASE_ESCAPE.search(value) is None:
        return value
    return _GOOGLE_ESCAPE.sub(_google_escape, value)


def _google_escape(found: re.Match[str]) -> str:
    text = found.group()
    return text.upper() if len(text) == 3 else _escape_char(text)


def _escape_char(char: str) -> str:
    """%XX for each UTF-8 byte of ``char``; a surrogate escape stands for its one byte."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a character cut in two by the line length limit
        return f"%{code - 0xDC00:02X}"
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


def _rules_for(allow: bool, value: str) -> list[RobotsRule]:
    pattern = _google_pattern(value)
    rules = [RobotsRule.compile(allow, pattern)]
    # Google: "Allow: /dir/index.html" (or .htm) also allows "/dir/" (checked as it stores the
    # pattern, so "/dir/%69ndex.html" does not count).
    slash = pattern.rfind("/")
    if allow and slash >= 0 and pattern.startswith("/index.htm", slash):
        rules.append(RobotsRule.compile(True, pattern[: slash + 1] + "$"))
    return rules


def _names_every_crawler(agent: str) -> bool:
    # Google: a "*" followed by anything after a space still names every crawler.
    return agent[:1] == "*" and (len(agent) == 1 or agent[1] in _SPACES)


def _split_record(line: str) -> tuple[str, str] | None:
    """The field name (ASCII lower-cased) and the value of a robots.txt line, without comment."""
    if len(line) > MAX_ROBOTS_LINE_BYTES // 4:  # else even 4-byte characters cannot reach the limit
        data = line.encode("utf-8", "surrogatepass")
        if len(data) > MAX_ROBOTS_LINE_BYTES:
            # A character cut in two leaves bytes that are no UTF-8: surrogate escapes keep them.
            line = data[:MAX_ROBOTS_LINE_BYTES].decode("utf-8", "surrogateescape")
    line = line.partition("#")[0].strip(_SPACES)
    key, colon, value = line.partition(":")
    if not colon:
        # Google: a forgotten colon is read as a space ("Disallow /x"), if only two words remain.
        words = _WORD_BREAK.split(line)
        if len(words) != 2:
            return None
        key, value = words
    key = key.strip(_SPACES).translate(_ASCII_LOWER)
    return (key, value.strip(_SPACES)) if key else None

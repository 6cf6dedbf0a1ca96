"""Read a site's robots.txt rules for all crawlers, and keep its Sitemap lines up to date."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

# Parsing and matching follow RFC 9309 (https://www.rfc-editor.org/rfc/rfc9309) as Google reads
# it: https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt and its
# open-source parser, https://github.com/google/robotstxt/blob/master/robots.cc

# "Google enforces a robots.txt file size limit of 500 kibibytes"; what follows is ignored.
MAX_ROBOTS_TXT_BYTES: Final = 500 * 1024

_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_LINES_WITH_ENDS: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# Google's parser accepts these spellings (and anything starting with them) as field names.
_USER_AGENT_KEYS: Final = ("user-agent", "useragent", "user agent")
_DISALLOW_KEYS: Final = ("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw")
_SITEMAP_LINE: Final = re.compile(
    r"[ \t]*(?:sitemap|site-map)(?:[ \t]*:|[ \t])[ \t]*(?P<url>[^#]*?)[ \t]*(?:#.*)?", re.IGNORECASE
)
# An escape (normalised to upper-case hex), or a character a URL path never holds raw: controls,
# space, non-ASCII, a "%" that starts no escape, and the rest of RFC 3986's excluded characters.
_ESCAPE_OR_UNSAFE: Final = re.compile(r'%[0-9A-Fa-f]{2}|[^\x21-\x7e]|[%"<>\[\\\]^`{|}]')
_NEEDS_NORMALISING: Final = re.compile(r'%(?![0-9A-F]{2})|[^\x21-\x7e]|["<>\[\\\]^`{|}]')
_SPACES: Final = " \t"


@dataclass(frozen=True)
class RobotsRule:
    """One Allow or Disallow line, its pattern normalised and compiled."""

    allow: bool
    pattern: str
    regex: re.Pattern[str] = field(repr=False, compare=False)

    @classmethod
    def compile(cls, allow: bool, pattern: str) -> RobotsRule:
        return cls(allow, pattern, _pattern_regex(pattern))

    def matches(self, path: str) -> bool:
        return self.regex.match(path) is not None


@dataclass(frozen=True)
class RobotsRules:
    """The rules a robots.txt sets for every crawler (``User-agent: *``), longest first."""

    rules: tuple[RobotsRule, ...] = ()

    @classmethod
    def parse(cls, text: str) -> RobotsRules:
        """The rules of the ``User-agent: *`` groups of a robots.txt (all merged)."""
        if len(text) > MAX_ROBOTS_TXT_BYTES // 4:  # else even 4-byte characters cannot reach it
            raw = text.encode("utf-8", "surrogatepass")[:MAX_ROBOTS_TXT_BYTES]
            text = raw.decode("utf-8", "ignore")
        rules: list[RobotsRule] = []
        in_global_group = False
        # Any record but a user-agent line ends the run of user-agent lines naming a group.
        group_has_members = False
        for line in _LINE_END.split(text.removeprefix("\ufeff")):
            record = _split_record(line)
            if record is None:
                continue
            key, value = record
            if key.startswith(_USER_AGENT_KEYS):
                if group_has_members:
                    in_global_group = group_has_members = False
                # Google: a "*" followed by anything after a space still names every crawler.
                in_global_group |= value == "*" or value.startswith(("* ", "*\t"))
                continue
            group_has_members = True
            is_allow = key.startswith("allow")
            if not in_global_group or not value or not (is_allow or key.startswith(_DISALLOW_KEYS)):
                continue  # an empty Disallow allows everything; other fields are not rules
            pattern = normalise_path(value)
            rules.append(RobotsRule.compile(is_allow, pattern))
            # Google: "Allow: /dir/index.html" (or .htm) also allows "/dir/".
            slash = pattern.rfind("/")
            if is_allow and slash >= 0 and pattern.startswith("/index.htm", slash):
                rules.append(RobotsRule.compile(True, pattern[: slash + 1] + "$"))
        # The longest pattern decides; on a tie the Allow rule wins (RFC 9309 section 2.2.2).
        rules.sort(key=lambda rule: (-len(rule.pattern), not rule.allow))
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
    """Percent-encode (UTF-8) what a URL path cannot hold raw, and upper-case escapes' hex."""
    if _NEEDS_NORMALISING.search(value) is None:
        return value  # the usual path: ASCII, no lower-case escapes
    return _ESCAPE_OR_UNSAFE.sub(_escape, value)


def _escape(found: re.Match[str]) -> str:
    text = found.group()
    if len(text) == 3:
        return text.upper()
    return "".join(f"%{byte:02X}" for byte in text.encode("utf-8", "surrogatepass"))


def _split_record(line: str) -> tuple[str, str] | None:
    """The lower-cased field name and the value of a robots.txt line, without its comment."""
    line = line.partition("#")[0].strip(_SPACES)
    key, colon, value = line.partition(":")
    if not colon:
        # Google: a forgotten colon is read as a space ("Disallow /x"), if only two words remain.
        words = re.split("[ \t]+", line)
        if len(words) != 2:
            return None
        key, value = words
    key = key.strip(_SPACES).lower()
    return (key, value.strip(_SPACES)) if key else None


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A regex anchored at the path start: "*" is any run, a final "$" is the path end."""
    anchored = pattern.endswith("$")
    pieces = (pattern[:-1] if anchored else pattern).split("*")
    # Each "*" takes the shortest run up to the next literal, atomically: trying every split
    # could take exponential time on a pattern with many stars.
    body = re.escape(pieces[0]) + "".join(f"(?>.*?{re.escape(p)})" for p in pieces[1:-1])
    if len(pieces) > 1:
        last = re.escape(pieces[-1])
        body += f".*{last}\\Z" if anchored else f"(?>.*?{last})"
    elif anchored:
        body += r"\Z"
    return re.compile(body, re.DOTALL)


def replace_sitemap_lines(
    text: str | None, sitemap_urls: Sequence[str], is_own: Callable[[str], bool]
) -> str:
    """robots.txt with our Sitemap lines in place of the old ones; every other byte is kept.

    A ``Sitemap:`` line is ours when ``is_own(url)`` is true or its URL is in ``sitemap_urls``.
    The new lines go where the first of ours was, else at the end, and use the file's own
    line ending, so running this twice gives the same text.
    """
    urls = list(dict.fromkeys(sitemap_urls))
    wanted = set(urls)
    text = text or ""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text.removeprefix(bom)
    first_end = _LINE_END.search(text)
    newline = first_end.group() if first_end else "\n"

    kept: list[str] = []
    insert_at: int | None = None
    for line in _LINES_WITH_ENDS.findall(text):
        found = _SITEMAP_LINE.fullmatch(line.rstrip("\r\n"))
        url = found.group("url") if found else ""
        if url and (url in wanted or is_own(url)):
            insert_at = len(kept) if insert_at is None else insert_at
            continue
        kept.append(line)

    new_lines = [f"Sitemap: {url}{newline}" for url in urls]
    if insert_at is None:
        insert_at = len(kept)
        if kept and not kept[-1].endswith(("\n", "\r")) and new_lines:
            kept[-1] += newline
    elif insert_at == len(kept) and new_lines and not text.endswith(("\n", "\r")):
        # Ours were the file's last lines and it had no final line end: neither has the result.
        new_lines[-1] = new_lines[-1].removesuffix(newline)
    kept[insert_at:insert_at] = new_lines
    return bom + "".join(kept)

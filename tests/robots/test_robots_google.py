"""sitemill's robots.txt decisions against Google's parser, on adversarial files.

Google's parser here is fast-robotstxt: Python bindings of a fork of google/robotstxt. Where it
departs from RFC 9309 and google/robotstxt, robots.py says so, and so does this test.

The generator below is written once against a tiny `Choices` interface, so that hypothesis
drives it here (and shrinks what it finds) and `benchmarks/robots_agreement.py` drives it
with a seeded `random.Random` for its 20,000-case agreement rate.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

from hypothesis import event, given, settings
from hypothesis import strategies as st

from sitemill.robots.rules import RobotsRules
from sitemill.urls import encode_path, encode_uri_part

try:
    from robotstxt import RobotsMatcher
except ImportError as exc:  # a dev dependency: without it this module must fail, not skip
    raise ImportError(
        "fast-robotstxt (Google's parser) is missing: pip install -e '.[dev]'"
    ) from exc

T = TypeVar("T")

# A user-agent token no generated robots.txt names, so Google's parser falls back to the
# "User-agent: *" groups, which is what RobotsRules means by "every crawler".
PROBE_AGENT = "SitemillProbe"
# Google's parser takes a full URL and reads its path and query itself.
ORIGIN = "http://example.com"
# The longest line Google's parser reads, in bytes (robots.cc: 2083 * 8 less the final NUL).
LONGEST_LINE = 2083 * 8 - 1


class Choices(Protocol):
    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class RandomChoices:
    """Choices from a seeded random generator (the benchmark)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DrawnChoices:
    """Choices drawn by hypothesis (the test), which shrink towards the first option, low."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(options))

    def number(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))


def chance(choices: Choices, percent: int) -> bool:
    return choices.number(0, 99) >= 100 - percent  # shrinks to False


def some(choices: Choices, common: tuple[str, ...], odd: tuple[str, ...], odd_percent: int) -> str:
    """One of ``odd`` about ``odd_percent`` % of the time, else one of ``common`` (one draw)."""
    return choices.pick(_weighted(common, odd, odd_percent))


@functools.cache
def _weighted(common: tuple[str, ...], odd: tuple[str, ...], odd_percent: int) -> tuple[str, ...]:
    copies = max(1, round(len(odd) * (100 - odd_percent) / (odd_percent * len(common))))
    return common * copies + odd  # common ones first: hypothesis shrinks towards them


# --- Paths, as sitemill writes them: a site path encoded by urls.encode_path, and sometimes a
# query in RFC 3986 normal form (urls.encode_uri_part), as URL lists give them.
PATH_WORDS = ("a", "b", "ab", "fish", "user", "x", "index.html", "index.htm", "page.php", "A")
ODD_PATH_WORDS = (
    *("~", "-", "_", ".php", "é", "ツ", " ", "%", "%41", "robots.txt", "*", "$"),
    *(",", ":", "!", "'", "(", "+", "=", "&", ";", "@", "[", "?", "#", "\\", "^", "|", '"', "{"),
)
QUERY_WORDS = ("q=1", "a", "b=fish", "&", "=", "x", "~", "%7e", "%41")
ODD_QUERY_WORDS = (
    *("/", "%2F", "%2f", "*", "$", ",", ":", "?", "'", "%27", "%3A", "%2C"),
    *("é", "%C3%A9", " ", "%20", "[", "%zz", "%"),
)


def make_path(choices: Choices) -> str:
    segments = [
        "".join(some(choices, PATH_WORDS, ODD_PATH_WORDS, 15) for _ in range(choices.number(1, 3)))
        for _ in range(choices.number(0, 4))
    ]
    # No "." or ".." segments: sitemill resolves them (and no word makes one).
    path = encode_path("/" + "/".join(segments) + ("/" if chance(choices, 25) else ""))
    if chance(choices, 20):
        words = (
            some(choices, QUERY_WORDS, ODD_QUERY_WORDS, 30) for _ in range(choices.number(0, 4))
        )
        path += "?" + encode_uri_part("".join(words))
    return path


# --- robots.txt files: groups, odd spellings, separators, comments, line ends, a BOM.
AGENTS = ("*", "*", "bot", "Googlebot")
ODD_AGENTS = (
    *("* ", "*\textra", "* extra words", "*\x0bx", "*\x0cx", "*\u00a0x", "*bot", "**", "bot*"),
    *("", "googlebot-news", "Mozilla/5.0", "*/*", "* # every crawler"),
)
USER_AGENT_KEYS = ("User-agent", "user-agent")
ODD_USER_AGENT_KEYS = (
    *("USER-AGENT", "User-Agent", "useragent", "UserAgent", "User agent", "user-agents"),
    *("User_agent", "Uesr-agent", "User-agent\u00a0", "User-agentİ", "Agent"),
)
ALLOW_KEYS = ("Allow", "allow")
ODD_ALLOW_KEYS = ("ALLOW", "Allows", "allowed", "Alow", "Allow\u00a0", "A11ow")
DISALLOW_KEYS = ("Disallow", "disallow")
ODD_DISALLOW_KEYS = (
    *("DISALLOW", "Dissallow", "dissalow", "Disalow", "diasllow", "disallaw", "Disallows"),
    *("Dis-allow", "Disallow\u00a0", "disallow-x", "DİSALLOW", "Deny"),
)
SEPARATORS = (": ", ":", ": ")
ODD_SEPARATORS = (" : ", "\t:\t", " ", "\t", "  ", ":: ", ":\x0b", "\x0b: ", ":\u00a0")
INDENTS = ("",)
ODD_INDENTS = (" ", "\t", "  ", "\x0b", "\x0c", "\u00a0")
ENDINGS = ("",)
ODD_ENDINGS = (" ", "\t", " # comment", "#x", "\x0b", " \x0c", " \u00a0", "  # Disallow: /")
PATTERN_PIECES = (
    *("/", "/", "a", "b", "ab", "fish", "user", "x", "*", "*", "index.html", "index.htm"),
    *("page.php", ".php", "A"),
)
ODD_PATTERN_PIECES = (
    # RFC 9309 section 2.2.2: escapes of unreserved characters are those characters ...
    *("%7E", "%7e", "~", "%41", "%61", "%2D", "%5F", "%2E", "%30", "%33"),
    # ... escapes of others stay escapes; non-ASCII is matched as its UTF-8 escapes.
    *("%2F", "%2f", "%3F", "?", "%2A", "%24", "$", "%2C", ",", "'", "%27", ":", "%3A", "=", "&"),
    *("é", "%C3%A9", "%c3%a9", "ツ", "%E3%83%84", "%e3%83", " ", "%20", "%", "%25", "%zz", "%4"),
    *('"', "<", "[", "\\", "^", "|", "{", "\t", "\x0b", "\x0c", "\x00", "\x7f", "\u00a0"),
    *("q=1", "robots.txt", "#c", "*$", "$$", "%69ndex.html"),
)
OTHER_LINES = ("", "# a comment", "Sitemap: https://example.com/sitemap.xml")
ODD_OTHER_LINES = (
    *("Crawl-delay: 5", "crawl-delay 1", "Request-rate: 1/5", "Content-Signal: search=yes"),
    *("Host: example.com", "Noindex: /a", "Clean-param: ref /a", "   ", "\t", ":", ": /a"),
    *("nonsense line with words", "Disallow /a /b", "site-map: /s.xml", "\ufeffDisallow: /a"),
)
NEWLINES = ("\n", "\r\n", "\r")


def make_pattern(choices: Choices) -> str:
    pattern = choices.pick(("/", "/", "/", "", "*"))
    pattern += "".join(
        some(choices, PATTERN_PIECES, ODD_PATTERN_PIECES, 20) for _ in range(choices.number(0, 5))
    )
    return pattern + ("$" if chance(choices, 15) else "")


def make_line(
    choices: Choices, keys: tuple[str, ...], odd_keys: tuple[str, ...], value: str
) -> str:
    return (
        some(choices, INDENTS, ODD_INDENTS, 10)
        + some(choices, keys, odd_keys, 20)
        + some(choices, SEPARATORS, ODD_SEPARATORS, 15)
        + value
        + some(choices, ENDINGS, ODD_ENDINGS, 15)
    )


def make_user_agent_line(choices: Choices) -> str:
    agent = some(choices, AGENTS, ODD_AGENTS, 20)
    return make_line(choices, USER_AGENT_KEYS, ODD_USER_AGENT_KEYS, agent)


def make_rule_line(choices: Choices, patterns: list[str]) -> str:
    if patterns and chance(choices, 20):
        pattern = choices.pick(patterns)  # the same pattern again: Allow/Disallow ties
    else:
        pattern = make_pattern(choices)
        patterns.append(pattern)
    if chance(choices, 50):
        return make_line(choices, ALLOW_KEYS, ODD_ALLOW_KEYS, pattern)
    return make_line(choices, DISALLOW_KEYS, ODD_DISALLOW_KEYS, pattern)


def make_long_line(choices: Choices) -> str:
    """A Disallow line about as long as Google reads: its end may be cut, even mid-character."""
    head = choices.pick(("Disallow: /", "Allow: /"))
    tail = choices.pick(("ツz", "fish$", "a$", "éa", "index.html", "b/"))
    size = LONGEST_LINE + choices.number(-2, 6) - len(head) - len(tail.encode())
    return head + "*" * size + tail


def make_robots_txt(choices: Choices) -> str:
    lines: list[str] = []
    patterns: list[str] = []
    if chance(choices, 15):  # records before any user-agent line belong to no group
        lines.append(make_rule_line(choices, patterns))
    for _ in range(choices.number(1, 4)):
        for _ in range(choices.number(1, 3)):
            lines.append(make_user_agent_line(choices))
            if chance(choices, 15):
                lines.append(some(choices, OTHER_LINES, ODD_OTHER_LINES, 40))
        for _ in range(choices.number(0, 5)):
            kind = choices.number(0, 19)
            if kind < 14:
                lines.append(make_rule_line(choices, patterns))
            elif kind < 18:
                lines.append(some(choices, OTHER_LINES, ODD_OTHER_LINES, 40))
            else:
                lines.append(make_user_agent_line(choices))
    if chance(choices, 4):
        lines.insert(choices.number(0, len(lines)), make_long_line(choices))
    newline = choices.pick((*NEWLINES, "mixed"))
    ends = [choices.pick(NEWLINES) if newline == "mixed" else newline for _ in lines]
    if not chance(choices, 80):
        ends[-1] = ""
    bom = "\ufeff" if chance(choices, 10) else ""
    return bom + "".join(line + end for line, end in zip(lines, ends, strict=True))


def make_case(choices: Choices) -> tuple[str, str]:
    """A robots.txt and a path (percent-encoded, from the root) to ask it about."""
    return make_robots_txt(choices), make_path(choices)


# --- The two parsers, and where sitemill departs from Google's on purpose (robots.py says why).

_MATCHER = RobotsMatcher()
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
# RFC 3986 reserved characters that a URL path or query may also hold raw; "#", "[" and "]"
# cannot be raw there, so sitemill escapes them like any unsafe character.
_RESERVED = frozenset(":/?@!$&'()*+,;=")


def google_allows(robots_txt: str, path: str) -> bool:
    return bool(_MATCHER.is_allowed(robots_txt, PROBE_AGENT, ORIGIN + path))


def _escaped(text: str) -> set[str]:
    return {chr(int(hexdigits, 16)) for hexdigits in _ESCAPE.findall(text)}


ROBOTS_TXT = "/robots.txt is implicitly allowed"
EMPTY_QUERY = "fast-robotstxt drops an empty query"
RAW_WILDCARD = 'fast-robotstxt reads a raw "*" or "$" in the URL as its escape'
RESERVED_ESCAPE = "fast-robotstxt decodes escaped reserved characters"


def documented_divergence(rules: RobotsRules, path: str) -> str | None:
    """The kind of input on which robots.py departs from fast-robotstxt on purpose, if any."""
    if path.partition("?")[0] == "/robots.txt":
        return ROBOTS_TXT
    if path.endswith("?") and path.count("?") == 1:
        return EMPTY_QUERY
    if "*" in path or "$" in path:
        return RAW_WILDCARD
    return RESERVED_ESCAPE if _spell_reserved_apart(rules, path) else None


def explain_disagreement(rules: RobotsRules, path: str, google: bool) -> str | None:
    """Why sitemill decides otherwise than fast-robotstxt here; None: robots.py does not say."""
    if path.partition("?")[0] == "/robots.txt":
        return ROBOTS_TXT if rules.allows(path) else None
    compared = as_fast_robotstxt_compares(path)
    if compared != path and rules.allows(compared) == google:
        return documented_divergence(rules, path)  # its rewriting is the whole difference
    if _spell_reserved_apart(rules, path) or _spell_reserved_apart(rules, compared):
        return RESERVED_ESCAPE
    return None


def as_fast_robotstxt_compares(path: str) -> str:
    """The path fast-robotstxt matches: an empty query dropped, raw "*" and "$" escaped."""
    if path.endswith("?") and path.count("?") == 1:
        path = path[:-1]
    return path.replace("*", "%2A").replace("$", "%24")


def _spell_reserved_apart(rules: RobotsRules, path: str) -> bool:
    """Whether a rule and the path spell a reserved character differently: raw and escaped.

    RFC 9309 (and google/robotstxt) keep the two apart; fast-robotstxt decodes every escape
    before comparing.
    """
    path_raw, path_escaped = set(path) & _RESERVED, _escaped(path) & _RESERVED
    return any(
        (set(literal) & path_escaped) or (_escaped(literal) & path_raw)
        for rule in rules.rules
        for literal in rule.pattern.removesuffix("$").split("*")
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    return make_case(DrawnChoices(draw))


@settings(max_examples=300, deadline=None)
@given(cases())
def test_sitemill_decides_like_googles_parser(case: tuple[str, str]) -> None:
    robots_txt, path = case
    rules = RobotsRules.parse(robots_txt)
    ours, google = rules.allows(path), google_allows(robots_txt, path)
    if ours == google:
        return
    reason = explain_disagreement(rules, path, google)
    assert reason is not None, f"sitemill {ours}, Google {google}: {robots_txt!r} {path!r}"
    event(f"documented divergence: {reason}")


def test_the_probe_agent_falls_back_to_the_star_group() -> None:
    text = "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n"
    assert not google_allows(text, "/all")
    assert google_allows(text, "/g")


def test_random_choices_are_reproducible() -> None:
    def three(seed: int) -> list[tuple[str, str]]:
        choices = RandomChoices(random.Random(seed))
        return [make_case(choices) for _ in range(3)]

    assert three(7) == three(7) != three(8)

"""An S3 website configuration's redirects (GetBucketWebsite's answer) read, bounded and
checked: it is input from outside.

https://docs.aws.amazon.com/AmazonS3/latest/userguide/how-to-page-redirect.html
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sitemill.redirects._paths import INDEX_DOCUMENT, decode_path
from sitemill.redirects._rules import RedirectRule, RedirectRules
from sitemill.urls import encode_path

MAX_RULES_READ: Final = 1_000  # S3 holds 50; a longer answer is not S3's: the rest unread
MAX_KEY_CHARS: Final = 1_024  # an S3 key's bound
MAX_HOST_CHARS: Final = 253
_PROTOCOLS: Final = frozenset({"http", "https"})
# A removed URL's key is not in the bucket: S3 answers 404 for it, or 403 when the public may
# not list the bucket. A rule on either code applies to it; a rule on another code does not.
MISSING_KEY_CODES: Final = frozenset({"403", "404"})


@dataclass(frozen=True, slots=True)
class RoutingRule:
    """One routing rule: a key prefix (and error code) condition and where it sends."""

    key_prefix: str
    replace_key: str | None  # ReplaceKeyWith
    replace_prefix: str | None  # ReplaceKeyPrefixWith
    origin: str  # "scheme://host" of HostName, or "" for the same host
    status: int
    prefix: str  # the bucket's prefix the host's root is served from

    @property
    def many_to_one(self) -> bool:
        """A rule for every key (no prefix) that names one key."""
        return not self.key_prefix and self.replace_key is not None

    def target_of(self, path: str) -> tuple[str, int] | None:
        key = self.prefix + decode_path(path).lstrip("/")
        if not key.startswith(self.key_prefix):
            # a folder's URL is its index document's key too (S3 appends the suffix)
            folder = not key or key.endswith("/")
            if not folder or not (key + INDEX_DOCUMENT).startswith(self.key_prefix):
                return None
            key += INDEX_DOCUMENT
        if self.replace_key is not None:
            new_key = self.replace_key
        elif self.replace_prefix is not None:
            new_key = self.replace_prefix + key[len(self.key_prefix) :]
        else:
            new_key = key
        return f"{self.origin}/{encode_path(new_key)}", self.status


def parse_routing_rules(
    config: Mapping[str, Any], *, prefix: str = "", scheme: str = "http"
) -> RedirectRules:
    """The redirects of an S3 website configuration, in S3's order (the first rule whose
    condition holds wins): its RoutingRules, or RedirectAllRequestsTo. A rule conditioned on
    an error code applies to a removed URL when the code is 403 or 404 (what S3 answers for a
    key it does not hold); on another code, never (counted as ignored). ``scheme`` is the
    protocol of a redirect to another host that names none (S3 keeps the request's:
    website endpoints serve http). Rules past MAX_RULES_READ are left unread (truncated);
    a rule of the wrong shape is invalid."""
    if not isinstance(config, Mapping):
        return RedirectRules(invalid=1)
    everything = config.get("RedirectAllRequestsTo")
    if everything is not None:
        return _redirect_all(everything, scheme)
    listed = config.get("RoutingRules") or []
    if not isinstance(listed, list):
        return RedirectRules(invalid=1)
    rules: list[tuple[int, RedirectRule]] = []
    ignored = invalid = 0
    for order, item in enumerate(listed[:MAX_RULES_READ]):
        try:
            rule = _routing_rule(item, prefix, scheme)
        except ValueError:
            invalid += 1
            continue
        if rule is None:
            ignored += 1
        else:
            rules.append((order, rule))
    truncated = max(0, len(listed) - MAX_RULES_READ)
    return RedirectRules(rules, ignored=ignored, invalid=invalid, truncated=truncated)


def _routing_rule(item: object, prefix: str, scheme: str) -> RoutingRule | None:
    if not isinstance(item, Mapping):
        raise ValueError("a rule is an object")
    condition = item.get("Condition") or {}
    redirect = item.get("Redirect")
    if not isinstance(condition, Mapping) or not isinstance(redirect, Mapping):
        raise ValueError("a rule has a Redirect object")
    code = _text(condition, "HttpErrorCodeReturnedEquals", 3)
    if code is not None and code not in MISSING_KEY_CODES:
        return None
    replace_key = _text(redirect, "ReplaceKeyWith", MAX_KEY_CHARS)
    replace_prefix = _text(redirect, "ReplaceKeyPrefixWith", MAX_KEY_CHARS)
    if replace_key is not None and replace_prefix is not None:
        raise ValueError("ReplaceKeyWith and ReplaceKeyPrefixWith together")
    return RoutingRule(
        key_prefix=_text(condition, "KeyPrefixEquals", MAX_KEY_CHARS) or "",
        replace_key=replace_key,
        replace_prefix=replace_prefix,
        origin=_origin(redirect, scheme),
        status=_status(redirect),
        prefix=prefix,
    )


def _text(values: Mapping[str, Any], name: str, limit: int) -> str | None:
    value = values.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{name} is a string of at most {limit} characters")
    return value


def _origin(redirect: Mapping[str, Any], scheme: str) -> str:
    host = _text(redirect, "HostName", MAX_HOST_CHARS)
    protocol = _text(redirect, "Protocol", 5)
    if protocol is not None and protocol not in _PROTOCOLS:
        raise ValueError("Protocol is http or https")
    if host is None:
        return ""
    if not host or any(char in host for char in "/?#@\\") or not host.isprintable() or " " in host:
        raise ValueError("HostName is a host name")
    return f"{protocol or scheme}://{host.lower()}"


def _status(redirect: Mapping[str, Any]) -> int:
    code = _text(redirect, "HttpRedirectCode", 3) or "301"
    if not (code.isascii() and code.isdigit()) or not 300 <= int(code) < 400:
        raise ValueError("HttpRedirectCode is a 3xx status")
    return int(code)


def _redirect_all(target: object, scheme: str) -> RedirectRules:
    """RedirectAllRequestsTo: every path to the same path on another host."""
    try:
        if not isinstance(target, Mapping):
            raise ValueError("RedirectAllRequestsTo is an object")
        origin = _origin(target, scheme)
    except ValueError:
        return RedirectRules(invalid=1)
    if not origin:
        return RedirectRules(invalid=1)
    rule = RoutingRule("", None, None, origin, 301, "")
    return RedirectRules([(0, rule)])

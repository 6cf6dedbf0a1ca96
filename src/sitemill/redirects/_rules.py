"""The redirects a build serves, read from its host's rules: where each path is sent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol


class RedirectRule(Protocol):
    """One rule that may send a path elsewhere."""

    def target_of(self, path: str) -> tuple[str, int] | None:
        """Where the rule sends ``path`` (already normalized) and with which status."""
        ...

    @property
    def many_to_one(self) -> bool:
        """Whether the rule sends every path it matches to one URL (a catch-all: search
        engines read a removed page redirected to an unrelated one as a soft 404)."""
        ...


class RedirectRules:
    """A host's rules in the order the host tries them (the first that matches wins).

    ``target_of(path)`` says where they send a URL path, placeholders and splat filled in,
    with the status: a 3xx is a redirect, 200 a rewrite (the URL still serves content), 404
    or 410 a custom not-found page; None when no rule matches. ``ignored`` counts rules read
    but never applied to a plain path (conditions on a query, a country, a language, a role
    or another host), ``invalid`` lines or rules that could not be read, ``truncated`` rules
    past the bound the reader holds to (said so: a path they would redirect looks gone).
    """

    __slots__ = ("_exact", "_normalize", "_rules", "ignored", "invalid", "truncated")

    def __init__(
        self,
        rules: Sequence[tuple[int, RedirectRule]] = (),
        *,
        exact: Mapping[str, tuple[int, str, int]] | None = None,
        normalize: Callable[[str], str] = str,
        ignored: int = 0,
        invalid: int = 0,
        truncated: int = 0,
    ) -> None:
        self._rules = tuple(rules)  # (order, rule), in order
        self._exact = dict(exact or {})  # normalized path -> (order, target, status)
        self._normalize = normalize
        self.ignored = ignored
        self.invalid = invalid
        self.truncated = truncated

    def __len__(self) -> int:
        return len(self._rules) + len(self._exact)

    def target_of(self, path: str) -> tuple[str, int] | None:
        """Where the rules send ``path``, with the status; None: no rule matches it."""
        found = self._match(path)
        return None if found is None else found[0]

    def many_to_one(self, path: str) -> bool:
        """Whether the rule that matches ``path`` sends every path it matches to one URL
        (`/old/* /new/ 301`, an S3 rule for every missing key): a redirect, but likely a soft
        404 for a page with no counterpart."""
        found = self._match(path)
        return found is not None and found[1]

    def _match(self, path: str) -> tuple[tuple[str, int], bool] | None:
        key = self._normalize(path)
        exact = self._exact.get(key)
        for order, rule in self._rules:
            if exact is not None and order > exact[0]:
                break
            found = rule.target_of(key)
            if found is not None:
                return found, rule.many_to_one
        return None if exact is None else ((exact[1], exact[2]), False)

    def then(self, later: RedirectRules) -> RedirectRules:
        """These rules, then ``later``'s where none of these matches (Netlify reads
        `_redirects` before netlify.toml); both compare paths in this one's way."""
        offset = 1 + self._last_order()
        exact = {
            key: (order + offset, target, status)
            for key, (order, target, status) in later._exact.items()
        }
        rules = [*self._rules, *((order + offset, rule) for order, rule in later._rules)]
        return RedirectRules(
            rules,
            exact=exact | self._exact,
            normalize=self._normalize,
            ignored=self.ignored + later.ignored,
            invalid=self.invalid + later.invalid,
            truncated=self.truncated + later.truncated,
        )

    def _last_order(self) -> int:
        orders = [order for order, _, _ in self._exact.values()]
        return max([*orders, *(order for order, _ in self._rules)], default=-1)

    def redirects(self, path: str) -> bool:
        """Whether the rules answer ``path`` with a redirect (3xx)."""
        found = self.target_of(path)
        return found is not None and 300 <= found[1] < 400

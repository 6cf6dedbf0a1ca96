"""The host's forms: `_redirects` lines, S3 website routing rules, S3 redirect objects."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from sitemill.redirects._paths import bucket_key, decode_path, is_absolute, url_text
from sitemill.redirects._quoting import json_text
from sitemill.redirects.model import Redirect


def comment_lines(notes: Sequence[str]) -> list[str]:
    """``notes`` as "#" comment lines: what is not printable (a line break) is a space."""
    lines = []
    for note in notes:
        text = "".join(char if char.isprintable() else " " for char in note)
        lines.append("# " + " ".join(text.split()))
    return lines


def has_line_break(text: str) -> bool:
    """Whether ``text`` holds a control character (C0, DEL, C1) or a Unicode line or
    paragraph separator: what an editor or a shell may read as the end of a line."""
    return any(
        ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F or char in "\u2028\u2029" for char in text
    )


def render_netlify(redirects: Sequence[Redirect], notes: Sequence[str]) -> str:
    """`_redirects` lines, ``from to status``, sorted by source, columns aligned."""
    rows = sorted({(url_text(r.source), url_text(r.target), r.status) for r in redirects})
    width = max((len(source) for source, _, _ in rows), default=0)
    lines = [f"{source:<{width}}  {target}  {status}" for source, target, status in rows]
    return "\n".join([*comment_lines(notes), *lines]) + "\n"


def routing_rules(
    redirects: Sequence[Redirect], prefix: str, host_name: str | None
) -> list[dict[str, Any]]:
    """One routing rule per redirect, for a key the bucket does not hold (a 404: a rule never
    shadows a page still there), the longest keys first (S3 applies the first rule that
    matches a key's prefix)."""
    rules = []
    for redirect in redirects:
        key = bucket_key(redirect.source, prefix, index=False)
        condition = {  # the root's key is "", a prefix of every key: its index document's
            "KeyPrefixEquals": key or bucket_key(redirect.source, prefix, index=True),
            "HttpErrorCodeReturnedEquals": "404",
        }
        rules.append({"Condition": condition, "Redirect": _rule_redirect(redirect, host_name)})
    return sorted(rules, key=lambda rule: rule["Condition"]["KeyPrefixEquals"], reverse=True)


def _rule_redirect(redirect: Redirect, host_name: str | None) -> dict[str, str]:
    target = url_text(redirect.target)
    out: dict[str, str] = {}
    if is_absolute(target):
        scheme, _, rest = target.partition("//")
        host, _, path = rest.partition("/")
        out["HostName"] = host
        if scheme:
            out["Protocol"] = scheme.rstrip(":")
    else:
        path = target.lstrip("/")
        if host_name:
            out["HostName"] = host_name
            out["Protocol"] = "https"
    out["ReplaceKeyWith"] = decode_path("/" + path).lstrip("/")
    out["HttpRedirectCode"] = str(redirect.status)
    return out


def render_s3_rules(
    redirects: Sequence[Redirect], prefix: str, host_name: str | None, index_document: str
) -> str:
    """A website configuration for ``aws s3api put-bucket-website --website-configuration``."""
    config = {
        "IndexDocument": {"Suffix": index_document},
        "RoutingRules": routing_rules(redirects, prefix, host_name),
    }
    return json_text(config)


def render_s3_objects(
    redirects: Sequence[Redirect], notes: Sequence[str], bucket: str | None, prefix: str
) -> str:
    """A POSIX sh script that writes one empty object per removed URL whose
    x-amz-website-redirect-location is the target (S3 answers it with a 301)."""
    lines = ["#!/bin/sh", *comment_lines(notes), "set -eu"]
    if bucket is None:
        lines.append(': "${BUCKET:?set BUCKET to the name of the site\'s bucket}"')
        bucket_word = '"$BUCKET"'
    else:
        bucket_word = shlex.quote(bucket)
    objects = sorted(
        {(bucket_key(r.source, prefix, index=True), _location(r.target)) for r in redirects}
    )
    unsafe = [key for key, _ in objects if has_line_break(key)]
    if unsafe:  # a line break in a key would stand raw in the script: written by hand
        lines.append(f"# Left out, {len(unsafe)} key(s) with a control character: {unsafe!a}")
    for key, location in objects:
        if has_line_break(key):
            continue
        lines.append(
            f"aws s3api put-object --bucket {bucket_word} --key {shlex.quote(key)}"
            f" --website-redirect-location {shlex.quote(location)}"
        )
    return "\n".join(lines) + "\n"


def _location(target: str) -> str:
    """A redirect object's location: a path or an http(s) URL, as S3 requires."""
    location = url_text(target)
    return "https:" + location if location.startswith("//") else location

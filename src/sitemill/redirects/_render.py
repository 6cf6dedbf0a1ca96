"""Suggested redirects written in the form a host or a generator takes, with a header that
says what they are and how to apply them."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from sitemill.redirects._hostforms import render_netlify, render_s3_objects, render_s3_rules
from sitemill.redirects._paths import INDEX_DOCUMENT, normal_base, url_text
from sitemill.redirects._siteforms import (
    SitePaths,
    left_out_notes,
    render_docusaurus,
    render_front_matter,
    render_mkdocs,
    split_by_site,
)
from sitemill.redirects.model import MAX_ROUTING_RULES, Redirect, RedirectForm

_FIRST = "Redirects for the URLs this change removes, suggested by sitemill diff."
_HOW = {
    RedirectForm.NETLIFY: "Netlify and Cloudflare Pages: add these lines to the _redirects file"
    " at the root of the published folder, above any catch-all rule (the first rule that"
    " matches wins). Cloudflare Pages takes at most 2,000 static and 100 dynamic rules.",
    RedirectForm.S3_RULES: "S3 website hosting: merge RoutingRules into the bucket's website"
    " configuration (aws s3api get-bucket-website) and apply it with aws s3api"
    " put-bucket-website --bucket BUCKET --website-configuration file://FILE.",
    RedirectForm.S3_OBJECTS: "S3 website hosting: run this script (the aws CLI, s3:PutObject)."
    " Each command writes an empty object at the removed key whose"
    " x-amz-website-redirect-location S3 answers with a 301; a later aws s3 sync --delete of"
    " a build without these keys deletes them.",
    RedirectForm.HUGO: "Hugo: a built site does not name the page's source file: add each"
    " block's aliases to the front matter of the page served at the URL it names (merge with"
    " aliases it has); Hugo writes a redirect page at each alias.",
    RedirectForm.MKDOCS: "MkDocs: merge into mkdocs.yml (pip install mkdocs-redirects)."
    " The .md names are a guess from the URLs (/a/b/ and /a/b.html are a/b.md): check each.",
    RedirectForm.JEKYLL: "Jekyll: a built site does not name the page's source file: add each"
    " block's redirect_from to the front matter of the page served at the URL it names"
    " (plugins: [jekyll-redirect-from] in _config.yml).",
}


_SITE_FORMS = {
    RedirectForm.HUGO: "the source is outside the site or the target is no page of it",
    RedirectForm.JEKYLL: "the source is outside the site or the target is no page of it",
    RedirectForm.DOCUSAURUS: "the source is outside the site (or holds ? # or a control"
    " character), or the target is outside it",
    RedirectForm.MKDOCS: "the source or the target is outside the site",
}


def unique_sources(redirects: Sequence[Redirect]) -> list[Redirect]:
    """One redirect per source (the first in sorted order), sorted by source."""
    chosen: dict[str, Redirect] = {}
    for redirect in sorted(redirects, key=lambda r: (url_text(r.source), r.target, r.status)):
        chosen.setdefault(url_text(redirect.source), redirect)
    return list(chosen.values())


def redirect_notes(
    redirects: Sequence[Redirect], form: RedirectForm, *, base_path: str = "/"
) -> list[str]:
    """What the header says: what the text is, how to apply it, and its limits for these
    redirects (a JSON form has no comments: the caller shows these beside it)."""
    chosen = unique_sources(redirects)
    paths = split_by_site(chosen, base_path, form) if form in _SITE_FORMS else None
    return _notes(chosen, form, base_path, paths)


def _notes(
    chosen: Sequence[Redirect], form: RedirectForm, base_path: str, paths: SitePaths | None
) -> list[str]:
    notes = [_FIRST, *textwrap.wrap(_HOW.get(form, ""), 92)]
    if form is RedirectForm.S3_RULES and len(chosen) > MAX_ROUTING_RULES:
        notes.append(
            f"{len(chosen)} rules: an S3 website configuration holds at most"
            f" {MAX_ROUTING_RULES}; S3 refuses this one: use the s3-objects form."
        )
    if form is RedirectForm.S3_OBJECTS and any(r.status != 301 for r in chosen):
        notes.append("A redirect object always answers 301: the other statuses become 301.")
    if paths is not None:
        if normal_base(base_path) != "/":
            notes.append(f"Paths are relative to the site's base path {normal_base(base_path)}.")
        notes += left_out_notes(paths.outside, _SITE_FORMS[form])
    return notes


def render_redirects(
    redirects: Sequence[Redirect],
    form: RedirectForm,
    *,
    base_path: str = "/",
    bucket: str | None = None,
    prefix: str = "",
    host_name: str | None = None,
) -> str:
    """The redirects as text in ``form``, sorted, one per source, with a comment header where
    the format has comments. ``base_path`` is the site's path on its host (MkDocs, Docusaurus,
    Hugo and Jekyll paths are relative to it); ``bucket`` and ``prefix`` the S3 bucket and the
    key prefix the host's root is served from; ``host_name`` the host S3 redirects should
    name (behind CloudFront: else S3 names its own website endpoint)."""
    chosen = unique_sources(redirects)
    paths = split_by_site(chosen, base_path, form) if form in _SITE_FORMS else None
    notes = _notes(chosen, form, base_path, paths)
    if form is RedirectForm.NETLIFY:
        return render_netlify(chosen, notes)
    if form is RedirectForm.S3_RULES:
        return render_s3_rules(chosen, prefix, host_name, INDEX_DOCUMENT)
    if form is RedirectForm.S3_OBJECTS:
        return render_s3_objects(chosen, notes, bucket, prefix)
    assert paths is not None  # the remaining forms are the site's
    if form is RedirectForm.DOCUSAURUS:
        return render_docusaurus(paths)
    if form is RedirectForm.MKDOCS:
        return render_mkdocs(paths, notes)
    key = "aliases" if form is RedirectForm.HUGO else "redirect_from"
    return render_front_matter(paths, key, notes, toml=form is RedirectForm.HUGO)

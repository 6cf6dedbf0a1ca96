"""What each configuration key means, for the one reference page (docs/configuration.md)."""
# The page is written by tools/config_reference.py from this, the model, the CLI, action.yml and the
# stack's template; tests/docs/test_configuration_reference.py holds them equal.

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

MEANINGS: Final[Mapping[str, str]] = {
    "base_url": (
        "absolute http(s) URL at which the site directory (or S3 prefix) is served; sitemaps "
        "are written at that root; used in one spelling (lower-case scheme and host, no "
        "default port, no trailing dot: `HTTPS://Example.com.:443` is `https://example.com/`)"
    ),
    "include": ("globs of pages"),
    "exclude": ("globs to leave out"),
    "url_style": (
        "`auto` (the style most of the pages' own canonicals use, 10 pages or more, else "
        "`directory`; decided once and kept in the state), `directory` (`a/index.html` → "
        "`a/`), `clean` (also `a/b.html` → `a/b`; `.htm` stays, since GitHub Pages, Netlify "
        "and Cloudflare Pages serve `/b` from `b.html` only), `file` (as is)"
    ),
    "lastmod": ("`git`, `mtime` or `none` (S3 uses the object time unless `none`)"),
    "lastmod_precision": ("`datetime` (`2024-05-01T10:00:00+00:00`) or `date` (`2024-05-01`)"),
    "rules": (
        "ordered `[[rules]]` tables with `pattern`, `changefreq`, `priority`, `exclude`; the "
        "first match wins"
    ),
    "groups": (
        "ordered `[[groups]]` tables with `name`, `include`, `exclude`: the pages of the first "
        "group that takes them go in children named for it (`sitemap-<name>.xml`, see "
        "[output](output.md#named-groups))"
    ),
    "respect_noindex": (
        "skip HTML pages whose robots meta tag says `noindex` or `none` (trees and buckets)"
    ),
    "respect_redirects": (
        'skip redirect stubs: pages whose `<meta http-equiv="refresh">` names a URL'
    ),
    "respect_canonical": (
        'skip pages whose `<link rel="canonical">` names another URL that this sitemap lists'
    ),
    "respect_robots_txt": ("skip paths the site's `robots.txt` disallows for `User-agent: *`"),
    "robots_txt": ("maintain `Sitemap:` lines in `robots.txt`"),
    "gzip": ("gzip the child sitemaps (`sitemap-N.xml.gz`)"),
    "format": ("`xml` or `txt`"),
    "max_urls": ("URLs per sitemap file (1–50,000)"),
    "max_bytes": ("uncompressed bytes per file (1,024–52,428,800)"),
    "max_sitemaps_per_index": ("children per index (1–50,000)"),
    "templates_dir": ("a folder whose templates override the built-in ones"),
    "content_dates": (
        "a page's `lastmod` moves only when its content fingerprint changes (see "
        "[lastmod](lastmod.md))"
    ),
    "fingerprint_ignore": (
        "regular expressions removed from a page's HTML before it is fingerprinted"
    ),
    "content_scope": (
        "what the fingerprint covers: `main` (the title, the description and the page's main "
        "region — `<main>`, `[role=main]` or its only `<article>` — so navigation, footers and "
        "sidebars move no date) or `body`"
    ),
    "workers": (
        "processes that read and fingerprint a tree's pages and, with content dates, their "
        "older versions in git: `auto` (one per core; one for a site under 32 MiB of pages to "
        "read, each page counted 8 KiB more than its size, and of the older versions git log "
        "names, up to 8 of each page counted at its size: starting them would cost more) or a "
        "number (1–64); a URL list of 4 MiB or more (or "
        "piped in) gets one helper process for its duplicate check unless this is `1`; the "
        "output is the same bytes with any number"
    ),
    "shards": (
        "sitemaps as shards with stable names (see [output](output.md); trees and buckets, "
        "never a URL list): `auto` (when one file is not enough), `on`, `off` (split by count)"
    ),
    "shard_fill": ("URLs a shard is cut after when it is laid or split (1–50,000)"),
    "state": (
        "where the state lives: a path or `s3://bucket/key` (a path in a found `sitemill.toml` "
        "is relative to it and must stay inside its folder)"
    ),
    "previous_state": (
        "a path or http(s) URL of a state to start from when `state` holds none (the live "
        "site's copy); `none`: none, and no fetch"
    ),
    "alternates": (
        'hreflang alternates (`<xhtml:link>`) from each page\'s `<link rel="alternate" '
        "hreflang>`; in `sitemill.toml` also an `[alternates]` table of language folders (see "
        "[Sitemap extensions](extensions.md#hreflang-alternates))"
    ),
    "images": (
        "add the images each page shows (`<image:image>`, see [Sitemap "
        "extensions](extensions.md#images))"
    ),
    "sitemaps": (
        "your own sitemaps to name beside sitemill's (a name relative to `base_url`, or "
        "an absolute URL): in sitemill's index when at or below its folder on its host, else "
        "as a `Sitemap:` line of `robots.txt` (see [output](output.md#the-users-own-sitemaps))"
    ),
    "image_hosts": ("hosts besides the site's whose images are listed (a CDN)"),
    "keep_image_chrome": (
        "list site chrome too: images shown on more than `image_chrome_share` of the pages and "
        "on at least 20 (logos, avatars), left out by default (see [Site "
        "chrome](extensions.md#site-chrome))"
    ),
    "image_chrome_share": (
        "the share of the listed pages (above 0, at most 1) an image must be shown on, more "
        "than, to be site chrome"
    ),
    "html_sitemap": (
        "also write `sitemap.html`, a page for people that links the listed pages by title, "
        "grouped by folder"
    ),
    "llms_txt": (
        "write `llms.txt` (llmstxt.org) from exactly the pages the sitemap lists, by title and "
        "description, in sections: `true`, or `replace` to take over an `llms.txt` sitemill "
        "did not write (see [llms.txt](llms.md))"
    ),
    "llms_full": (
        "write `llms-full.txt`: each listed page's content region as Markdown, in the "
        "sitemap's order, up to `llms_full_max_bytes`"
    ),
    "llms_pages": (
        "write a Markdown twin of each listed page at its URL plus `.md` (`guide/` → "
        "`guide/index.html.md`), as llmstxt.org proposes"
    ),
    "llms_listings": (
        "list listing pages in `llms.txt` too: a taxonomy's (`tags/`, `categories/`), "
        "pagination's (`page/N/`, and the first page of what it pages), archives' and search's "
        "pages, which it leaves out unless set (see [llms.txt](llms.md#listing-pages))"
    ),
    "llms_full_max_bytes": (
        "the most bytes `llms-full.txt` holds (64 KiB to 64 MiB): it stops before the page "
        "that would pass it, and says so on its last line"
    ),
    "indexnow": (
        "announce the listed URLs a run added, changed (content fingerprint) or removed: "
        "`send` right after publishing (`true` and a bare `--indexnow` mean this), `later` "
        "keeps them pending for `sitemill indexnow`; needs content dates"
    ),
    "indexnow_key": (
        "the key, 8–128 of `a-zA-Z0-9-`, from a secret (never logged, never in the state; no "
        "flag, so it never shows in a process list)"
    ),
    "indexnow_endpoint": ("where announcements are POSTed"),
    "indexnow_key_location": (
        "the key file's URL, when not `<host>/<key>.txt`; on the site's own host (another is "
        "refused: engines read the key on the host of the URLs announced)"
    ),
    "indexnow_write_key_file": (
        "write `<key>.txt` beside the sitemaps (a tree's output, the bucket's prefix) before "
        "announcing"
    ),
}

# The default where the model's own (None, an empty tuple) does not say it.
DEFAULT_TEXT: Final[Mapping[str, str]] = {
    "base_url": "required",
    "include": "`**/*.html`, `**/*.htm`, `**/*.pdf` (a URL list: every line)",
    "exclude": "none, plus the built-in excludes",
    "lastmod": "`git` inside a git work tree, else `mtime` (a bucket: each object's time)",
    "alternates": "`true`",
    "workers": "`auto`",
    "state": "`sitemill-state.json.gz` beside the sitemaps",
    "previous_state": "none (the Action: `<base-url>sitemill-state.json.gz`)",
    "indexnow_key_location": "`<scheme>://<host>/<key>.txt`",
}

# Keys with no flag, on purpose.
NO_FLAG: Final[Mapping[str, str]] = {
    "rules": "tables: sitemill.toml only",
    "groups": "tables: sitemill.toml only",
    "indexnow_key": "a secret: a flag would show it in the process list",
}

# Keys that are no parameter of the stack (infra/template.yaml), on purpose: each can still
# be set in the function's environment by hand.
NOT_STACK_PARAMETERS: Final[Mapping[str, str]] = {
    "rules": "tables: sitemill.toml only, and the function reads no file",
    "groups": "tables: sitemill.toml only, and the function reads no file",
    "state": "the stack sets it: its own state bucket, never the public site bucket",
    "previous_state": "a one-time start from another state; the stack keeps its own",
    "templates_dir": "a folder of templates would have to be packaged into the zip",
    "workers": (
        "processes that read a tree's pages; in the function it only sets how many shards a "
        "sharded bucket's rebuild lists at a time (4 unless set)"
    ),
}

"""The form chosen for the flow at hand: by the file's name, the generator, the bucket."""

from __future__ import annotations

import pytest

from sitemill.redirects import RedirectForm, detect_generator, form_for

F = RedirectForm


@pytest.mark.parametrize(
    ("file_name", "generator", "bucket", "form"),
    [
        ("_redirects", "Hugo 0.113.0", True, F.NETLIFY),
        ("public/_redirects", None, False, F.NETLIFY),
        ("redirects.sh", None, False, F.S3_OBJECTS),
        ("routing-rules.json", None, False, F.S3_RULES),
        ("out/rules.json", None, True, F.S3_RULES),
        ("options.json", "Docusaurus v3.1.0", False, F.DOCUSAURUS),
        ("options.json", None, False, F.DOCUSAURUS),
        ("mkdocs.yml", "Hugo 0.113.0", False, F.MKDOCS),
        ("MkDocs.YAML", None, False, F.MKDOCS),
        ("redirects.yml", "Jekyll v4.3.2", False, F.JEKYLL),
        ("redirects.yml", "Hugo 0.113.0", False, F.HUGO),
        ("redirects.yaml", None, False, F.MKDOCS),
        ("aliases.toml", None, False, F.HUGO),
        ("_config.yml", None, False, F.JEKYLL),
        ("notes.txt", "mkdocs-1.5.3, mkdocs-material-9.4", False, F.MKDOCS),
        (None, "Hugo 0.113.0", True, F.HUGO),
        (None, "mkdocs-1.5.3, mkdocs-material-9.4", False, F.MKDOCS),
        (None, "Docusaurus v3.1.0", False, F.DOCUSAURUS),
        (None, "Jekyll v4.3.2", False, F.JEKYLL),
        (None, "WordPress 6.4", True, F.S3_RULES),
        (None, None, True, F.S3_RULES),
        (None, None, False, F.NETLIFY),
        ("", "", False, F.NETLIFY),
    ],
)
def test_the_form_for_the_flow(
    file_name: str | None, generator: str | None, bucket: bool, form: RedirectForm
) -> None:
    assert form_for(file_name, generator, bucket=bucket) is form


def test_the_generator_is_read_from_the_home_pages_head() -> None:
    home = b'<!doctype html><html><head><meta name="generator" content=" Hugo 0.113.0 ">'
    files = {"index.html": home + b"</head><body>" + b"x" * 200_000}
    assert detect_generator(files.get) == "Hugo 0.113.0"
    assert detect_generator({}.get) is None
    assert detect_generator({"index.html": b"<p>no head</p>"}.get) is None

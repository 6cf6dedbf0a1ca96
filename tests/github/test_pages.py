"""The Action asks about a base URL that leaves out the path of the GitHub Pages project site
it runs in (GITHUB_REPOSITORY): pages without canonicals tell nothing else."""

from __future__ import annotations

import pytest

from sitemill.github._mismatch import project_site_question


def test_a_project_site_at_its_owners_root_is_asked_about_naming_the_path() -> None:
    question = project_site_question(
        "https://pythongssapi.github.io/", "pythongssapi/python-gssapi"
    )
    assert question == (
        "pythongssapi/python-gssapi is a GitHub Pages project site, served at "
        "https://pythongssapi.github.io/python-gssapi/, but the base URL is "
        "https://pythongssapi.github.io/ (its path left out): is base-url right? (if the site "
        "is deployed to pythongssapi.github.io from another repository, it is)"
    )


@pytest.mark.parametrize(
    ("base_url", "repository"),
    [
        ("https://pythongssapi.github.io/python-gssapi/", "pythongssapi/python-gssapi"),
        ("https://geekdude.github.io/", "Geekdude/Geekdude.github.io"),  # the owner's own site
        ("https://docs.example.org/", "owner/project"),  # a custom domain
        ("https://other.github.io/", "owner/project"),  # deployed to another owner's site
        ("https://owner.github.io/", None),  # not in the Action
        ("https://owner.github.io/", "owner"),
    ],
)
def test_nothing_is_asked_otherwise(base_url: str, repository: str | None) -> None:
    assert project_site_question(base_url, repository) is None

"""The Action's `sitemaps` input reaches the run through env: (never `${{ }}` in run:): the
user's sitemaps named in the committed index, another host's in robots.txt."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    Project,
    action_run_step,
    make_project,
    no_network,
    remote_file,
    run_action,
)

from gitutil import commit

pytestmark = pytest.mark.usefixtures("no_network")
USER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset '
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>'
    f"{BASE_URL}blog/</loc></url></urlset>\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def test_the_input_goes_through_env() -> None:
    assert action_run_step()["env"]["SITEMILL_SITEMAPS"] == "${{ inputs.sitemaps }}"


def test_named_sitemaps_are_committed_in_the_index_and_robots_txt(project: Project) -> None:
    commit(project.workspace, {"blog-sitemap.xml": USER}, when="2024-01-02T08:00:00+00:00")
    inputs = {
        "base-url": BASE_URL,
        "sitemaps": "blog-sitemap.xml\nhttps://shop.example.net/sitemap.xml",
        "robots-txt": "true",
    }
    run = run_action(project.workspace, inputs)
    assert run.returncode == 0, run.stderr
    index = remote_file(project.remote, "sitemap.xml")
    assert f"<loc>{BASE_URL}blog-sitemap.xml</loc>" in index
    assert "shop.example.net" not in index
    robots = remote_file(project.remote, "robots.txt")
    assert "Sitemap: https://shop.example.net/sitemap.xml # named by sitemill\n" in robots
    assert remote_file(project.remote, "blog-sitemap.xml") == USER
    again = run_action(project.workspace, inputs)
    assert again.returncode == 0, again.stderr
    assert again.outputs["changed"] == "false"

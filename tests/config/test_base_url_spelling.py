"""The base URL in its one spelling (RFC 3986 section 6.2.2-6.2.3), whichever front end reads
it, and the IndexNow key location on the site's own host."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import SiteMaker, page
from outputlist import build_from_url_list
from sitemill.config.model import load_config
from sitemill.errors import ConfigError
from sitemill.sinks import MemorySink
from sitemill.state.model import State, dump_state
from sitemill.state.start import start_state


@pytest.mark.parametrize(
    ("given", "spelt"),
    [
        ("https://example.com:443/", "https://example.com/"),
        ("http://example.com:80/", "http://example.com/"),
        ("https://example.com./", "https://example.com/"),
        ("HTTPS://EXAMPLE.COM.:443", "https://example.com/"),
        ("https://Example.com:443/Docs", "https://example.com/Docs/"),
        ("https://example.com:", "https://example.com/"),
        ("https://example.com/a/./b/../", "https://example.com/a/"),
        ("https://example.com/%7edocs/", "https://example.com/~docs/"),
        ("http://example.com:443/", "http://example.com:443/"),  # (not http's default)
        ("https://example.com:8443/", "https://example.com:8443/"),
        ("http://[::1]:80/", "http://[::1]/"),
    ],
)
def test_every_front_end_reads_one_spelling(tmp_path: Path, given: str, spelt: str) -> None:
    flag = load_config({"base_url": given}).base_url
    env = load_config({}, {"SITEMILL_BASE_URL": given}).base_url  # the Lambda's, the Action's
    file = load_config({}, {}, {"base_url": given}).base_url
    assert flag == env == file == spelt


def test_the_cli_publishes_the_one_spelling(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home"), "a/index.html": page("a")})
    done = run_sitemill("build", str(site), "--base-url", "HTTPS://Example.COM.:443")
    assert done.returncode == 0, done.stderr
    sitemap = (site / "sitemap.xml").read_text()
    assert "<loc>https://example.com/</loc>" in sitemap
    assert "<loc>https://example.com/a/</loc>" in sitemap
    again = run_sitemill("build", str(site), "--base-url", "https://example.com/")
    assert (again.returncode, again.stderr) == (0, "")  # (no "every URL moved")
    assert "nothing changed" in again.stdout


def test_a_state_written_at_an_old_spelling_says_no_move(make_site: SiteMaker) -> None:
    """An earlier sitemill kept the base URL as given: its state says ``:443``."""
    site = make_site({"index.html": page("home")})
    done = run_sitemill("build", str(site), "--base-url", "https://example.com/")
    assert done.returncode == 0, done.stderr
    state_file = site / "sitemill-state.json.gz"
    document = json.loads(gzip.decompress(state_file.read_bytes()))
    document["base_url"] = "https://example.com:443/"
    state_file.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    again = run_sitemill("build", str(site), "--base-url", "https://example.com:443/")
    assert again.returncode == 0, again.stderr
    assert "every URL moved" not in again.stderr


class Store:
    where = "sitemill-state.json.gz"

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self) -> bytes | None:
        return self.data

    def write(self, data: bytes) -> bool:
        self.data = data
        return True


def test_pending_urls_of_an_old_spelling_take_the_new_one() -> None:
    old = "https://example.com:443/"
    state = State(base_url=old, pending={f"{old}a": "changed"})
    start = start_state(Store(dump_state(state)), None, base_url="https://example.com/")
    assert start.warnings == []
    assert start.state.pending == {"https://example.com/a": "changed"}


def test_a_url_list_at_the_default_port_is_under_the_base_url() -> None:
    config = load_config({"base_url": "https://example.com/"})
    lines = ["https://example.com:443/a\n", "https://EXAMPLE.com./b\n"]
    sink = MemorySink()
    report = build_from_url_list(config, lines, sink, name="urls.txt")
    assert report.result.url_count == 2
    text = sink.files["sitemap.xml"].decode()
    assert "<loc>https://example.com/a</loc>" in text
    assert "<loc>https://example.com/b</loc>" in text


@pytest.mark.parametrize(
    "location",
    [
        "https://other.example/key.txt",
        "http://example.com/key.txt",  # another scheme: another origin
        "https://example.com:8443/key.txt",
        "https://cdn.example.com/key.txt",
    ],
)
def test_a_key_location_on_another_host_is_refused(location: str) -> None:
    for values, env in (
        ({"base_url": "https://example.com/", "indexnow_key_location": location}, {}),
        (
            {},
            {
                "SITEMILL_BASE_URL": "https://example.com/",
                "SITEMILL_INDEXNOW_KEY_LOCATION": location,
            },
        ),
    ):
        with pytest.raises(ConfigError) as info:
            load_config(values, env)
        assert info.value.key == "indexnow_key_location"
        assert "not on the site's https://example.com" in str(info.value)


@pytest.mark.parametrize(
    "location",
    [
        "https://example.com/key.txt",
        "https://EXAMPLE.com.:443/key.txt",
        "https://example.com/docs/key.txt",
    ],
)
def test_a_key_location_on_the_site_is_kept_in_its_spelling(location: str) -> None:
    config = load_config(
        {"base_url": "https://example.com:443/", "indexnow_key_location": location}
    )
    assert config.indexnow_key_location == "https://example.com/" + location.split("/", 3)[3]


def test_the_cli_refuses_a_key_location_on_another_host_in_one_line(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home")})
    location = "https://other.example/abcdefgh12.txt"
    done = run_sitemill(
        "build",
        str(site),
        "--base-url",
        "https://example.com/",
        "--indexnow-key-location",
        location,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("sitemill: error: indexnow_key_location: is on https://other")
    assert done.stderr.count("\n") == 1
    assert not (site / "sitemap.xml").exists()

"""The extensions' configuration: images, image_hosts, alternates, in every spelling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sitemill.alternates.declared import AlternatesSetting
from sitemill.config.model import load_config
from sitemill.errors import ConfigError

BASE = {"base_url": "https://example.com/"}
TABLE = {"en": "**", "fr": "fr/**"}
FOLDERS = (("fr", "fr/"), ("en", ""))
IMG, IDN = "img.example.net", "xn--bcher-kva.example"


def test_defaults() -> None:
    config = load_config(BASE)
    assert config.images is False
    assert config.image_hosts == ()
    assert config.alternates == AlternatesSetting(enabled=True, folders=())


@pytest.mark.parametrize(
    ("value", "hosts"),
    [
        ("cdn.example.com", ("cdn.example.com",)),
        ("CDN.Example.com, img.example.net\nimg.example.net", ("cdn.example.com", IMG)),
        (["https://cdn.example.com/", "bücher.example"], ("cdn.example.com", IDN)),
        (["cdn.example.com."], ("cdn.example.com",)),
    ],
)
def test_image_hosts(value: object, hosts: tuple[str, ...]) -> None:
    assert load_config({**BASE, "image_hosts": value}).image_hosts == hosts


@pytest.mark.parametrize(
    "value",
    ["https://cdn.example.com/images/", "ftp://cdn.example.com", "cdn example", "user@cdn.com", 3],
)
def test_a_bad_image_host_is_one_error_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({**BASE, "image_hosts": value})
    assert str(caught.value).startswith("image_hosts: ")


def test_env_spellings() -> None:
    env = {
        "SITEMILL_IMAGES": "yes",
        "SITEMILL_IMAGE_HOSTS": "cdn.example.com",
        "SITEMILL_ALTERNATES": "false",
    }
    config = load_config(BASE, env)
    assert config.images is True
    assert config.image_hosts == ("cdn.example.com",)
    assert config.alternates.enabled is False


@pytest.mark.parametrize(
    ("flags", "env", "expected"),
    [
        ({}, {}, AlternatesSetting(True, FOLDERS)),
        ({"alternates": True}, {}, AlternatesSetting(True, FOLDERS)),  # the folders stay
        ({}, {"SITEMILL_ALTERNATES": "true"}, AlternatesSetting(True, FOLDERS)),
        ({"alternates": False}, {}, AlternatesSetting(False, ())),
        ({}, {"SITEMILL_ALTERNATES": "off"}, AlternatesSetting(False, ())),
    ],
)
def test_a_switch_keeps_the_files_language_folders(
    flags: dict[str, Any], env: dict[str, str], expected: AlternatesSetting
) -> None:
    assert load_config({**BASE, **flags}, env, {"alternates": TABLE}).alternates == expected


# --- site chrome: keep_image_chrome, image_chrome_share -------------------------------------


def test_site_chrome_defaults() -> None:
    config = load_config(BASE)
    assert config.keep_image_chrome is False
    assert config.image_chrome_share == 0.5


@pytest.mark.parametrize(
    ("value", "share"),
    [
        (0.5, 0.5),
        (1, 1.0),
        ("0.25", 0.25),
        (" .9 ", 0.9),
        ("1.0", 1.0),
        ("1e-3", 0.001),
        (0.0001, 0.0001),
    ],
)
def test_image_chrome_share(value: object, share: float) -> None:
    assert load_config({**BASE, "image_chrome_share": value}).image_chrome_share == share


@pytest.mark.parametrize(
    "value",
    [
        0,
        0.0,
        "0",
        -0.5,
        1.01,
        2,
        "50%",
        "half",
        " ",
        "nan",
        "NaN",
        "inf",
        "-inf",
        True,
        False,
        [0.5],
    ],
)
def test_a_bad_image_chrome_share_is_one_error_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({**BASE, "image_chrome_share": value}, {}, {})
    message = str(caught.value)
    assert message.startswith("image_chrome_share: ")
    assert "above 0 and at most 1" in message
    assert "\n" not in message


def test_a_bad_keep_image_chrome_is_one_error_naming_the_key() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({**BASE, "keep_image_chrome": "sometimes"})
    assert str(caught.value).startswith("keep_image_chrome: ")


def test_site_chrome_in_every_spelling(tmp_path: Path) -> None:
    from sitemill.cli._options import config_from_args
    from sitemill.cli.main import build_parser

    env = {"SITEMILL_KEEP_IMAGE_CHROME": "yes", "SITEMILL_IMAGE_CHROME_SHARE": "0.8"}
    from_env = load_config(BASE, env)
    assert (from_env.keep_image_chrome, from_env.image_chrome_share) == (True, 0.8)
    from_file = load_config(BASE, {}, {"keep_image_chrome": True, "image_chrome_share": 0.75})
    assert (from_file.keep_image_chrome, from_file.image_chrome_share) == (True, 0.75)
    with pytest.raises(ConfigError, match=r"^image_chrome_share: "):
        load_config(BASE, {"SITEMILL_IMAGE_CHROME_SHARE": "1.5"})
    argv = ["build", str(tmp_path), "--base-url", BASE["base_url"]]
    flags = [*argv, "--keep-image-chrome", "--image-chrome-share", "0.3"]
    from_flags = config_from_args(build_parser().parse_args(flags), env)
    assert (from_flags.keep_image_chrome, from_flags.image_chrome_share) == (True, 0.3)
    off = config_from_args(build_parser().parse_args([*argv, "--no-keep-image-chrome"]), env)
    assert (off.keep_image_chrome, off.image_chrome_share) == (False, 0.8)  # flag > env
    file = tmp_path / "sitemill.toml"
    file.write_text("keep_image_chrome = true\nimage_chrome_share = 0.6\n", encoding="utf-8")
    toml = config_from_args(build_parser().parse_args([*argv, "--config", str(file)]), {})
    assert (toml.keep_image_chrome, toml.image_chrome_share) == (True, 0.6)


# --- html_sitemap: the HTML sitemap for people, in every spelling ---------------------------


def test_html_sitemap_is_off_by_default() -> None:
    assert load_config(BASE).html_sitemap is False


@pytest.mark.parametrize(
    ("flags", "env", "file", "expected"),
    [
        ({}, {}, {"html_sitemap": True}, True),  # sitemill.toml
        ({}, {"SITEMILL_HTML_SITEMAP": "yes"}, {}, True),  # env (Lambda, Action input)
        ({}, {"SITEMILL_HTML_SITEMAP": "off"}, {"html_sitemap": True}, False),  # env > file
        ({"html_sitemap": False}, {"SITEMILL_HTML_SITEMAP": "true"}, {}, False),  # flag > env
        ({"html_sitemap": True}, {}, {"html_sitemap": False}, True),
        ({}, {"SITEMILL_HTML_SITEMAP": "  "}, {"html_sitemap": True}, True),  # empty input
    ],
)
def test_html_sitemap_spellings(
    flags: dict[str, Any], env: dict[str, str], file: dict[str, Any], expected: bool
) -> None:
    assert load_config({**BASE, **flags}, env, file).html_sitemap is expected


@pytest.mark.parametrize("value", ["sometimes", "2", 1.5, ["true"]])
def test_a_bad_html_sitemap_is_one_error_naming_the_key(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(BASE, {}, {"html_sitemap": value})
    assert str(caught.value).startswith("html_sitemap: ")
    with pytest.raises(ConfigError, match=r"^html_sitemap: "):
        load_config(BASE, {"SITEMILL_HTML_SITEMAP": "sometimes"})


@pytest.mark.parametrize(
    ("flag", "expected"), [("--html-sitemap", True), ("--no-html-sitemap", False)]
)
def test_html_sitemap_flags(flag: str, expected: bool) -> None:
    from sitemill.cli._options import config_from_args
    from sitemill.cli.main import build_parser

    args = build_parser().parse_args(["build", "--base-url", BASE["base_url"], flag])
    env = {"SITEMILL_HTML_SITEMAP": str(not expected).lower()}
    assert config_from_args(args, env).html_sitemap is expected


def test_html_sitemap_in_a_config_file(tmp_path: Path) -> None:
    from sitemill.config.file import read_config_file

    path = tmp_path / "sitemill.toml"
    path.write_text('base_url = "https://example.com/"\nhtml_sitemap = true\n', encoding="utf-8")
    assert load_config({}, {}, read_config_file(path)).html_sitemap is True
    path.write_text('base_url = "https://example.com/"\nhtml_sitemap = "maybe"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^html_sitemap: "):
        load_config({}, {}, read_config_file(path))

"""The extensions' configuration: images, image_hosts, alternates, in every spelling."""

from __future__ import annotations

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

"""Config: precedence, parsing of every key, one ConfigError naming the key."""

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import timing
from sitemill.config.file import MAX_CONFIG_BYTES, read_config_file
from sitemill.config.model import (
    CONFIG_KEYS,
    LastmodMode,
    OutputFormat,
    env_name,
    load_config,
    parse_bool,
)
from sitemill.errors import ConfigError
from sitemill.protocol import ChangeFreq, Precision
from sitemill.urls import UrlStyle

BASE = {"base_url": "https://example.com"}


def test_defaults() -> None:
    config = load_config(BASE)
    assert config.base_url == "https://example.com/"
    assert config.include == ()
    assert config.url_style is UrlStyle.AUTO  # (each run settles it: sitemill.urlstyle)
    assert config.lastmod is None
    assert config.lastmod_precision is Precision.DATETIME
    assert (config.respect_noindex, config.respect_robots_txt) == (True, True)
    assert (config.robots_txt, config.gzip) == (False, False)
    assert config.format is OutputFormat.XML
    assert (config.max_urls, config.max_bytes, config.max_sitemaps_per_index) == (
        50_000,
        10_485_760,
        1_000,
    )


def test_precedence_flag_over_env_over_file() -> None:
    file_values = {"base_url": "https://file.example", "url_style": "file", "gzip": False}
    env = {"SITEMILL_URL_STYLE": "clean", "SITEMILL_GZIP": "true"}
    config = load_config({"url_style": "directory"}, env, file_values)
    assert config.base_url == "https://file.example/"
    assert config.url_style is UrlStyle.DIRECTORY  # flag wins
    assert config.gzip is True  # env beats file
    assert load_config({}, env, file_values).url_style is UrlStyle.CLEAN


def test_empty_env_and_empty_flag_lists_mean_not_set() -> None:
    config = load_config({"include": []}, {"SITEMILL_FORMAT": "  "}, {**BASE, "format": "txt"})
    assert config.format is OutputFormat.TXT


def test_env_lists_split_on_newlines_and_commas() -> None:
    config = load_config(BASE, {"SITEMILL_INCLUDE": "*.html,\n docs/**\n\n*.pdf"})
    assert [glob.pattern for glob in config.include] == ["*.html", " docs/**", "*.pdf"]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("url_style", "pretty", "directory, clean, file"),
        ("lastmod", "ctime", "git, mtime, none"),
        ("lastmod_precision", "minute", "datetime, date"),
        ("format", "json", "xml, txt"),
        ("gzip", "maybe", "not a boolean"),
        ("robots_txt", "2", "not a boolean"),
        ("respect_redirects", "sometimes", "not a boolean"),
        ("respect_canonical", "nein", "not a boolean"),
        ("max_urls", "50001", "out of range"),
        ("max_urls", "0", "out of range"),
        ("max_urls", "ten", "whole number"),
        ("max_bytes", "52428801", "out of range"),
        ("max_sitemaps_per_index", "50001", "out of range"),
        ("include", "[abc", "invalid glob"),
        ("exclude", "a**", "invalid glob"),
        ("base_url", "/relative", "absolute"),
        ("workers", "0", "out of range"),
        ("workers", "65", "out of range"),
        ("workers", "many", "whole number"),
    ],
)
def test_bad_values_name_the_key(key: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config({**BASE, key: value})
    assert info.value.key == key
    assert message in str(info.value)
    with pytest.raises(ConfigError) as from_env:
        load_config({} if key == "base_url" else BASE, {env_name(key): value})
    assert from_env.value.key == key


def test_workers_are_auto_or_a_number() -> None:
    assert load_config(BASE).workers is None  # the machine's cores
    assert load_config({**BASE, "workers": "auto"}).workers is None
    assert load_config({**BASE, "workers": " AUTO "}).workers is None
    assert load_config({**BASE, "workers": 4}).workers == 4
    assert load_config(BASE, {env_name("workers"): "2"}).workers == 2


SWITCHES = ("respect_noindex", "respect_redirects", "respect_canonical", "respect_robots_txt")


def test_respect_switches_default_to_true() -> None:
    config = load_config(BASE)
    assert [getattr(config, key) for key in SWITCHES] == [True] * len(SWITCHES)


@pytest.mark.parametrize("key", SWITCHES)
@pytest.mark.parametrize(
    "spelling",
    ["flag", "env", "file"],
)
def test_each_respect_switch_turns_off_alone(key: str, spelling: str) -> None:
    if spelling == "flag":
        config = load_config({**BASE, key: False})
    elif spelling == "env":
        config = load_config(BASE, {env_name(key): "false"})
    else:
        config = load_config({}, {}, {**BASE, key: False})
    assert [getattr(config, other) for other in SWITCHES] == [other != key for other in SWITCHES]


def test_base_url_is_required() -> None:
    with pytest.raises(ConfigError, match="base_url: is required"):
        load_config({})
    assert load_config({}, require_base_url=False).base_url == ""


def test_rules_parse_in_order() -> None:
    rules = [
        {"pattern": "blog/**", "changefreq": "weekly", "priority": 0.8},
        {"pattern": "tmp/", "exclude": True},
        {"pattern": "*.pdf", "priority": 1},
    ]
    config = load_config(BASE, {}, {"rules": rules})
    assert [rule.pattern.pattern for rule in config.rules] == ["blog/**", "tmp/", "*.pdf"]
    assert config.rules[0].changefreq is ChangeFreq.WEEKLY
    assert config.rules[0].priority == "0.8"
    assert config.rules[1].exclude is True
    assert config.rules[2].priority == "1.0"


@pytest.mark.parametrize(
    ("rule", "key"),
    [
        ({"pattern": "x", "priority": 1.5}, "rules[1].priority"),
        ({"pattern": "x", "priority": -0.1}, "rules[1].priority"),
        ({"pattern": "x", "priority": "high"}, "rules[1].priority"),
        ({"pattern": "x", "changefreq": "sometimes"}, "rules[1].changefreq"),
        ({"pattern": "x", "exclude": "perhaps"}, "rules[1].exclude"),
        ({"changefreq": "daily"}, "rules[1].pattern"),
        ({"pattern": "[x"}, "rules[1].pattern"),
        ({"pattern": "x", "weight": 3}, "rules[1].weight"),
    ],
)
def test_bad_rules_name_the_rule_and_key(rule: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(BASE, {}, {"rules": [rule]})
    assert info.value.key == key


def test_rules_are_file_only() -> None:
    config = load_config(BASE, {"SITEMILL_RULES": "anything"})
    assert config.rules == ()


def test_config_file(tmp_path: Path) -> None:
    path = tmp_path / "sitemill.toml"
    path.write_text(
        'base_url = "https://example.com/"\nlastmod = "mtime"\ntemplates_dir = "tpl"\n'
        '[[rules]]\npattern = "a/**"\nchangefreq = "daily"\n',
        encoding="utf-8",
    )
    config = load_config({}, {}, read_config_file(path))
    assert config.lastmod is LastmodMode.MTIME
    assert config.templates_dir == tmp_path / "tpl"
    assert config.rules[0].changefreq is ChangeFreq.DAILY


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("base_url = ", "cannot read"),
        ('base_ur1 = "https://x/"', "base_ur1: unknown key"),
    ],
)
def test_bad_config_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "sitemill.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        read_config_file(path)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        read_config_file(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("text", "value"), [("TRUE", True), ("yes", True), ("0", False), ("Off", False)]
)
def test_parse_bool(text: str, value: bool) -> None:
    assert parse_bool("gzip", text) is value


def test_every_key_has_an_env_spelling() -> None:
    assert env_name("max_urls") == "SITEMILL_MAX_URLS"
    assert "rules" in CONFIG_KEYS and "templates_dir" in CONFIG_KEYS


# --- reading the file as an attacker or a careless user would leave it ----------------------


def within_deadline(action: Callable[[], object]) -> None:
    """Run ``action`` in a thread; fail (not hang) when it blocks (a FIFO)."""
    outcome: list[BaseException] = []

    def target() -> None:
        try:
            action()
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "blocked reading the config file"
    if outcome:
        raise outcome[0]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda path: os.mkfifo(path), "is a FIFO, not a regular file"),
        (lambda path: path.symlink_to("/dev/zero"), "is a character device"),
        (lambda path: path.mkdir(), "is a directory"),
        (
            lambda path: path.write_bytes(b"# " + b"x" * MAX_CONFIG_BYTES),
            f"is larger than {MAX_CONFIG_BYTES:,} bytes",
        ),
        (lambda path: path.write_text("a = " + "[" * 50_000), "nested too deeply"),
        (lambda path: path.write_text("a = " + "{b=" * 50_000), "nested too deeply"),
        # tomllib's cost grows with the square of a dotted key: this would take minutes and GBs
        (lambda path: path.write_text("a" + ".a" * 200_000 + " = 1"), "dotted key of more"),
        (lambda path: path.write_text("[" + "a." * 200_000 + "a]"), "dotted key of more"),
        (lambda path: path.write_text("x = {" + "a." * 100 + "a = 1}"), "dotted key of more"),
        (lambda path: path.write_bytes(b'base_url = "\xff"'), "is not UTF-8"),
    ],
    ids=[
        "fifo",
        "dev zero",
        "directory",
        "huge",
        "deep array",
        "deep table",
        "long key",
        "long header",
        "long inline key",
        "not utf-8",
    ],
)
def test_hostile_config_files_are_one_config_error(
    tmp_path: Path, make: Callable[[Path], None], message: str
) -> None:
    path = tmp_path / "sitemill.toml"
    make(path)
    with pytest.raises(ConfigError, match=message) as info:
        within_deadline(lambda: read_config_file(path))
    assert info.value.key == "config"


def refusal(path: Path) -> str:
    """The one line a config file is refused with."""
    with pytest.raises(ConfigError) as info:
        read_config_file(path)
    return str(info.value)


@pytest.mark.parametrize(
    "shape",
    [
        lambda n: "a = " + "[" * n,
        lambda n: "a = " + "{b=" * (n // 3),
        lambda n: "a" + ".a" * (n // 2) + " = 1",
        lambda n: "[" + "a." * (n // 2) + "a]",
    ],
    ids=["deep array", "deep table", "long key", "long header"],
)
def test_hostile_config_files_are_refused_in_linear_time(
    tmp_path: Path, shape: Callable[[int], str]
) -> None:
    # tomllib's cost grows with the square of a dotted key: 8x the key, 64x the time unread.
    small, large = tmp_path / "small.toml", tmp_path / "large.toml"
    small.write_text(shape(50_000))
    large.write_text(shape(400_000))
    assert timing.linear(refusal, small, large, 20)


def test_dots_in_strings_and_comments_are_not_key_parts(tmp_path: Path) -> None:
    path = tmp_path / "sitemill.toml"
    many = "." * 100
    path.write_text(
        f'base_url = "https://example.com/{many}"  # {many}\n'
        f'exclude = [\'{many}\', """{many}"""]\nmax_bytes = 1_024\n'
        '[[rules]]\npattern = "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f"\n'
    )
    assert read_config_file(path)["max_bytes"] == 1024


def test_a_config_found_inside_a_root_stays_inside_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (tmp_path / "outside.toml").write_text('base_url = "https://example.com/"\n')
    link = site / "sitemill.toml"
    link.symlink_to("../outside.toml")
    with pytest.raises(ConfigError, match=r"config: .* leads outside"):
        read_config_file(link, root=site)
    # Named by the operator (no root): anywhere, as long as it is a regular file.
    assert read_config_file(link)["base_url"] == "https://example.com/"
    (tmp_path / "tpl").mkdir()
    (site / "tpl").mkdir()
    (site / "linked").symlink_to("../tpl")
    own = site / "own.toml"
    for value, allowed in [("tpl", True), ("../tpl", False), ("/", False), ("linked", False)]:
        own.write_text(f'templates_dir = "{value}"\n')
        if allowed:
            assert read_config_file(own, root=site)["templates_dir"] == str(site / value)
        else:
            with pytest.raises(ConfigError, match=r"templates_dir: .* leads outside"):
                read_config_file(own, root=site)
        assert read_config_file(own)["templates_dir"] == str(site / value)


@pytest.mark.parametrize("key", ["state", "previous_state"])
def test_a_found_config_file_cannot_send_the_state_outside_its_folder(
    tmp_path: Path, key: str
) -> None:
    # A committed sitemill.toml must not make `sitemill build` replace ~/.bashrc.
    site = tmp_path / "site"
    site.mkdir()
    own = site / "sitemill.toml"
    for value, allowed in [
        ("keep/state.json.gz", True),
        ("../state.json.gz", False),
        ("/etc/passwd", False),
    ]:
        own.write_text(f'{key} = "{value}"\n')
        if allowed:
            assert read_config_file(own, root=site)[key] == str(site / value)
        else:
            with pytest.raises(ConfigError, match=rf"{key}: .* leads outside"):
                read_config_file(own, root=site)
    own.write_text(f'{key} = "s3://bucket/key"\n')
    assert read_config_file(own, root=site)[key] == "s3://bucket/key"

"""Each form written for a small restructure, exactly, and read back by the real parsers."""

from __future__ import annotations

import json
import subprocess
import tomllib
from typing import Any

import botocore.session
import pytest
import yaml
from botocore.validate import ParamValidator
from node_cases import DOCUSAURUS_AS_SCRIPT, DOCUSAURUS_HOSTILE, recorded_answer

from sitemill.redirects import (
    MAX_ROUTING_RULES,
    Redirect,
    RedirectForm,
    redirect_notes,
    render_redirects,
)

MOVES = [
    Redirect("/docs/old/x.html", "/docs/new/x/"),
    Redirect("/docs/old/", "/docs/new/", 302),
    Redirect("/docs/gone.html", "https://other.example/g/"),
]

NETLIFY_LINES = """\
/docs/gone.html   https://other.example/g/  301
/docs/old/        /docs/new/  302
/docs/old/x.html  /docs/new/x/  301
"""
MKDOCS_MAPS = """\
plugins:
  - redirects:
      redirect_maps:
        "gone.md": "https://other.example/g/"
        "old.md": "new.md"
        "old/x.md": "new/x.md"
"""
HUGO_BLOCKS = """\
# The page served at /docs/new/ takes in its front matter:
#   TOML (+++): aliases = ["/old/"]
"/docs/new/":
  aliases: ["/old/"]

# The page served at /docs/new/x/ takes in its front matter:
#   TOML (+++): aliases = ["/old/x.html"]
"/docs/new/x/":
  aliases: ["/old/x.html"]
"""
DOCUSAURUS = {
    "redirects": [
        {"from": "/gone.html", "to": "https://other.example/g/"},
        {"from": "/old/", "to": "/new/"},
        {"from": "/old/x.html", "to": "/new/x/"},
    ]
}


def body(text: str) -> str:
    """The text less its leading comment lines."""
    lines = text.splitlines(keepends=True)
    while lines and lines[0].startswith(("#", "\n")) and not lines[0].startswith("# The page"):
        lines.pop(0)
    return "".join(lines)


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        (RedirectForm.NETLIFY, NETLIFY_LINES),
        (RedirectForm.MKDOCS, MKDOCS_MAPS),
        (RedirectForm.HUGO, HUGO_BLOCKS),
        (
            RedirectForm.JEKYLL,
            HUGO_BLOCKS.replace("aliases", "redirect_from")
            .replace('#   TOML (+++): redirect_from = ["/old/"]\n', "")
            .replace('#   TOML (+++): redirect_from = ["/old/x.html"]\n', ""),
        ),
    ],
    ids=lambda value: getattr(value, "value", ""),
)
def test_each_text_form_writes_the_moves_sorted(form: RedirectForm, expected: str) -> None:
    text = render_redirects(list(reversed(MOVES)), form, base_path="/docs/")
    assert body(text) == expected
    assert text.startswith("# Redirects for the URLs this change removes")


def test_docusaurus_options_are_json_relative_to_the_site() -> None:
    text = render_redirects(MOVES, RedirectForm.DOCUSAURUS, base_path="/docs/")
    assert json.loads(text) == DOCUSAURUS
    outside = [*MOVES, Redirect("/blog/a/", "/docs/new/")]
    notes = redirect_notes(outside, RedirectForm.DOCUSAURUS, base_path="/docs/")
    assert any("/blog/a/ -> /docs/new/" in note for note in notes)


def test_s3_rules_are_a_website_configuration_botocore_accepts() -> None:
    text = render_redirects(MOVES, RedirectForm.S3_RULES, prefix="", host_name="www.example.com")
    config = json.loads(text)
    assert config["RoutingRules"][0] == {
        "Condition": {"KeyPrefixEquals": "docs/old/x.html", "HttpErrorCodeReturnedEquals": "404"},
        "Redirect": {
            "HostName": "www.example.com",
            "Protocol": "https",
            "ReplaceKeyWith": "docs/new/x/",
            "HttpRedirectCode": "301",
        },
    }
    # the longer key first: S3 applies the first rule whose prefix matches
    keys = [rule["Condition"]["KeyPrefixEquals"] for rule in config["RoutingRules"]]
    assert keys == ["docs/old/x.html", "docs/old/", "docs/gone.html"]
    assert_valid_website_configuration(config)


def assert_valid_website_configuration(config: dict[str, Any]) -> None:
    model = botocore.session.get_session().get_service_model("s3")
    shape = model.operation_model("PutBucketWebsite").input_shape
    params = {"Bucket": "site", "WebsiteConfiguration": config}
    report = ParamValidator().validate(params, shape)
    assert not report.has_errors(), report.generate_report()


def test_more_rules_than_s3_holds_say_so_and_name_the_objects_form() -> None:
    many = [Redirect(f"/p{i}.html", "/") for i in range(MAX_ROUTING_RULES + 1)]
    notes = redirect_notes(many, RedirectForm.S3_RULES)
    assert any("at most 50" in note and "s3-objects" in note for note in notes)
    assert not any(
        "at most 50" in note for note in redirect_notes(many[:50], RedirectForm.S3_RULES)
    )


def test_the_objects_script_is_posix_sh_with_every_value_quoted() -> None:
    text = render_redirects(MOVES, RedirectForm.S3_OBJECTS, bucket="my site")
    commands = [line for line in text.splitlines() if line.startswith("aws ")]
    assert commands[0] == (
        "aws s3api put-object --bucket 'my site' --key docs/gone.html"
        " --website-redirect-location https://other.example/g/"
    )
    assert "--key docs/old/index.html" in commands[1]  # a folder's URL: its index document
    assert "A redirect object always answers 301" in text
    subprocess.run(["sh", "-n"], input=text, text=True, check=True)


def test_without_a_bucket_the_script_asks_for_one() -> None:
    text = render_redirects(MOVES, RedirectForm.S3_OBJECTS)
    assert ': "${BUCKET:?' in text and '--bucket "$BUCKET"' in text


def test_one_redirect_per_source_and_the_same_text_whatever_the_order() -> None:
    doubled = [*MOVES, Redirect("/docs/old/x.html", "/docs/z/")]
    for form in RedirectForm:
        assert render_redirects(doubled, form) == render_redirects(doubled[::-1], form)
    assert "/docs/z/" not in render_redirects(doubled, RedirectForm.NETLIFY)


@pytest.mark.parametrize("form", [RedirectForm.HUGO, RedirectForm.JEKYLL, RedirectForm.MKDOCS])
def test_yaml_forms_load_and_hugo_toml_lines_load(form: RedirectForm) -> None:
    text = render_redirects(MOVES, form, base_path="/docs/")
    loaded = yaml.safe_load(text)
    if form is RedirectForm.MKDOCS:
        assert loaded["plugins"][0]["redirects"]["redirect_maps"]["old/x.md"] == "new/x.md"
        return
    key = "aliases" if form is RedirectForm.HUGO else "redirect_from"
    assert loaded == {"/docs/new/": {key: ["/old/"]}, "/docs/new/x/": {key: ["/old/x.html"]}}
    for line in text.splitlines():
        if line.startswith("#   TOML (+++): "):
            assert tomllib.loads(line.removeprefix("#   TOML (+++): "))["aliases"]


def test_a_base_path_leaves_out_what_is_outside_the_site() -> None:
    outside = [Redirect("/blog/a/", "/docs/b/"), Redirect("/docs/c/", "/shop/")]
    for form in (RedirectForm.HUGO, RedirectForm.MKDOCS, RedirectForm.JEKYLL):
        text = render_redirects(outside, form, base_path="/docs/")
        assert "# Left out" in text
        assert "#   /blog/a/ -> /docs/b/" in text or "# /blog/a/ -> /docs/b/" in text
    assert (
        json.loads(render_redirects(outside, RedirectForm.DOCUSAURUS, base_path="/docs"))[
            "redirects"
        ]
        == []
    )


@pytest.mark.parametrize(
    ("url", "page"),
    [("/", "index.md"), ("/a/b/", "a/b.md"), ("/a/b.html", "a/b.md"), ("/a/index.html", "a.md"),
     ("/v1.2/", "v1.2.md"), ("/a/b", "a/b.md"), ("/a/caf%C3%A9/", "a/café.md")],
)  # fmt: skip
def test_mkdocs_pages_are_guessed_from_the_urls(url: str, page: str) -> None:
    text = render_redirects([Redirect(url, "/new/")], RedirectForm.MKDOCS)
    assert yaml.safe_load(text)["plugins"][0]["redirects"]["redirect_maps"] == {page: "new.md"}
    assert "a guess" in text


def test_every_docusaurus_from_is_a_pathname_the_plugin_accepts() -> None:
    # node's answers (@docusaurus/utils isValidPathname's rule), recorded in node_answers.json
    text = render_redirects(DOCUSAURUS_HOSTILE, RedirectForm.DOCUSAURUS)
    accepted = recorded_answer("docusaurus pathnames")
    froms = [item["from"] for item in json.loads(text)["redirects"]]
    assert accepted == [True] * len(froms)
    assert len(froms) == len(DOCUSAURUS_HOSTILE) - 5  # ? # \\ and two controls: left out, said so
    notes = redirect_notes(DOCUSAURUS_HOSTILE, RedirectForm.DOCUSAURUS)
    assert sum(" -> /new/" in note for note in notes) == 5


def test_docusaurus_text_is_javascript_too() -> None:
    # node's reading of `const options = TEXT;`, recorded in node_answers.json
    text = render_redirects(DOCUSAURUS_AS_SCRIPT, RedirectForm.DOCUSAURUS)
    assert text.isascii()
    assert recorded_answer("docusaurus as javascript") == json.loads(text)
    assert json.loads(text)["redirects"][0]["from"] == "/\U0001f600/"


def test_no_header_line_and_no_script_line_is_broken_by_a_name() -> None:
    odd = [
        Redirect("/a%C2%A0b%E3%80%80c.html", "//cdn.example/x/"),  # NBSP, ideographic space
        Redirect("/d%E2%80%A8e.html", "/f/"),  # a line separator
        Redirect("/g%C2%85h.html", "/i/"),  # NEL
    ]
    script = render_redirects(odd, RedirectForm.S3_OBJECTS, bucket="b")
    commands = [line for line in script.splitlines() if line.startswith("aws ")]
    assert len(commands) == 1 and "'a\xa0b\u3000c.html'" in commands[0]
    assert "--website-redirect-location https://cdn.example/x/" in commands[0]
    assert script.count("\n") == len(script.splitlines())  # no other line break anywhere
    notes_base = render_redirects(odd, RedirectForm.MKDOCS, base_path="/x\n/y\u2028/")
    assert all(line.startswith(("#", "plugins", " ")) for line in notes_base.splitlines())
    yaml.safe_load(notes_base)

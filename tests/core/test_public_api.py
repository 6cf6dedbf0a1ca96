"""The public API in sitemill/__init__.py is honest: every name resolves to its home object."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import sitemill
from sitemill import _HOMES

REQUIRED = {
    "build_from_tree",
    "build_from_url_list",
    "rebuild_bucket",
    "BucketSite",
    "load_config",
    "Config",
    "Sink",
    "MemorySink",
    "LocalDirSink",
    "S3Sink",
    "SitemillError",
}


def test_all_lists_exactly_the_names_it_resolves() -> None:
    assert sitemill.__all__ == sorted(_HOMES)
    assert set(sitemill.__all__) >= REQUIRED
    assert set(dir(sitemill)) == {*sitemill.__all__, "__version__"}


def test_every_public_name_is_the_object_of_its_home_module() -> None:
    for name in sitemill.__all__:
        value = getattr(sitemill, name)
        assert value is getattr(importlib.import_module(_HOMES[name]), name), name
        assert inspect.getdoc(value), f"{name} has no docstring"


def test_every_error_is_in_the_one_tree() -> None:
    errors = importlib.import_module("sitemill.errors")
    classes = [
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == "sitemill.errors"
    ]
    assert all(issubclass(cls, sitemill.SitemillError) for cls in classes)
    public_errors = {
        name
        for name in sitemill.__all__
        if isinstance(getattr(sitemill, name), type)
        and issubclass(getattr(sitemill, name), BaseException)
    }
    assert {cls.__name__ for cls in classes} == public_errors


def _docstring_tree() -> dict[str, str | None]:
    """The tree drawn in sitemill.errors' docstring: each class and its parent (None: root)."""
    errors = importlib.import_module("sitemill.errors")
    parents: dict[str, str | None] = {}
    stack: list[str] = []
    for line in (errors.__doc__ or "").splitlines():
        drawn = re.match(r"^    ((?:[│ ]   )*)(?:[├└]── )?([A-Z]\w+Error)\b", line)
        if drawn is None:
            continue
        depth = len(drawn[1]) // 4 + (1 if "──" in line else 0)
        del stack[depth:]
        parents[drawn[2]] = stack[-1] if stack else None
        stack.append(drawn[2])
    return parents


def test_the_tree_in_the_docstring_is_every_error_with_its_parent() -> None:
    errors = importlib.import_module("sitemill.errors")
    classes = {
        value.__name__: value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == "sitemill.errors"
    }
    drawn = _docstring_tree()
    assert set(drawn) == set(classes)
    for name, parent in drawn.items():
        bases = [base.__name__ for base in classes[name].__bases__ if base.__name__ in classes]
        assert bases == ([] if parent is None else [parent]), name


# Control-flow signals that never reach a user as such; the errors docstring names each.
SIGNALS = {
    "sitemill.validate.violation.DocumentStop",
    "sitemill.scaleout._shardworker.FullRebuildNeeded",
    "sitemill.aws._logs.RedactedError",
}


def test_the_signals_are_named_and_not_public() -> None:
    errors = importlib.import_module("sitemill.errors")
    for signal in SIGNALS:
        home, _, name = signal.rpartition(".")
        assert issubclass(getattr(importlib.import_module(home), name), sitemill.SitemillError)
        assert signal in " ".join((errors.__doc__ or "").split()), signal
        assert name not in sitemill.__all__


def test_no_other_module_defines_an_exception() -> None:
    import pkgutil

    found = []
    for info in pkgutil.walk_packages(sitemill.__path__, "sitemill."):
        if info.name.startswith(("sitemill.templates", "sitemill.schemas")) or info.name.endswith(
            "__main__"
        ):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and info.name != "sitemill.errors"
            ):
                found.append(f"{info.name}.{value.__name__}")
    # Private control-flow signals stay local; they never reach a user.
    assert [
        name
        for name in found
        if not name.rpartition(".")[2].startswith("_") and name not in SIGNALS
    ] == []


def test_importing_sitemill_is_cheap_and_needs_no_jinja_or_boto3() -> None:
    code = (
        "import sys, sitemill; "
        "print(sorted(m for m in ('jinja2', 'boto3', 'botocore') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_names_raise_attribute_error() -> None:
    try:
        sitemill.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_building_from_a_tree_loads_no_aws_scale_out_or_validation_module() -> None:
    code = (
        "import sys; from sitemill import build_from_tree; "
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in ("
        "['sitemill', 'aws'], ['sitemill', 'scaleout'], ['sitemill', 'validate'], "
        "['sitemill', 'cli'], ['sitemill', 'github']) or m in ('boto3', 'botocore', 'lxml')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_public_runs_write_the_outputs_the_config_turns_on(tmp_path: Path) -> None:
    """A program calling sitemill as a library gets sitemap.html and llms.txt as the CLI does:
    the runs of sitemill.jobs write only what their front end passes (the core names no
    feature), and sitemill.library is that front end."""
    site = tmp_path / "site"
    site.mkdir()
    page = "<html><head><title>{0}</title></head><body><main><h1>{0}</h1><p>Words.</p></main>"
    for name in ("index", "about"):
        (site / f"{name}.html").write_text(page.format(name), encoding="utf-8")
    config = sitemill.load_config(
        {"base_url": "https://example.org/", "html_sitemap": True, "llms_txt": "on"}
    )
    sink = sitemill.MemorySink()
    sitemill.build_from_tree(config, site, sink)
    assert {"sitemap.xml", "sitemap.html", "llms.txt"} <= set(sink.files)
    listed = sitemill.MemorySink()
    listing = sitemill.load_config({"base_url": "https://example.org/", "html_sitemap": True})
    sitemill.build_from_url_list(listing, ["https://example.org/a"], listed)
    assert {"sitemap.xml", "sitemap.html"} <= set(listed.files)

"""The pages a commit changed, where a census asks how many of them made an edit, are those it
edited: not those it deleted, nor those it added (issue 79, read93b: an Asciidoctor Gradle
plugin deploy bumped the release and the year on 88 and 80 of its pages, and deleted 69 pages a
later deploy put back, which were counted among its 185). Shaped like a generated API
reference, one folder per module (each its own section). Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

DOCS = tuple(f"api-{name}" for name in ("base", "jvm", "js", "gems", "leanpub", "slides"))
OLD = tuple(f"legacy/{name}" for name in ("pdf", "epub", "kindle", "editor", "groovy", "jruby"))
NEW = tuple(f"guide/{name}" for name in ("start", "tasks", "options", "gems", "docker", "faq"))


def page(path: str, release: str, revised: bool) -> str:
    """A package page naming the plugin's ``release`` (``revised``: a paragraph of its own
    more)."""
    name = path.rsplit("/", 1)[-1]
    body = [f"<h1>Package {name}</h1>", f"<p>What the {name} package of the plugin {release}"]
    body += [" release holds.</p>", f"<p>How {name} is used.</p>" if revised else ""]
    head = f"<head><title>{name} - Plugin API</title></head>"
    return f"<html>{head}<body><main>{''.join(body)}</main></body></html>\n"


def reference(
    release: str, paths: tuple[str, ...], revised: tuple[str, ...] = ()
) -> dict[str, str | None]:
    """The pages of ``paths`` at ``release``, those of ``revised`` with words of their own."""
    return {f"{path}/index.html": page(path, release, path in revised) for path in paths}


def gone(paths: tuple[str, ...]) -> dict[str, str | None]:
    return {f"{path}/index.html": None for path in paths}


def test_pages_a_deploy_deleted_are_not_counted_among_those_it_edited(tmp_path: Path) -> None:
    # The second deploy bumped the release on the six API pages and deleted six legacy pages;
    # the third put those back. Six of the six pages it edited made the bump.
    found = dated(
        tmp_path,
        [
            reference("Aurora", DOCS + OLD),
            reference("Borealis", DOCS) | gone(OLD),
            reference("Borealis", DOCS + OLD),
        ],
    )
    expected = {path: at(0) for path in DOCS} | {path: at(2) for path in OLD}
    assert found == expected, sorted(found.items())


def test_pages_a_deploy_added_are_not_counted_among_those_it_edited(tmp_path: Path) -> None:
    # The second deploy bumped the release on the six API pages and added six guide pages,
    # which the third revised: the added pages made no edit there, and six of the six it
    # edited made the bump.
    found = dated(
        tmp_path,
        [
            reference("Aurora", DOCS),
            reference("Borealis", DOCS + NEW),
            reference("Borealis", DOCS + NEW, revised=NEW),
        ],
    )
    expected = {path: at(0) for path in DOCS} | {path: at(2) for path in NEW}
    assert found == expected, sorted(found.items())

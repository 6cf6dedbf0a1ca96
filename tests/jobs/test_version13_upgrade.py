"""Fingerprint version 13 (issue 79: a header whose <h1> names the page's kind is the page's own;
the excerpt window counts the text's letters): a state of version 12, the previous one, keeps
every date on the upgrade, in a build folder and in a git checkout; then the next edit of the
header, which version 12 did not read, moves its page's date."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state
from upgrades import BASE, OTHER_PAGE, as_version, first_build, lastmods, run, write_pages

T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000
PREAMBLE = "This functor keeps a pool of connecions for reuse."
SENTENCE = "Actors are objects which encapsulate state and behavior."
STD = "https://doc.rust-lang.org/nightly/core/marker/trait.Bound{}.html"


def module(preamble: str = PREAMBLE, build: str = "2.0") -> bytes:
    """odoc 2.2's module page: the preamble in the header beside "Module Pool.Make"."""
    return (
        f'<!DOCTYPE html><html><head><title>Make (pkg.Pool.Make)</title><meta name="generator"'
        f' content="odoc {build}"></head><body><nav><a href="../index.html">Up</a></nav>'
        f"<header><h1>Module <code>Pool.Make</code></h1><p>{preamble}</p></header>"
        "<div><h2>Parameters</h2><code>module Conn</code></div></body></html>\n"
    ).encode()


def trait(build: str = "1.70") -> bytes:
    """rustdoc's trait page: a signature of sixty links, then the sentence its description is."""
    bounds = " + ".join(f'<a href="{STD.format(n)}">B{n}</a>' for n in range(60))
    return (
        "<!DOCTYPE html><html><head><title>Actor in actix::prelude - Rust</title>"
        f'<meta name="description" content="{SENTENCE}"><meta name="generator"'
        f' content="rustdoc {build}"></head><body><main><h1>Trait Actor</h1>'
        f"<pre>pub trait Actor: {bounds} {{ }}</pre><p>{SENTENCE}</p></main></body></html>\n"
    ).encode()


def pages(preamble: str = PREAMBLE, build: str = "2.0") -> dict[str, bytes]:
    return {
        "pkg/Pool/Make/index.html": module(preamble, build),
        "prelude/trait.Actor.html": trait(build),
        "other.html": OTHER_PAGE,
    }


def test_a_state_of_version_12_keeps_every_date_then_the_header_counts(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    first = first_build(site, out, pages(), T1)
    as_version(site, out, 12)  # (the state as sitemill of version 12 wrote it)
    for name, data in pages().items():
        if name != "other.html":  # (each page of the two rules: 12 reads it otherwise)
            url = BASE + name
            assert fingerprint_html(data, version=12, url=url) != fingerprint_html(data, url=url)

    write_pages(site, pages(build="2.2"), T2, spread=False)  # (a CI build: every page anew)
    report = run(site, out)
    assert lastmods(out) == first and report.dates == {"kept": 3}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION == 13  # (written anew, in 13)

    # The preamble's typo fixed: a word a reader sees, which version 12 left out.
    fixed = PREAMBLE.replace("connecions", "connections")
    write_pages(site, pages(fixed, build="2.2"), T3, spread=False)
    report = run(site, out)
    at_t3 = lastmod_from_timestamp(T3, Precision.DATETIME)
    assert lastmods(out) == {**first, "pkg/Pool/Make/": at_t3}
    assert report.dates == {"kept": 2, "content changed": 1}


def test_a_git_checkout_with_a_state_of_version_12_keeps_every_date(tmp_path: Path) -> None:
    # The state holds the dates the history gives, its fingerprints version 12's: compared by
    # version 12's bytes, no date moves, and the state is written anew in 13.
    g1, g2 = "2024-01-10 09:00:00", "2024-02-20 10:00:00"
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, pages(), g1)
    commit(repo, {"pkg/Pool/Make/index.html": module(build="2.2")}, g2)  # (odoc's comment only)
    config = load_config({"base_url": BASE, "lastmod": "git"})
    build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    first = lastmods(out)
    at_g1 = lastmod_from_timestamp(unix(g1), Precision.DATETIME)
    assert set(first.values()) == {at_g1} and len(first) == 3
    state = out / STATE_NAME
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["fingerprint_version"] = 12
    for name, record in document["pages"].items():
        if name.endswith(".html"):
            data = (repo / name).read_bytes()
            record["fingerprint"] = fingerprint_html(data, version=12, url=BASE + name)
    state.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    report = build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    assert lastmods(out) == first and report.dates == {"kept": 3}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION

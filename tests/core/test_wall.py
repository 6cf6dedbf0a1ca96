"""The wall around what sitemill reads and writes, tested as an attacker and a careless user would.

Every case is built for real in tmp_path: symbolic links out of the site (to a secret, to
``/proc/self/environ``, to ``/dev/zero``), FIFOs, devices, huge sparse files, links in the output
folder. The rules (sitemill.safefs): a file is read only where it resolves inside its root and
only when it is a regular file, never more than a bound; writes never follow a link.
"""

from __future__ import annotations

import os
import stat
import subprocess
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.errors import RefusedError, SinkError
from sitemill.jobs._treerobots import read_robots
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES
from sitemill.safefs import Root, read_regular
from sitemill.sinks import LocalDirSink, MemorySink

SECRET = "ghp_SECRETTOKEN0123456789"
# What a leaked git config or environment would look like in a committed robots.txt.
SECRET_CONFIG = (
    '[remote "origin"]\n\turl = https://github.com/o/r\n'
    f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n"
    "User-agent: *\nDisallow: /\n"  # were it read as robots.txt, nothing would be listed
)
DEADLINE = 600  # seconds: only a hang reaches it (at load 50, 20 s failed one-second builds)


def sitemill(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_sitemill(*args, env=env, timeout=DEADLINE, process=True)  # (a hang fails)


def within_deadline(action: Callable[[], Any]) -> Any:
    """Run ``action`` in a thread; fail (not hang) when it does not finish in time."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = action()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    assert not thread.is_alive(), "blocked: sitemill waited on a FIFO or an endless file"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def output_bytes(folder: Path) -> bytes:
    """Every file sitemill may have written (a link left in place is not one)."""
    return b"".join(
        p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and not p.is_symlink()
    )


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A repository's .git/config next to the site, holding a token."""
    config = tmp_path / ".git" / "config"
    config.parent.mkdir()
    config.write_text(SECRET_CONFIG, encoding="utf-8")
    return config


def has_proc_environ() -> bool:
    return Path("/proc/self/environ").exists()


def make_device(path: Path) -> None:
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")


# --- safefs: the primitive ----------------------------------------------------------------


def test_a_regular_file_inside_is_read_up_to_the_limit(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"0123456789")
    root = Root(tmp_path)
    assert root.read("a.txt", 4) == b"0123"
    assert root.read("a.txt", 100) == b"0123456789"
    assert root.read("missing.txt", 4) is None
    with pytest.raises(RefusedError, match="is larger than 4 bytes"):
        root.read("a.txt", 4, whole=True)


def test_a_page_is_looked_at_once_before_it_is_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The root's lstat of the page (is it a link?) tells what it is: no stat again before the
    # open (each page of a 10,000-page tree paid both). A page behind a link is stat'ed again.
    for name in ("a.html", "b.html", "c.html"):
        (tmp_path / name).write_text(name)
    (tmp_path / "d.html").symlink_to("c.html")
    root = Root(tmp_path)
    assert root.read("a.html", 100) == b"a.html"  # (its folder resolved once, here)
    looked: list[str] = []
    for name in ("stat", "lstat"):
        call = getattr(os, name)
        monkeypatch.setattr(
            os, name, lambda *a, _c=call, _n=name, **k: looked.append(_n) or _c(*a, **k)
        )
    assert root.read("b.html", 100) == b"b.html"
    assert looked == ["lstat"]
    assert root.read("d.html", 100) == b"c.html"
    assert root.read("e.html", 100) is None


def test_proc_files_are_regular_so_the_root_is_what_stops_them(tmp_path: Path) -> None:
    if not has_proc_environ():
        pytest.skip("no /proc")
    # /proc/self/environ says it is a regular file of size 0 and holds the environment:
    # neither the file type nor the size can stop it; only the root can.
    info = os.stat("/proc/self/environ")
    assert stat.S_ISREG(info.st_mode) and info.st_size == 0
    (tmp_path / "environ.html").symlink_to("/proc/self/environ")
    with pytest.raises(RefusedError, match="leads outside"):
        Root(tmp_path).read("environ.html", 1024)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda site: (site / "x").symlink_to(site.parent / "secret.txt"), "leads outside"),
        (lambda site: (site / "x").symlink_to("../secret.txt"), "leads outside"),
        (lambda site: (site / "x").symlink_to("/"), "leads outside"),
        (lambda site: (site / "x").symlink_to(".git/config"), "hidden path"),
        (lambda site: (site / "x").symlink_to("x"), "symbolic link loop"),
        (lambda site: os.mkfifo(site / "x"), "is a FIFO, not a regular file"),
        (lambda site: (site / "x").mkdir(), "is a directory"),
        (lambda site: os.mknod(site / "x", 0o600 | stat.S_IFSOCK), "is a socket"),
    ],
    ids=[
        "absolute link out",
        "relative link out",
        "link to /",
        "link into .git",
        "loop",
        "FIFO",
        "directory",
        "socket",
    ],
)
def test_what_is_refused(tmp_path: Path, make: Callable[[Path], None], reason: str) -> None:
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)
    (site / ".git" / "config").write_text(SECRET)
    (tmp_path / "secret.txt").write_text(SECRET)
    make(site)
    with pytest.raises(RefusedError, match=reason):
        within_deadline(lambda: Root(site).read("x", 1024))


def test_links_inside_the_root_are_followed(tmp_path: Path) -> None:
    (tmp_path / "v2").mkdir()
    (tmp_path / "v2" / "a.html").write_text("v2")
    (tmp_path / "latest").symlink_to("v2")
    (tmp_path / "b.html").symlink_to("v2/a.html")
    root = Root(tmp_path)
    assert root.read("latest/a.html", 10) == b"v2"
    assert root.read("b.html", 10) == b"v2"


def test_devices_and_link_at_the_last_component(tmp_path: Path) -> None:
    with pytest.raises(RefusedError, match="is a character device"):
        read_regular("/dev/zero", 10)
    (tmp_path / "target").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert read_regular(tmp_path / "link", 10) == b"x"
    with pytest.raises(RefusedError, match="is a symbolic link"):
        read_regular(tmp_path / "link", 10, follow_symlinks=False)


def test_a_huge_sparse_file_is_read_only_to_the_limit(tmp_path: Path) -> None:
    huge = tmp_path / "huge.html"
    with open(huge, "wb") as out:
        out.write(b"<html>")
        out.truncate(8 * 1024**3)  # 8 GiB, sparse: reading it all would fill memory
    tracemalloc.start()
    try:
        assert len(Root(tmp_path).read("huge.html", 64 * 1024) or b"") == 64 * 1024
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024  # nothing past the limit is read


# --- robots.txt of the site -----------------------------------------------------------------


@pytest.mark.parametrize("target", ["secret", "proc", "devzero", "fifo", "huge"])
def test_the_sites_robots_txt_is_never_read_outside_or_unbounded(
    make_site: SiteMaker, tmp_path: Path, secret: Path, target: str
) -> None:
    site = make_site({"index.html": page(), "a.html": page()})
    robots = site / "robots.txt"
    if target == "secret":
        robots.symlink_to("../.git/config")
    elif target == "proc":
        if not has_proc_environ():
            pytest.skip("no /proc")
        robots.symlink_to("/proc/self/environ")
    elif target == "devzero":
        robots.symlink_to("/dev/zero")
    elif target == "fifo":
        os.mkfifo(robots)
    else:  # a regular robots.txt of 4 GiB (sparse): only Google's 500 KiB count
        with open(robots, "wb") as out:
            out.write(b"User-agent: *\nDisallow: /a.html\n")
            out.truncate(4 * 1024**3)
    warnings: list[str] = []
    rules = within_deadline(lambda: read_robots(site, warnings))
    if target == "huge":
        assert rules is not None and not rules.allows("/a.html") and rules.allows("/")
        assert warnings == []
    else:
        assert rules is None
        (warning,) = warnings
        assert "ignoring the site's robots.txt" in warning


@pytest.mark.parametrize("target", ["secret", "proc"])
def test_a_robots_txt_link_leaks_nothing_into_the_output(
    make_site: SiteMaker, tmp_path: Path, secret: Path, target: str
) -> None:
    site = make_site({"index.html": page(), "a.html": page()})
    if target == "proc" and not has_proc_environ():
        pytest.skip("no /proc")
    (site / "robots.txt").symlink_to(
        "../.git/config" if target == "secret" else "/proc/self/environ"
    )
    out = tmp_path / "out"
    result = sitemill(
        "build", str(site), "--base-url", BASE_URL, "--out", str(out), "--robots-txt",
        env={"AWS_SECRET_ACCESS_KEY": SECRET, "GITHUB_TOKEN": SECRET},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "ignoring the site's robots.txt" in result.stderr
    written = output_bytes(out)
    assert SECRET.encode() not in written and b"extraheader" not in written
    assert (out / "robots.txt").read_text() == f"Sitemap: {BASE_URL}sitemap.xml\n"
    # the secret's "Disallow: /" was not obeyed either: it was never read
    assert f"<loc>{BASE_URL}a.html</loc>" in (out / "sitemap.xml").read_text()


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_build_with_a_fifo_or_dev_zero_robots_txt_ends(
    make_site: SiteMaker, tmp_path: Path, kind: str
) -> None:
    site = make_site({"index.html": page()})
    if kind == "fifo":
        os.mkfifo(site / "robots.txt")
    else:
        (site / "robots.txt").symlink_to("/dev/zero")
    out = tmp_path / "out"
    result = sitemill("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "ignoring the site's robots.txt" in result.stderr
    assert (out / "sitemap.xml").exists()


# --- pages ----------------------------------------------------------------------------------


def test_pages_leading_outside_or_not_regular_are_not_listed(
    make_site: SiteMaker, tmp_path: Path, secret: Path
) -> None:
    site = make_site({"index.html": page()})
    (tmp_path / "elsewhere.html").write_text(page("outside"))
    (site / "outside.html").symlink_to("../elsewhere.html")
    (site / "config.html").symlink_to("../.git/config")
    (site / "inside.html").symlink_to("index.html")  # a link inside the site is a page
    os.mkfifo(site / "fifo.html")
    if has_proc_environ():
        (site / "environ.html").symlink_to("/proc/self/environ")
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime"})
    sink = MemorySink()
    report = within_deadline(lambda: build_from_tree(config, site, sink))
    text = sink.files["sitemap.xml"].decode()
    assert text.count("<loc>") == 2
    assert f"<loc>{BASE_URL}inside.html</loc>" in text and f"<loc>{BASE_URL}</loc>" in text
    outside = [w for w in report.warnings if "leading outside the site" in w]
    assert len(outside) == 1  # one summary line, however many links
    assert outside[0].startswith(f"skipped {3 if has_proc_environ() else 2} symbolic links")
    assert "skipped 1 FIFO, socket or device: fifo.html" in report.warnings


def test_page_facts_come_from_a_bounded_prefix(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    with open(site / "big.html", "wb") as out:
        out.write(page("big", '<meta name="robots" content="noindex">').encode())
        out.truncate(4 * 1024**3)  # the tail is never read
    config = load_config({"base_url": BASE_URL, "lastmod": "none"})
    sink = MemorySink()
    tracemalloc.start()
    try:
        report = build_from_tree(config, site, sink)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024**2  # far from the 4 GiB a whole read would hold
    assert report.skipped and "big.html" not in sink.files["sitemap.xml"].decode()


# --- the output folder ----------------------------------------------------------------------


def test_a_robots_txt_link_in_the_output_folder_is_never_read_or_written_through(
    make_site: SiteMaker, tmp_path: Path, secret: Path
) -> None:
    site = make_site({"index.html": page()})
    (site / "robots.txt").symlink_to("../.git/config")
    before = secret.read_bytes(), secret.stat().st_mtime_ns
    result = sitemill("build", str(site), "--base-url", BASE_URL, "--robots-txt")
    assert result.returncode == 1
    assert "refusing to read or replace" in result.stderr and "symbolic link" in result.stderr
    assert result.stderr.count("sitemill: error:") == 1 and "Traceback" not in result.stderr
    assert (secret.read_bytes(), secret.stat().st_mtime_ns) == before
    assert (site / "robots.txt").is_symlink()
    assert SECRET.encode() not in output_bytes(site)


def test_own_names_that_are_links_are_replaced_not_written_through(tmp_path: Path) -> None:
    out, target = tmp_path / "out", tmp_path / "target.txt"
    out.mkdir()
    target.write_text("keep me")
    (out / "sitemap-1.xml").symlink_to(target)
    (out / "sitemap-2.xml").symlink_to(target)
    sink = LocalDirSink(out)
    assert list(sink.names()) == []  # links are not files sitemill wrote
    staged = tmp_path / "staged.xml"
    staged.write_text("keep me")  # the same bytes as the target: still not "held"
    assert not sink.holds("sitemap-1.xml", staged)
    assert sink.put("sitemap-1.xml", b"<urlset/>", content_type="application/xml")
    assert sink.put_file("sitemap-2.xml", staged, content_type="application/xml")
    assert target.read_text() == "keep me"
    assert not (out / "sitemap-1.xml").is_symlink()
    assert (out / "sitemap-1.xml").read_bytes() == b"<urlset/>"
    (out / "sitemap-3.xml").symlink_to(target)
    sink.delete("sitemap-3.xml")
    assert not os.path.lexists(out / "sitemap-3.xml") and target.exists()
    assert sorted(os.listdir(out)) == ["sitemap-1.xml", "sitemap-2.xml"]  # no temp files


@pytest.mark.parametrize("kind", ["link", "fifo", "device", "directory", "too big"])
def test_the_sink_reads_only_bounded_regular_files(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    robots = out / "robots.txt"
    if kind == "link":
        robots.symlink_to("/etc/hostname")
    elif kind == "fifo":
        os.mkfifo(robots)
    elif kind == "device":
        make_device(robots)
    elif kind == "directory":
        robots.mkdir()
    else:
        with open(robots, "wb") as handle:
            handle.truncate(MAX_ROBOTS_TXT_BYTES + 1)
    with pytest.raises(SinkError, match="refusing to read or replace"):
        within_deadline(lambda: LocalDirSink(out).read("robots.txt"))


def test_the_sink_reads_regular_files(tmp_path: Path) -> None:
    (tmp_path / "robots.txt").write_bytes(b"x" * MAX_ROBOTS_TXT_BYTES)
    assert LocalDirSink(tmp_path).read("robots.txt") == b"x" * MAX_ROBOTS_TXT_BYTES
    assert LocalDirSink(tmp_path).read("sitemap.xml") is None


def test_an_output_folder_linked_out_of_the_site_is_refused(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (site / "public").symlink_to(elsewhere)
    config = load_config({"base_url": BASE_URL, "lastmod": "none"})
    out = site / "public"
    with pytest.raises(SinkError, match="inside the site but leads outside it"):
        build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert list(elsewhere.iterdir()) == []
    # An output folder the operator names outside the site is theirs to choose.
    build_from_tree(config, site, LocalDirSink(elsewhere), output_dir=elsewhere)
    assert (elsewhere / "sitemap.xml").exists()


def test_an_output_folder_linked_inside_the_site_is_fine(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page(), "public/a.html": page()})
    (site / "out").symlink_to("public")
    config = load_config({"base_url": BASE_URL, "lastmod": "none"})
    out = site / "out"
    build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert (site / "public" / "sitemap.xml").exists()


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap-index-2.xml"])
def test_an_index_name_that_is_a_link_is_replaced_by_a_build(
    make_site: SiteMaker, tmp_path: Path, name: str
) -> None:
    site = make_site({f"p{number}.html": page() for number in range(5)})
    out, target = tmp_path / "out", tmp_path / "secret.txt"
    out.mkdir()
    target.write_text("<sitemapindex><sitemap><loc>https://x/sitemap-9.xml</loc></sitemap>")
    (out / name).symlink_to(target)
    (out / "sitemap-9.xml").write_text("a user's file that the link's text names")
    config = load_config({"base_url": BASE_URL, "max_urls": 2})
    build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert target.read_text().startswith("<sitemapindex>")  # never written through
    assert (out / "sitemap-9.xml").exists()  # never taken as sitemill's own child
    assert (out / "sitemap.xml").is_file() and not (out / "sitemap.xml").is_symlink()

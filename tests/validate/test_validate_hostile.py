"""validate on hostile input: one clear line, the right exit code, bounded time and memory.

Each fixture is built in tmp_path and checked by ``sitemill validate`` in a fresh interpreter,
so that the process's own CPU time and peak RSS measure exactly that run.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sitemill.protocol import SITEMAP_NS

HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n'
URL = "<url><loc>https://example.com/</loc></url>\n"
XHTML = "http://www.w3.org/1999/xhtml"
MIB = 1 << 20
# Generous bounds: the old reader took 18 s and 770 MB on some of these. CPU time, not wall
# time, so that a busy machine does not fail the test; memory includes the interpreter.
CPU_SECONDS = 10.0
PEAK_MIB = 200
SECRET = "TOP-SECRET-MARKER"

# `sitemill validate`.
_CHILD = """
import sys
from sitemill.cli.main import main
sys.exit(main(["validate", *sys.argv[1:]]))
"""
# Runs the child and measures it alone: a process forked from pytest would report pytest's
# own peak memory (Linux keeps the high-water mark across exec), this small one does not.
_MEASURE = """
import json, resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "cpu": usage.ru_utime + usage.ru_stime, "peak": peak}, out)
"""


@dataclass(frozen=True)
class Run:
    code: int
    lines: list[str]
    cpu: float
    peak_mib: float


def run_validate(path: Path, tmp_path: Path) -> Run:
    result = tmp_path / "result.json"
    child = [sys.executable, "-c", _CHILD, str(path)]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(result), *child],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stderr == "", done.stderr
    measured = json.loads(result.read_text())
    lines = done.stdout.splitlines()
    return Run(measured["code"], lines, measured["cpu"], measured["peak"] / MIB)


def write_gzip(path: Path, head: str, unit: bytes, repeat: int, tail: str) -> Path:
    """A gzip bomb: ``unit`` repeated to ``repeat`` MiB, as that many copies of one gzip member
    (a reader decompresses them one after another; building it takes no time)."""
    member = gzip.compress(unit * (MIB // len(unit)), compresslevel=9, mtime=0)
    with path.open("wb") as out:
        out.write(gzip.compress(head.encode(), mtime=0))
        out.write(member * repeat)
        out.write(gzip.compress(tail.encode(), mtime=0))
    return path


def deep(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_text(HEAD + "<url><loc>https://example.com/</loc>" + "<a>" * 500 + "</a>" * 500)
    return path


def unknown_encoding(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_text(HEAD.replace("UTF-8", "x-unknown") + URL + "</urlset>\n")
    return path


def bad_declaration(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_text(HEAD.replace('encoding="UTF-8"', "encoding=") + URL + "</urlset>\n")
    return path


def long_loc(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_text(HEAD + "<url><loc>https://example.com/" + "a" * (48 * MIB) + "</loc></url>")
    return path


def long_attribute(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    link = f'<xhtml:link xmlns:xhtml="{XHTML}" rel="alternate" hreflang="en" href="'
    long = link + "a" * (48 * MIB) + '"/>'
    path.write_text(HEAD + f"<url><loc>https://example.com/</loc>{long}</url></urlset>")
    return path


def gzip_bomb(folder: Path) -> Path:
    # About 3 MB of gzip: 3 GB of tiny elements inside one <url>.
    head = HEAD + "<url><loc>https://example.com/</loc>"
    path = write_gzip(folder / "sitemap-1.xml.gz", head, b"<a/>", 3_000, "</url></urlset>")
    assert 2 * MIB < path.stat().st_size < 4 * MIB
    return path


def gzip_bomb_of_entries(folder: Path) -> Path:
    return write_gzip(folder / "sitemap-1.xml.gz", HEAD, b"<url/>", 100, "</urlset>")


def gzip_bomb_of_comments(folder: Path) -> Path:
    return write_gzip(folder / "sitemap-1.xml.gz", HEAD + URL, b"<!---->", 100, "</urlset>")


def gzip_bomb_of_undeclared_prefixes(folder: Path) -> Path:
    return write_gzip(folder / "sitemap-1.xml.gz", HEAD, b"<x:link/>", 100, URL + "</urlset>")


def gzip_bomb_before_the_root(folder: Path) -> Path:
    return write_gzip(folder / "sitemap-1.xml.gz", "", b"<!---->", 100, HEAD + URL + "</urlset>")


def secret_file(folder: Path) -> Path:
    secret = folder / "secret.txt"
    secret.write_text(SECRET)
    return secret


def with_doctype(folder: Path, doctype: str, loc: str) -> Path:
    path = folder / "sitemap.xml"
    urlset = HEAD.split("\n", 1)[1]
    path.write_text(
        f"<?xml version='1.0'?>\n{doctype}\n{urlset}<url><loc>{loc}</loc></url></urlset>"
    )
    return path


def internal_entity(folder: Path) -> Path:
    doctype = '<!DOCTYPE urlset [\n<!ENTITY site "https://example.com/">\n]>'
    return with_doctype(folder, doctype, "&site;")


def external_entity(folder: Path) -> Path:
    uri = secret_file(folder).as_uri()
    doctype = f'<!DOCTYPE urlset [\n<!ENTITY secret SYSTEM "{uri}">\n]>'
    return with_doctype(folder, doctype, "https://example.com/&secret;")


def billion_laughs(folder: Path) -> Path:
    entities = '<!ENTITY lol0 "lol">\n' + "".join(
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10)
    )
    doctype = f"<!DOCTYPE urlset [\n{entities}]>"
    return with_doctype(folder, doctype, "https://example.com/&lol9;")


def xinclude(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    include = (
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" '
        f'href="{secret_file(folder).as_uri()}" parse="text"/>'
    )
    path.write_text(HEAD + f"<url><loc>https://example.com/</loc>{include}</url>\n</urlset>\n")
    return path


def plain_named_gz(folder: Path) -> Path:
    path = folder / "sitemap-1.xml.gz"
    path.write_text(HEAD + URL + "</urlset>\n")
    return path


def repeated_loc(folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_text(HEAD + URL + URL + "</urlset>\n")
    return path


@dataclass(frozen=True)
class Case:
    build: Callable[[Path], Path]
    code: int
    line: int | None
    message: str  # the whole message, or its start when it ends with "…"


CASES = {
    "nested 500 deep": Case(deep, 1, 3, "elements nested more than 64 deep; not checked further"),
    "unknown encoding": Case(
        unknown_encoding,
        1,
        1,
        "unknown encoding 'x-unknown' in the XML declaration; not checked further",
    ),
    "bad XML declaration": Case(bad_declaration, 1, 1, "XML is not well-formed: …"),
    "48 MiB loc": Case(
        long_loc,
        1,
        3,
        "a text, attribute value, comment or name longer than 10,000,000 bytes; "
        "not checked further",
    ),
    "48 MiB attribute": Case(
        long_attribute,
        1,
        None,  # libxml2 and expat see the token end on different lines
        "a text, attribute value, comment or name longer than 10,000,000 bytes; "
        "not checked further",
    ),
    "3 MB gzip bomb of tiny elements": Case(
        gzip_bomb, 1, 3, "<url> has more than 20,000 nodes; not checked further"
    ),
    "gzip bomb of tiny entries": Case(gzip_bomb_of_entries, 1, None, "more than 1,000 errors; …"),
    "gzip bomb of comments": Case(
        gzip_bomb_of_comments,
        1,
        4,
        "more than 50,000 comments or elements besides <url> in <urlset>; not checked further",
    ),
    "gzip bomb of undeclared prefixes": Case(
        gzip_bomb_of_undeclared_prefixes, 1, 3, "XML is not well-formed: …"
    ),
    "gzip bomb before the root": Case(
        gzip_bomb_before_the_root,
        1,
        None,
        "no root element in the first 1,048,576 bytes; not checked further",
    ),
    "DOCTYPE with an internal entity": Case(
        internal_entity,
        1,
        2,
        "DOCTYPE urlset is not allowed in a sitemap: it declares the entity site; "
        "not checked further",
    ),
    "DOCTYPE with an external entity": Case(
        external_entity,
        1,
        2,
        "DOCTYPE urlset is not allowed in a sitemap: it declares the entity secret (SYSTEM …",
    ),
    "billion laughs": Case(
        billion_laughs,
        1,
        2,
        "DOCTYPE urlset is not allowed in a sitemap: it declares the entities "
        "lol0, lol1, lol2, lol3, lol4 and 5 more; not checked further",
    ),
    "XInclude": Case(xinclude, 1, 3, "XSD: <xi:include> …"),
    "plain XML named .gz": Case(
        plain_named_gz,
        0,
        None,
        "warning: named .gz but not gzip-compressed; checked as the plain file it is",
    ),
    "repeated loc": Case(
        repeated_loc, 0, 4, "warning: duplicate loc https://example.com/ (first at line 3)"
    ),
}


def matches(message: str, expected: str) -> bool:
    if expected.endswith("…"):
        return message.startswith(expected[:-1])
    return message == expected


def located(line: str, path: Path) -> tuple[int | None, str]:
    """(line number or None, message) of one output line about ``path``."""
    found = re.fullmatch(rf"{re.escape(str(path))}(?::(\d+))?: (.*)", line)
    assert found is not None, line
    return (int(found[1]) if found[1] else None), found[2]


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_hostile_input(tmp_path: Path, case: Case) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    path = case.build(folder)
    run = run_validate(path, tmp_path)
    assert run.code == case.code, run.lines
    findings = [located(line, path) for line in run.lines if not line.startswith("valid: ")]
    if case.message.startswith("more than 1,000 errors"):  # a flood of real errors, cut short
        findings = [finding for finding in findings if finding[0] is None]
    assert len(findings) == 1, run.lines
    ((line, message),) = findings
    assert case.line is None or line == case.line, run.lines
    assert matches(message, case.message), run.lines
    if case.code == 0:
        assert run.lines[-1] == f"valid: {path} (with 1 warning)"
    assert SECRET not in "\n".join(run.lines)
    assert run.cpu < CPU_SECONDS, f"{run.cpu:.1f} s of CPU"
    assert run.peak_mib < PEAK_MIB, f"peak RSS {run.peak_mib:.0f} MiB"

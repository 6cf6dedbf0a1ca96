"""The chunk reader of URL lists gives exactly what the line reader gives."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.bounded.dedupe import SeenUrlBytes
from sitemill.config.model import Config, load_config
from sitemill.entries import Entry, Skip, UrlBlock
from sitemill.errors import SourceError
from sitemill.jobs.urllist import _listed_block, _listed_entries, _unique
from sitemill.sources.urlchunks import (
    MAX_URL_LINE_BYTES,
    PlainChunks,
    chunks_of_lines,
    read_line_chunks,
)

BASE = "https://example.com/"

pieces = st.sampled_from([*list("abz09-._~/?#&=+%é <>\"'"), "/./", "/../", "%41", "%zz"])
paths = st.lists(pieces, max_size=12).map("".join)
stamps = st.sampled_from(
    [
        "",
        "\t2024-05-01T10:00:00+00:00",
        "\t2024-02-29T10:00:00+00:00",
        "\t2023-02-29T10:00:00+00:00",
        "\t2024-02-30T10:00:00+00:00",
        "\t2024-04-31T10:00:00+00:00",
        "\t0000-01-01T00:00:00+00:00",
        "\t2024-05-01",
        "\t2024-05-01T12:00:00+02:00",
        "\t2024-13-01T10:00:00+00:00",
        "\t2024-05-01T24:00:00+00:00",
        "\t ",
        "\t2024-05-01T10:00:00Z",
    ]
)
prefixes = st.sampled_from(
    [BASE, BASE, BASE, BASE, "https://EXAMPLE.com/", "https://other.example/", "# ", ""]
)
endings = st.sampled_from(["\n", "\n", "\r\n", " \n", "\r"])
lines = st.lists(
    st.builds(lambda a, b, c, d: a + b + c + d, prefixes, paths, stamps, endings), max_size=25
)
# Lists that are mostly plain: whole chunks take the fast path, some do not.
plain_lines = st.lists(
    st.builds(
        lambda path, stamp: f"{BASE}{path}{stamp}\n",
        st.sampled_from(["a", "b", "c/d", "e?f=g&h", "i'j", "k#l", "m"]),
        st.sampled_from(
            [
                "",
                "\t2024-05-01T10:00:00+00:00",
                "\t2024-02-29T23:59:59+00:00",
                "\t2024-05-01",  # a date: kept as written
                "\t2024-02-29",
                "\t2023-02-29",  # no such day: an error, on either path
                "\t2024-05-01T10:00:00Z",  # written with +00:00
                "\t2100-02-29T00:00:00Z",
            ]
        ),
    ),
    max_size=40,
)


Outcome = tuple[list[Entry], list[Skip]] | str


def run_chunks(data: bytes, size: int) -> Outcome:
    """The chunk reader (fast where it can be), reading ``size`` bytes at a time."""
    config = load_config({"base_url": BASE})
    skips: list[Skip] = []
    try:
        chunks = read_line_chunks(io.BytesIO(data), size)
        return list(_listed_entries(config, chunks, "urls.txt", skips.append)), by_reason(skips)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def run_slow(text: str) -> Outcome:
    """The line reader alone, over the whole list as a text file reads it."""
    config = load_config({"base_url": BASE})
    skips: list[Skip] = []
    lines_ = io.StringIO(text.removeprefix("\ufeff"), newline="")
    try:
        entries = list(_listed_block(config, lines_, "urls.txt", 1, skips.append))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    locs = [entry.loc.encode() for entry in entries]
    unique = _unique(entries, SeenUrlBytes().repeats(locs), skips.append)
    assert isinstance(unique, list)
    return unique, by_reason(skips)


def by_reason(skips: list[Skip]) -> list[Skip]:
    """The skips of each reason in the list's order (a chunk's repeats are found after its
    other skips, a chunk later)."""
    return sorted(skips, key=lambda skip: skip.reason.value)


@settings(max_examples=400, deadline=None)
@given(lines, st.sampled_from([7, 64, 1 << 20]))
def test_chunk_reader_matches_line_reader(lines_: list[str], size: int) -> None:
    text = "".join(lines_)
    assert run_chunks(text.encode(), size) == run_slow(text)


@settings(max_examples=200, deadline=None)
@given(plain_lines, st.sampled_from([40, 100, 1 << 20]), st.booleans())
def test_plain_lists_read_fast_match_line_reader(
    lines_: list[str], size: int, repeated: bool
) -> None:
    text = "".join(lines_ + lines_[:3] if repeated else lines_)
    assert run_chunks(text.encode(), size) == run_slow(text)


def test_plain_chunks_take_simple_chunks_only() -> None:
    plain = PlainChunks(BASE)
    dated = f"{BASE}a\t2024-05-01T10:00:00+00:00\n{BASE}b#c\t2024-02-29T10:00:00+00:00\n"
    assert plain(dated.encode()) == UrlBlock(
        [f"{BASE}a".encode(), f"{BASE}b#c".encode()],
        [b"2024-05-01T10:00:00+00:00", b"2024-02-29T10:00:00+00:00"],
        dated.encode(),
    )
    assert plain(dated.replace("\n", "\r\n").encode()) == plain(dated.encode())
    assert plain(dated.encode(), keep_lastmod=False) == UrlBlock(
        [f"{BASE}a".encode(), f"{BASE}b#c".encode()], None
    )
    undated = f"{BASE}a\n{BASE}b\n".encode()
    assert plain(undated) == UrlBlock([f"{BASE}a".encode(), f"{BASE}b".encode()], None, undated)
    for odd in (
        "# comment\n",
        "\n",
        f"{BASE}a b\n",
        f"{BASE}%41\n",
        f"{BASE}a#b#c\n",
        f"{BASE}x/../y\n",
        f"{BASE}x/./y\n",
        f"{BASE}é\n",
        f"{BASE}a\t2024-05-01\n",
        f"{BASE}a\t2024-05-01T10:00:00+00:00\n",  # dated among undated
        "https://other.example/\n",
        f"{BASE}a\t2024-02-30T10:00:00+00:00\n",
        f"{BASE}a\t2023-02-29T10:00:00+00:00\n",
        f"{BASE}a\t0000-01-01T10:00:00+00:00\n",
        f"{BASE}a\r",
        f"{BASE}{'x' * 2048}\n",
    ):
        assert plain(f"{BASE}ok\n{odd}".encode()) is None, odd


def test_plain_chunks_take_dates_and_z_datetimes() -> None:
    """A list with dates, or datetimes ending in "Z" (what most exporters write), takes the
    fast path too: a date as written, "Z" written "+00:00" as the line reader writes it."""
    plain = PlainChunks(BASE)
    data = f"{BASE}a\t2024-05-01\n{BASE}b\t2024-02-29T10:00:00Z\n{BASE}Z\t2024-01-01\n"
    written = data.replace("10:00:00Z", "10:00:00+00:00").encode()
    block = plain(data.encode())
    assert block == UrlBlock(
        [f"{BASE}a".encode(), f"{BASE}b".encode(), f"{BASE}Z".encode()],
        [b"2024-05-01", b"2024-02-29T10:00:00+00:00", b"2024-01-01"],
        written,
    )
    assert block is not None and block.newest == b"2024-05-01"  # (found once, as it was read)
    for odd in (
        "2023-02-29",
        "2100-02-29T00:00:00Z",
        "2024-05-01Z",
        "2024-05-01T10:00Z",
        "2024-5-01",
    ):
        assert plain(f"{BASE}ok\t2024-05-01\n{BASE}a\t{odd}\n".encode()) is None, odd


def test_chunks_number_their_lines_and_bytes() -> None:
    data = b"\xef\xbb\xbf" + b"".join(b"%d\n" % i for i in range(10)) + b"x\ry\r\nlast"
    chunks = list(read_line_chunks(io.BytesIO(data), size=8))
    assert b"".join(chunk.data for chunk in chunks) == data[3:] + b"\n"
    for chunk in chunks:
        assert data[chunk.offset :].startswith(chunk.data.rstrip(b"\n"))
        text = data[3:].decode()
        assert (
            chunk.first_line
            == len(io.StringIO(text[: chunk.offset - 3], newline="").readlines()) + 1
        )


def test_a_huge_line_is_cut_not_held() -> None:
    huge = BASE.encode() + b"a" * (3 * MAX_URL_LINE_BYTES) + b"\xc3\xa9" * 10
    data = f"{BASE}first\n".encode() + huge + f"\n{BASE}last\n".encode()
    chunks = list(read_line_chunks(io.BytesIO(data), size=1 << 16))
    assert max(len(chunk.data) for chunk in chunks) <= MAX_URL_LINE_BYTES + 1
    assert [chunk.first_line for chunk in chunks if b"last" in chunk.data] == [3]
    config = load_config({"base_url": BASE})
    skips: list[Skip] = []
    entries = list(_listed_entries(config, iter(chunks), "urls.txt", skips.append))
    assert [e.loc for e in entries] == [f"{BASE}first", f"{BASE}last"]
    assert [skip.reason.value for skip in skips] == ["too long"]


def test_errors_name_the_right_line_in_a_later_chunk() -> None:
    config = load_config({"base_url": BASE})
    lines_ = [f"{BASE}p{i}\n" for i in range(20_000)] + ["not a url\n"]
    with pytest.raises(SourceError, match=r"urls\.txt:20001: 'not a url'"):
        list(_listed_entries(config, chunks_of_lines(lines_), "urls.txt", lambda skip: None))
    data = "".join(lines_).encode()
    with pytest.raises(SourceError, match=r"urls\.txt:20001: 'not a url'"):
        list(_listed_entries(config, read_line_chunks(io.BytesIO(data), 4096), "urls.txt", print))


def test_bytes_that_are_not_utf8_are_named_by_their_offset() -> None:
    config = load_config({"base_url": BASE})
    data = f"{BASE}a\n".encode() * 5000 + b"https://example.com/\xff\n"
    with pytest.raises(
        SourceError, match=rf"not UTF-8 text \(invalid start byte at byte {len(data) - 2}\)"
    ):
        list(_listed_entries(config, read_line_chunks(io.BytesIO(data), 1000), "urls.txt", print))


@pytest.mark.parametrize(
    ("line", "url", "lastmod"),
    [
        ("https://example.com/a 2024-02-01", "https://example.com/a", "2024-02-01"),
        ("https://example.com/a   2024-02-01  ", "https://example.com/a", "2024-02-01"),
        (
            "https://example.com/a 2024-02-01T10:00:00Z",
            "https://example.com/a",
            "2024-02-01T10:00:00+00:00",
        ),
    ],
)
def test_a_date_after_a_space_is_the_lastmod(line: str, url: str, lastmod: str) -> None:
    config = load_config({"base_url": BASE})
    (entry,) = entries_of(config, [line + "\n"])
    assert (entry.loc, entry.lastmod) == (url, lastmod)


@pytest.mark.parametrize(
    "line",
    [
        "https://example.com/my page",
        "https://example.com/a b 2024-02-01",
        "https://example.com/a 2024-02-01\t2024-02-01",
        "https://example.com/a\u00a0b",  # (a no-break space)
    ],
)
def test_any_other_space_is_refused_with_its_line(line: str) -> None:
    config = load_config({"base_url": BASE})
    with pytest.raises(SourceError, match=r"^list\.txt:2: .* holds white space"):
        entries_of(config, [f"{BASE}first\n", line + "\n"])


def test_a_bad_date_after_a_space_is_named_as_a_date() -> None:
    config = load_config({"base_url": BASE})
    with pytest.raises(SourceError, match=r"^list\.txt:1: lastmod '2024-13-01' is not"):
        entries_of(config, [f"{BASE}a 2024-13-01\n"])


def entries_of(config: Config, lines_: list[str]) -> list[Entry]:
    return list(_listed_entries(config, chunks_of_lines(lines_), "list.txt", lambda skip: None))

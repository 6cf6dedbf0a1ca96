"""Publishing against other writers and past failures: staging names that no two runs share,
leftovers of crashed runs, and stale files a failed deletion left behind."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from consistency import assert_one_build, live_urls
from sitemill.config.model import Config, load_config
from sitemill.entries import Entry
from sitemill.errors import SinkError
from sitemill.filenames.outputs import CHILD_NAME, STAGING_NAME, is_own_name, stored_digest
from sitemill.filenames.staging import STAGING_MAX_AGE, Staging
from sitemill.sinks import MemorySink
from sitemill.writing.writer import WriteSetup, write_sitemaps

BASE = "https://example.com/"
BEGAN = datetime(2026, 11, 23, 10, 15, tzinfo=UTC)
RUN = Staging(BEGAN, "1a2b3c")


def config(**values: object) -> Config:
    return load_config({"base_url": BASE, "max_urls": 4, **values})


def shifted(count: int, shift: int = 0, day: int = 1) -> Iterator[Entry]:
    for i in range(shift, shift + count):
        yield Entry(f"{BASE}p/{i}.html", f"2024-02-{day:02d}")


def urls(count: int, shift: int = 0) -> list[str]:
    return [f"{BASE}p/{i}.html" for i in range(shift, shift + count)]


class WatchedSink(MemorySink):
    """A sink that runs ``before(name, data)`` ahead of every put and delete (``data`` None),
    and checks after each one that the live index names only files that exist."""

    def __init__(self) -> None:
        super().__init__()
        self.before: Callable[[str, bytes | None], None] | None = None
        self.checks = 0

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if self.before is not None:
            self.before(name, data)
        written = super().put(name, data, content_type=content_type)
        self._check()
        return written

    def delete(self, name: str) -> None:
        if self.before is not None:
            self.before(name, None)
        super().delete(name)
        self._check()

    def _check(self) -> None:
        if "sitemap.xml" in self.files:
            live_urls(self.files.get)  # fails on a child the live index names and lacks
            self.checks += 1


# --- names ----------------------------------------------------------------------------------


def test_a_staging_name_is_the_runs_own_and_an_own_name() -> None:
    other = Staging(BEGAN, "ffffff")
    name = RUN.name("sitemap-3.xml.gz")
    assert name == "sitemap-3-next-20261123101500-1a2b3c.xml.gz"
    assert name != other.name("sitemap-3.xml.gz")
    assert STAGING_NAME.fullmatch(name) and CHILD_NAME.fullmatch(name) and is_own_name(name)
    assert not STAGING_NAME.fullmatch("sitemap-3.xml")
    # Two runs started in the same second still differ (a random token each).
    assert len({Staging.new(BEGAN).token for _ in range(50)}) > 40


@pytest.mark.parametrize(
    ("name", "leftover"),
    [
        ("sitemap-2-next.xml", True),  # the name earlier versions shared between runs
        ("sitemap-2-next-20261123091459-abcdef.xml", True),  # an hour and a second before
        ("sitemap-2-next-20261123091500-abcdef.xml", False),  # exactly an hour: in use
        ("sitemap-2-next-20261123101400-abcdef.xml.gz", False),  # another writer, just now
        ("sitemap-2-next-20261123111600-abcdef.txt", True),  # over an hour ahead: no clock's
        ("sitemap-2-next-20261399999999-abcdef.xml", True),  # no date at all
        ("sitemap-2.xml", False),  # not a staging copy
        ("sitemap-2-next-2026112310150-abcdef.xml", False),  # not sitemill's name
    ],
)
def test_a_staging_copy_is_a_leftover_when_old_or_impossible(name: str, leftover: bool) -> None:
    assert RUN.is_leftover(name) is leftover
    assert timedelta(hours=1) == STAGING_MAX_AGE


# --- two writers ----------------------------------------------------------------------------


def test_several_changed_children_go_live_through_this_runs_own_copies() -> None:
    sink = WatchedSink()
    write_sitemaps(shifted(12), sink, config())
    result = write_sitemaps(shifted(12, 1), sink, config(), WriteSetup(staging=RUN))
    assert sorted(sink.files) == sorted(result.files) == result.outputs
    assert sink.checks > 0
    assert_one_build(sink.files.get, urls(12, 1))


def test_a_writer_never_deletes_the_copies_another_writers_interim_index_will_name() -> None:
    """The race two writers sharing staging names lost: B has written its copies; A runs to
    its end in between (its build needs no staging); then B's interim index goes live. A must
    not have deleted B's copies, or the live index names missing files."""
    sink = WatchedSink()
    write_sitemaps(shifted(12), sink, config())  # three children
    other = Staging(BEGAN + timedelta(seconds=5), "b0b0b0")
    fired = []

    def run_a_before_the_interim_index(name: str, data: bytes | None) -> None:
        if name == "sitemap.xml" and data is not None and b"-next-" in data and not fired:
            fired.append(name)
            sink.before = None
            # A: the same pages as already live, plus one page in the last child.
            write_sitemaps(shifted(13), sink, config(), WriteSetup(staging=RUN))
            sink.before = run_a_before_the_interim_index

    sink.before = run_a_before_the_interim_index
    write_sitemaps(
        shifted(12, 1, day=2), sink, config(), WriteSetup(staging=other)
    )  # B: every child
    assert fired
    assert sink.checks > 5
    assert_one_build(sink.files.get, urls(12, 1))
    # Nothing of either run's staging is left once B's final index is live.
    assert not [name for name in sink.files if "-next" in name]


def test_leftovers_of_a_crashed_run_are_deleted_and_fresh_copies_of_another_kept() -> None:
    sink = MemorySink()
    write_sitemaps(shifted(12), sink, config())
    crashed = "sitemap-2-next-20261123080000-c0ffee.xml"
    legacy = "sitemap-3-next.xml"
    running = "sitemap-1-next-20261123101450-0ddba1.xml"  # another writer, 10 s ago
    for name in (crashed, legacy, running):
        sink.files[name] = b"<urlset/>"
    result = write_sitemaps(shifted(12), sink, config(), WriteSetup(staging=RUN))
    assert result.deleted == [crashed, legacy]
    assert running in sink.files
    later = Staging(BEGAN + STAGING_MAX_AGE * 2, "123456")
    assert write_sitemaps(shifted(12), sink, config(), WriteSetup(staging=later)).deleted == [
        running
    ]


def test_a_copy_the_live_index_names_is_never_deleted_however_old() -> None:
    sink = MemorySink()
    write_sitemaps(shifted(12), sink, config())
    old = "sitemap-2-next-20200101000000-c0ffee.xml"
    sink.files[old] = sink.files["sitemap-2.xml"]
    sink.files["sitemap.xml"] = sink.files["sitemap.xml"].replace(b"sitemap-2.xml", old.encode())
    hold = sink.files["sitemap.xml"]
    deletions: list[str] = []
    delete = sink.delete

    def spy(name: str) -> None:
        deletions.append(name)
        if name == old:
            assert sink.files["sitemap.xml"] != hold, "deleted while the live index named it"
        delete(name)

    sink.delete = spy  # type: ignore[method-assign]
    write_sitemaps(shifted(12), sink, config(), WriteSetup(staging=RUN))
    assert deletions == [old]  # after the index that no longer names it went live
    assert_one_build(sink.files.get, urls(12))


# --- failures part-way ----------------------------------------------------------------------


class FailingDeletes(MemorySink):
    def __init__(self, failing: set[str]) -> None:
        super().__init__()
        self.failing = failing

    def delete(self, name: str) -> None:
        if name in self.failing:
            raise SinkError(f"cannot delete {name}: AccessDenied (HTTP 403)")
        super().delete(name)


def test_a_deletion_failing_part_way_is_remembered_and_done_by_the_next_run() -> None:
    sink = FailingDeletes({"sitemap-4.xml"})
    write_sitemaps(shifted(20), sink, config())  # five children
    first = write_sitemaps(shifted(8), sink, config())  # two: three are stale
    assert first.deleted == ["sitemap-3.xml", "sitemap-5.xml"]
    assert first.outputs == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-4.xml", "sitemap.xml"]
    assert first.warnings == [
        "could not delete 1 stale file(s) (cannot delete sitemap-4.xml: AccessDenied (HTTP "
        "403)): the new sitemaps are live and do not name them; the next run deletes them"
    ]
    assert_one_build(sink.files.get, urls(8))
    sink.failing.clear()
    # No index names sitemap-4.xml any more: only the remembered outputs can tell.
    assert write_sitemaps(shifted(8), sink, config()).deleted == []
    # (the state keeps each name with its MD5, which proves the file sitemill's: writing.ownbytes)
    assert first.digests()["sitemap-4.xml"] == stored_digest(sink.files["sitemap-4.xml"])
    remembered = WriteSetup(remembered=first.outputs, recorded=first.digests())
    second = write_sitemaps(shifted(8), sink, config(), remembered)
    assert second.deleted == ["sitemap-4.xml"]
    assert second.outputs == ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"]
    assert sorted(sink.files) == second.outputs


def test_only_remembered_names_that_exist_and_are_not_live_are_deleted() -> None:
    sink = MemorySink()
    write_sitemaps(shifted(8), sink, config())
    sink.files["sitemap-9.xml"] = b"a user's own file, never written by sitemill"
    deletions: list[str] = []
    delete = sink.delete
    sink.delete = lambda name: (deletions.append(name), delete(name))[1]  # type: ignore[method-assign]
    remembered = ["sitemap-1.xml", "sitemap-2.xml", "sitemap-7.xml", "sitemap.xml"]
    result = write_sitemaps(shifted(8), sink, config(), WriteSetup(remembered=remembered))
    assert deletions == [] and result.deleted == []  # 7 is gone already; 9 is not remembered
    assert "sitemap-9.xml" in sink.files


def test_an_entry_file_is_never_deleted_on_the_states_word() -> None:
    # Switched to text: the state remembers sitemap.xml, which may be a hand-written one now.
    sink = MemorySink()
    sink.files["sitemap.xml"] = b"<urlset>hand-written</urlset>"
    result = write_sitemaps(
        shifted(3), sink, config(format="txt"), WriteSetup(remembered=["sitemap.xml"])
    )
    assert result.deleted == [] and "sitemap.xml" in sink.files


def test_a_failed_publish_takes_its_unnamed_staging_copies_with_it() -> None:
    sink = WatchedSink()
    write_sitemaps(shifted(12), sink, config())

    def fail_at_the_interim_index(name: str, data: bytes | None) -> None:
        if name == "sitemap.xml" and data is not None and b"-next-" in data:
            raise SinkError("cannot write sitemap.xml: InternalError (HTTP 500)")

    sink.before = fail_at_the_interim_index
    with pytest.raises(SinkError):
        write_sitemaps(shifted(12, 1), sink, config(), WriteSetup(staging=RUN))
    assert not [name for name in sink.files if "-next" in name]
    assert_one_build(sink.files.get, urls(12))

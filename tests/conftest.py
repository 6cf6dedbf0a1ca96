"""Shared fixtures: small sites on disk, a fixed base URL, the local IndexNow engine-and-site
stands. (The only conftest.py: tests import names from it as ``conftest``, which a second one
in a subfolder would shadow, depending on the order of collection.)"""

from __future__ import annotations

import compileall
import functools
import gc
import importlib
import importlib.util
import inspect
import os
import signal
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import botocore.hooks
import botocore.parsers
import botocore.session
import botocore.utils
import hypothesis
import moto.core.models
import pytest
import yaml
from moto.s3.models import S3Backend

from enginestand import Stand
from livesite import serve_folder

# No test bounds wall-clock time (a loaded machine would make it red): Hypothesis's default
# deadline of 200 ms an example is one, so no example has a deadline; work is counted instead.
hypothesis.settings.register_profile("sitemill", deadline=None)
hypothesis.settings.load_profile("sitemill")

# A suite started in the background (a shell without job control starts it with SIGINT
# ignored, and Python then keeps it ignored) would see no Ctrl-C: the tests of Ctrl-C send one
# as a terminal does, so the suite takes it as a terminal's process would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# moto gives every test a fresh boto3 session, and each session read the service models (JSON,
# read-only) again: about 0.2 s per client. One loader per data path for the whole process.
botocore.session.create_loader = functools.cache(botocore.session.create_loader)  # type: ignore[attr-defined]

# botocore parses every timestamp of a response with dateutil (0.1 ms each), and moto parses the
# LastModified it keeps as text again for each listing it serializes: a third of a LIST of ten
# objects. A timestamp's text gives the same (immutable) datetime every time: parsed once.
_parse_timestamp = functools.lru_cache(maxsize=65_536)(botocore.utils.parse_timestamp)
botocore.utils.parse_timestamp = _parse_timestamp
botocore.parsers.DEFAULT_TIMESTAMP_PARSER = _parse_timestamp  # (bound when botocore was imported)


# moto reloads moto.s3.urls for every S3 request, as MOTO_S3_CUSTOM_ENDPOINTS (read when the module
# runs) may have changed: once per value of it.
@functools.cache
def _s3_urls(custom_endpoints: str | None) -> object:
    import moto.s3.urls

    return importlib.reload(moto.s3.urls)


S3Backend._url_module = property(lambda self: _s3_urls(os.environ.get("MOTO_S3_CUSTOM_ENDPOINTS")))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "heavy: a module of long tests, run first")
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _compile_ahead(config)


def _compile_ahead(config: pytest.Config) -> None:
    """pytest-xdist's controller compiles sitemill and the tests it will run (test modules with
    their asserts rewritten, as pytest caches them) before it starts the workers: in a fresh
    clone (CI's) both workers compiled all of them, side by side, neither finding the other's
    cache: each collected the suite in 24 s of CPU, now in 6 s after the controller's 8 s.
    Written as the workers' imports would write them, and read back by them; in a clone that
    has them, each file's cache is only checked. (pytest's rewriting internals as read here: a
    release that moves them leaves the suite slower, never broken.) Issue 80."""
    if sys.dont_write_bytecode:
        return
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    needed = ("_read_pyc", "_rewrite_test", "_write_pyc", "get_cache_dir", "try_makedirs")
    if not all(hasattr(rewrite, name) for name in (*needed, "PYC_TAIL", "assertstate_key")):
        return
    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # (--assert=plain: nothing rewritten)
        return
    package = importlib.util.find_spec("sitemill")
    for folder in (package.submodule_search_locations or []) if package else []:
        compileall.compile_dir(folder, quiet=2)
    for arg in config.args:
        given = Path(arg.split("::")[0])
        for source in sorted(given.rglob("*.py") if given.is_dir() else [given]):
            if not source.name.startswith("test_") and source.name != "conftest.py":
                compileall.compile_file(source, quiet=2)  # (a helper the tests import)
                continue
            cache = rewrite.get_cache_dir(source)
            pyc = cache / (source.name[:-3] + rewrite.PYC_TAIL)
            if not rewrite.try_makedirs(cache) or rewrite._read_pyc(source, pyc) is not None:
                continue
            try:
                source_hash, code = rewrite._rewrite_test(source, config)
            except (OSError, SyntaxError, ValueError):
                continue  # (the worker that imports it reports it)
            rewrite._write_pyc(state, code, source_hash, pyc)


# Collection (every test module imported, its items made: about a million objects that the whole
# run keeps) runs without the cyclic collector: its automatic passes scanned the growing heap
# over and over, 1,018 of them taking 1.2 s of a worker's 6.4 s of CPU to collect the suite,
# and found little to free. One pass at the end frees what cycles collection left (issue 80).
gc.disable()


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """The collector back on once collection is done (in pytest-xdist's controller too, which
    collects nothing)."""
    try:
        return (yield)
    finally:
        gc.enable()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made and the whole run keeps (the test modules, their items, their
    functions and parameters: about a million objects) moved out of the collector's reach: each
    full collection of a worker scanned them all again, 0.14 s each, 46 of them in a run of
    tests/jobs, listing and state (6.4 s of its 80 s of CPU). Objects made by the tests
    themselves are collected as before (issue 80)."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of modules marked heavy first, each module's in its order: pytest-xdist's
    worksteal hands each worker a contiguous part of this list and steals from the ends, so a
    long test left for last would keep one worker busy while the other has nothing to do."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


# A new botocore session (moto gives each test one, and each client of it) registers some 150
# handlers: each checked by inspect.getfullargspec to take **kwargs, each event name looked up
# among the aliases by its session anew (30 and 20 ms a session). A function's code flags say
# the first; an event name's alias under botocore's own table is the same for every session.
_accepts_kwargs = botocore.hooks.accepts_kwargs


def _takes_kwargs(func: Callable[..., object]) -> bool:
    """What inspect.getfullargspec says of a plain function or method: its code's flag."""
    target = func.__func__ if isinstance(func, types.MethodType) else func
    if isinstance(target, types.FunctionType) and not hasattr(target, "__signature__"):
        return bool(target.__code__.co_flags & inspect.CO_VARKEYWORDS)
    return bool(_accepts_kwargs(func))


botocore.hooks.accepts_kwargs = _takes_kwargs
# (Each patch of a library's internals holds only where they stand as read here: a release that
# moves them leaves the suite slower, never broken; tests/core/test_suite_costs.py says which.)
_alias_event_name = getattr(botocore.hooks.EventAliaser, "_alias_event_name", None)
_ALIASES: dict[str, str] = {}


def _alias_once(self: botocore.hooks.EventAliaser, event_name: str) -> str:
    if self._event_aliases is not botocore.hooks.EVENT_ALIASES:
        return _alias_event_name(self, event_name)  # type: ignore[no-any-return]
    if event_name not in _ALIASES:
        _ALIASES[event_name] = _alias_event_name(self, event_name)
    return _ALIASES[event_name]


if _alias_event_name is not None:
    botocore.hooks.EventAliaser._alias_event_name = _alias_once

# Each mock_aws() start makes moto register a new `responses` stub for every method and every
# service's URL (1,288 objects, 11 ms): the same stubs every time, made once (no test sends a
# `requests` call to AWS, the only use of their call counts).
if hasattr(moto.core.models, "CallbackResponse"):
    moto.core.models.CallbackResponse = functools.cache(moto.core.models.CallbackResponse)

BASE_URL = "https://example.com/"
# A fixed mtime (2024-03-01T12:00:00Z) so that mtime-based lastmod values are predictable.
FIXED_MTIME = 1_709_294_400

SiteMaker = Callable[[Mapping[str, str | bytes]], Path]


@pytest.fixture(scope="module")
def action() -> dict[str, object]:
    """action.yml as the runner reads it."""
    root = Path(__file__).resolve().parents[1]
    data = yaml.safe_load((root / "action.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def write_site(root: Path, files: Mapping[str, str | bytes], mtime: int = FIXED_MTIME) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
        os.utime(path, (mtime, mtime))
    return root


@pytest.fixture
def make_site(tmp_path: Path) -> SiteMaker:
    def make(files: Mapping[str, str | bytes]) -> Path:
        return write_site(tmp_path / "site", files)

    (tmp_path / "site").mkdir()
    return make


def page(title: str = "x", head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{title}</body></html>"
    )


@pytest.fixture
def live_site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on 127.0.0.1 as the live site, and its URL."""
    served = tmp_path / "live"
    served.mkdir()
    with serve_folder(served) as url:
        yield served, url


@pytest.fixture
def stands(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Stand]]:
    """Two servers (two origins); the first is the engine too."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    running = [Stand(), Stand()]
    for stand in running:
        stand.thread.start()
    yield running
    for stand in running:
        stand.release.set()
        stand.httpd.shutdown()
        stand.httpd.server_close()


@pytest.fixture
def stand(stands: list[Stand]) -> Stand:
    return stands[0]

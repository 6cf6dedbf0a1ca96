"""infra/release_files.py removes only what an earlier run of its own wrote into OUT (its
record: names and digests; a file changed since is kept), and says in one line why it cannot
go on when OUT is a file, lies under one, or changes under the run. The build itself is played
by a stand-in (the real one is tests/infra/test_release.py's and `make release-check`'s)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from scriptmodule import load_script

ROOT = Path(__file__).resolve().parents[2]
release = load_script(ROOT / "infra" / "release_files.py", "release_files")


def outdir_of(command: tuple[str | Path, ...], flag: str) -> Path:
    words = [str(part) for part in command]
    return Path(words[words.index(flag) + 1])


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[Callable[[Path], None]]:
    """The build as a stand-in writing the sdist, the wheel and the zip; each function appended
    is called with the zip's path once it is written (a change under the run)."""
    after_zip: list[Callable[[Path], None]] = []

    def run(*command: str | Path, cwd: Path | None = None) -> None:
        if "build" in map(str, command):
            out = outdir_of(command, "--outdir")
            (out / "sitemill-9.9.9.tar.gz").write_bytes(b"sdist")
            (out / "sitemill-9.9.9-py3-none-any.whl").write_bytes(b"wheel")
        else:
            zip_path = outdir_of(command, "--output")
            zip_path.write_bytes(b"zip")
            for change in after_zip:
                change(zip_path)

    monkeypatch.setattr(release, "run", run)
    return after_zip


RELEASE = [
    ".sitemill-release-files",
    "SHA256SUMS",
    "sitemill-9.9.9-py3-none-any.whl",
    "sitemill-9.9.9.tar.gz",
    "sitemill-lambda.zip",
    "sitemill-template.yaml",
]


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("release_files: error: ") and "Traceback" not in captured.err
    return line


def test_an_earlier_run_s_files_are_replaced_and_the_record_is_no_release_file(
    built: list[Callable[[Path], None]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "release"
    for _ in range(2):
        assert release.main([str(out)]) == 0
        assert sorted(contents(out)) == RELEASE
    sums = (out / "SHA256SUMS").read_text()
    assert ".sitemill-release-files" not in sums and sums in capsys.readouterr().out
    assert "sitemill-lambda.zip" in (out / ".sitemill-release-files").read_text()


@pytest.mark.parametrize(
    "name", ["sitemill-notes.tar.gz", "sitemill-photos-2024.whl", "sitemill-backup.tar.gz"]
)
def test_a_user_s_file_named_like_a_release_file_is_never_removed(
    name: str,
    built: list[Callable[[Path], None]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "release"
    assert release.main([str(out)]) == 0  # (an earlier run's files, and the user's beside)
    (out / name).write_bytes(b"the user's")
    before = contents(out)
    assert release.main([str(out)]) == 1
    line = one_error(capsys)
    assert repr(name) in line and "which no earlier run of this script wrote" in line
    assert contents(out) == before  # nothing removed, not even the run's own files


def test_a_folder_of_the_user_s_with_such_names_and_no_record_is_left_alone(
    built: list[Callable[[Path], None]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "backups"
    out.mkdir()
    for name in ("sitemill-backup.tar.gz", "SHA256SUMS", "sitemill-lambda.zip"):
        (out / name).write_bytes(b"the user's " + name.encode())
    before = contents(out)
    assert release.main([str(out)]) == 1
    assert "which no earlier run of this script wrote" in one_error(capsys)
    assert contents(out) == before


def test_a_release_file_changed_since_its_run_is_kept(
    built: list[Callable[[Path], None]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "release"
    assert release.main([str(out)]) == 0
    (out / "sitemill-lambda.zip").write_bytes(b"the user's own zip now")
    before = contents(out)
    assert release.main([str(out)]) == 1
    assert "'sitemill-lambda.zip', changed since the run that wrote it" in one_error(capsys)
    assert contents(out) == before


def test_out_a_file_or_under_one_is_one_line(
    built: list[Callable[[Path], None]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "a-file"
    file.write_bytes(b"the user's")
    for out in (file, file / "release"):
        assert release.main([str(out)]) == 1
        one_error(capsys)
    assert file.read_bytes() == b"the user's"


def replace_out_by_a_file(out: Path) -> None:
    shutil.rmtree(out)
    out.write_bytes(b"someone else's")


def folder_at_a_release_name(out: Path) -> None:
    (out / "sitemill-template.yaml").mkdir()


@pytest.mark.parametrize("change", [replace_out_by_a_file, folder_at_a_release_name])
def test_out_changed_under_the_run_is_one_line(
    change: Callable[[Path], None],
    built: list[Callable[[Path], None]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "release"
    built.append(lambda _zip: change(out))  # (while the build runs)
    assert release.main([str(out)]) == 1
    one_error(capsys)


def test_the_record_is_not_published() -> None:
    """A dot-file: the artifact upload leaves hidden files out unless told to, and the
    release's `dist/release/*` glob does not match it."""
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert release.RECORD_NAME.startswith(".") and "include-hidden-files" not in workflow
    assert "dist/release/*" in workflow

"""The files a release publishes, made the one way the release workflow and `make release-check`
both use: the sdist and the wheel, the Lambda zip, the stack's template for that zip, and their
SHA-256 sums.

    python infra/release_files.py OUT [--tag vX.Y.Z] [--check]    # OUT: new, or an earlier run's
    python infra/release_files.py --notes vX.Y.Z     # CHANGELOG.md's section for the release
    python infra/release_files.py --set-repository OWNER/NAME    # once: the docs' and URLs' name

``--tag`` must name this version (the tag a release is made from); with ``--repository`` (the
workflow's GITHUB_REPOSITORY), the docs and the project URLs must name that repository
(release_names.py). ``--check`` is the release's
dry run: twine checks the metadata (from a venv of its own: its documentation renderer wants
another docutils than the AWS CLI of the dev extra), the wheel is installed into a fresh venv and
runs `sitemill --version` and `make demo`'s script there (the tree, then the Lambda on moto),
and the Lambda zip is built twice and compared byte for byte. The GitHub Action is installed as
a runner installs it (action/install.py) from the package index with the lock's hashes checked,
cold then warm, and builds examples/site. Nothing is published.

The files are made in a scratch folder, then copied into OUT after a record of them (RECORD_NAME:
``sha256sum``'s lines, a dot-file that neither the sums, the artifact upload nor ``gh release
create dist/release/*`` take). A later run removes only the files that record names, each only
while it holds the bytes recorded; OUT holding anything else (a user's ``sitemill-notes.tar.gz``,
a release file changed since) is refused and nothing is removed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "infra"))
from release_names import NamesError, check_names, set_repository  # noqa: E402

from sitemill.errors import SitemillError  # noqa: E402
from sitemill.messages import shown  # noqa: E402
from sitemill.safefs import read_regular  # noqa: E402
from sitemill.version import __version__  # noqa: E402 (the version, not the package, is read)

ZIP_NAME: Final = "sitemill-lambda.zip"
TEMPLATE_NAME: Final = "sitemill-template.yaml"
SUMS_NAME: Final = "SHA256SUMS"
# What a run wrote into OUT, the only files a later run removes (see above).
RECORD_NAME: Final = ".sitemill-release-files"
RECORD_LIMIT: Final = 64 * 1024
# The template's CodeUri, the zip `make lambda-zip` writes; on a release page, beside it.
CODE_URI: Final = "CodeUri: ../dist/sitemill-lambda.zip"


class ReleaseError(Exception):
    """A step of the release that cannot go on, said in one line."""


def release_template(template: str) -> str:
    """The stack's template for the zip beside it (a release page's two files)."""
    if CODE_URI not in template:
        raise ReleaseError(f"infra/template.yaml has no '{CODE_URI}' to point at the zip")
    return template.replace(CODE_URI, f"CodeUri: {ZIP_NAME}")


def checksums(folder: Path) -> str:
    """``sha256sum``'s lines for every file of ``folder`` but the sums, sorted by name."""
    lines = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name not in (SUMS_NAME, RECORD_NAME):
            lines.append(f"{file_digest(path)}  {path.name}\n")
    return "".join(lines)


def file_digest(path: Path) -> str:
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def release_notes(changelog: str, tag: str) -> str:
    """CHANGELOG.md's section for ``tag`` (Keep a Changelog: ``## [X.Y.Z] - YYYY-MM-DD``), its
    heading left out."""
    version = tag.removeprefix("v")
    lines = changelog.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith(f"## [{version}]")]
    if not starts:
        raise ReleaseError(f"CHANGELOG.md has no section '## [{version}]' for the release notes")
    rest = lines[starts[0] + 1 :]
    end = next((n for n, line in enumerate(rest) if line.startswith("## ")), len(rest))
    section = "\n".join(rest[:end]).strip()
    if not section:
        raise ReleaseError(f"CHANGELOG.md's section for {version} is empty")
    return section + "\n"


def recorded(out: Path) -> dict[str, str]:
    """The files an earlier run wrote into ``out``, by name, with their SHA-256 (none: {})."""
    try:
        data = read_regular(out / RECORD_NAME, RECORD_LIMIT, whole=True, follow_symlinks=False)
    except FileNotFoundError:
        return {}
    except SitemillError as exc:  # (a link, a folder, too large: not this script's)
        raise ReleaseError(f"{out} holds {RECORD_NAME!r}, not this script's record: {exc}") from exc
    found = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        digest, separator, name = line.partition("  ")
        if not separator or len(digest) != 64 or "/" in name or name in ("", ".", ".."):
            raise ReleaseError(f"{out} holds {RECORD_NAME!r}, not this script's record")
        found[name] = digest
    return found


def emptied(out: Path) -> None:
    """``out`` made, or an earlier run's files removed from it: only those its record names,
    each only while it holds the bytes recorded. Anything else there (a file no run wrote, one
    changed since, a folder, a link) is refused, and then nothing is removed."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise ReleaseError(f"{out} is not a folder: name a new folder for the release's files")
    out.mkdir(parents=True, exist_ok=True)
    record = recorded(out)
    found = sorted(out.iterdir())
    for path in found:
        if path.name == RECORD_NAME:
            continue
        if path.name not in record:
            raise ReleaseError(
                f"{out} holds {path.name!r}, which no earlier run of this script wrote: "
                "name a new folder"
            )
        if not stat.S_ISREG(path.lstat().st_mode) or file_digest(path) != record[path.name]:
            raise ReleaseError(
                f"{out} holds {path.name!r}, changed since the run that wrote it: name a new folder"
            )
    for path in found:
        path.unlink()


def publish(files: Path, out: Path) -> None:
    """The files made in ``files`` copied into ``out``, the record of them written first (so a
    run stopped half way leaves only recorded files)."""
    names = sorted(path.name for path in files.iterdir())
    record = "".join(f"{file_digest(files / name)}  {name}\n" for name in names)
    (out / RECORD_NAME).write_text(record, encoding="utf-8")
    for name in names:  # ("xb": never into a file or a link that appeared meanwhile)
        with open(files / name, "rb") as source, open(out / name, "xb") as target:
            shutil.copyfileobj(source, target)


def check_tag(tag: str) -> None:
    if tag != f"v{__version__}":
        raise ReleaseError(f"the tag {tag!r} is not this version's (v{__version__})")


def run(*command: str | Path, cwd: Path | None = None) -> None:
    done = subprocess.run([str(part) for part in command], cwd=cwd, check=False)
    if done.returncode != 0:
        raise ReleaseError(f"{' '.join(map(str, command[:4]))} ... failed ({done.returncode})")


def build_files(out: Path, work: Path) -> None:
    """The sdist, the wheel (from the sdist), the Lambda zip and the release template."""
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT, cwd=work)
    run(sys.executable, ROOT / "infra" / "build_lambda_zip.py", "--output", out / ZIP_NAME)
    template = (ROOT / "infra" / "template.yaml").read_text(encoding="utf-8")
    (out / TEMPLATE_NAME).write_text(release_template(template), encoding="utf-8")
    (out / SUMS_NAME).write_text(checksums(out), encoding="utf-8")


def dry_run(out: Path, work: Path) -> None:
    """What the release checks before it publishes, and the zip built twice."""
    twine = work / "twine"
    venv.EnvBuilder(with_pip=True).create(twine)
    run(twine / "bin" / "python", "-m", "pip", "install", "--quiet", "twine")
    packages = sorted(out.glob(f"sitemill-{__version__}[.-]*"))  # (the sdist and the wheel)
    run(twine / "bin" / "twine", "check", "--strict", *packages)
    fresh = work / "fresh"
    venv.EnvBuilder(with_pip=True).create(fresh)
    (wheel,) = out.glob(f"sitemill-{__version__}-*.whl")
    # The wheel with the extras the demo uses, and moto for its embedded S3 (its only other need).
    run(
        fresh / "bin" / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        f"{wheel}[s3,validate]",
        "moto[s3]>=5.0",
    )
    run(fresh / "bin" / "sitemill", "--version", cwd=work)
    run(fresh / "bin" / "python", ROOT / "examples" / "demo.py", cwd=ROOT)  # (`make demo`)
    action_check(work)
    again = work / ZIP_NAME
    run(sys.executable, ROOT / "infra" / "build_lambda_zip.py", "--output", again)
    if again.read_bytes() != (out / ZIP_NAME).read_bytes():
        raise ReleaseError("the Lambda zip built twice differs: it is not reproducible")


def action_check(work: Path) -> None:
    """The Action's install step twice on an empty runner: cold (the lock from the index, no pip
    cache) and warm (the folder actions/cache would restore), then a build with its Python."""
    runner_temp, outputs = work / "runner-temp", work / "action-outputs"
    runner_temp.mkdir()
    env = {
        **os.environ,
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_OUTPUT": str(outputs),
        "PYTHONPATH": str(ROOT),
        "PIP_CACHE_DIR": str(work / "pip-cache"),
    }
    seconds = []
    for _ in ("cold", "warm"):
        outputs.unlink(missing_ok=True)
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-P", "-m", "action.install"], env=env, check=False)
        seconds.append(time.monotonic() - started)
        if done.returncode != 0:
            raise ReleaseError("the Action's install step failed (action/install.py)")
    lines = outputs.read_text(encoding="utf-8").splitlines()  # (python<<DELIMITER, the path)
    python = lines[[line.split("<<")[0] for line in lines].index("python") + 1]
    site, config = ROOT / "examples" / "site", ROOT / "examples" / "sitemill.toml"
    run(python, "-c", "import sys; from sitemill.cli import main; sys.exit(main())",
        "build", site, "--config", config, "--out", work / "action-demo", cwd=work)  # fmt: skip
    print(f"action install: cold {seconds[0]:.1f} s, warm {seconds[1]:.1f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "out", type=Path, nargs="?", help="folder for the files (an earlier run's are replaced)"
    )
    parser.add_argument("--notes", metavar="TAG", help="print CHANGELOG.md's section for TAG")
    parser.add_argument("--tag", help="the tag the release is made from (vX.Y.Z)")
    parser.add_argument("--check", action="store_true", help="the release's checks, no publish")
    parser.add_argument("--repository", help="OWNER/NAME the docs and project URLs must name")
    parser.add_argument("--set-repository", metavar="OWNER/NAME", help="write it in their place")
    args = parser.parse_args(argv)
    try:
        if args.set_repository is not None:
            for path in set_repository(ROOT, args.set_repository):
                print(f"wrote {path.relative_to(ROOT).as_posix()}")
            return 0
        if args.notes is not None:
            changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
            print(release_notes(changelog, args.notes), end="")
            return 0
        if args.out is None:
            parser.error("OUT is required (or --notes TAG)")
        if args.tag is not None:
            check_tag(args.tag)
        if args.repository is not None:
            check_names(ROOT, args.repository, args.tag or f"v{__version__}")
        emptied(args.out)
        with tempfile.TemporaryDirectory(prefix="sitemill-release-") as scratch:
            files = Path(scratch) / "files"
            files.mkdir()
            build_files(files, Path(scratch))
            publish(files, args.out)
            if args.check:
                dry_run(args.out.resolve(), Path(scratch))
            sums = (files / SUMS_NAME).read_text(encoding="utf-8")
    except (ReleaseError, NamesError) as exc:
        print(f"release_files: error: {shown(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:  # (OUT or a file of it changed under the run)
        where = exc.filename or args.out
        print(f"release_files: error: {shown(f'{where}: {exc.strerror or exc}')}", file=sys.stderr)
        return 1
    print(sums, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

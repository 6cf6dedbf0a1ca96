"""`sitemill check` after a real build with llms.txt and its kin (issue 67): the files that build
wrote, served as a host serves them, are no problem; an older llms.txt served after the next
build is the problem line; each file the build recorded is asked, nothing else."""

from __future__ import annotations

from pathlib import Path

from checkstand import PAGES, build, check, page, publish, write_site

from enginestand import Stand
from sitemill.check.problems import LLMS

FLAGS = ("--llms-txt", "--llms-full", "--llms-pages")
ON = {"llms_txt": "true", "llms_full": "true", "llms_pages": "true"}
TYPES = {".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8"}


def serve(stand: Stand, root: Path) -> None:
    """Every file of the build, the llms files and twins with their text types."""
    stand.files.clear()
    publish(stand, root)
    for path, (status, body, headers) in list(stand.files.items()):
        suffix = Path(path).suffix
        if suffix in TYPES:  # (as a host that knows .md: Python's mimetypes may not)
            stand.files[path] = (status, body, {**headers, "Content-Type": TYPES[suffix]})


def llms_problems(checked: object) -> list[tuple[str, str]]:
    report = checked.report  # type: ignore[attr-defined]
    return [(p.url, p.what) for p in report.sorted_problems() if p.kind == LLMS]


def built(tmp_path: Path, stand: Stand) -> tuple[Path, str]:
    root, base = tmp_path / "site", stand.origin + "/"
    write_site(root, PAGES)
    build(root, base, *FLAGS)
    serve(stand, root)
    return root, base


def test_a_real_build_served_right_is_no_llms_problem(tmp_path: Path, stand: Stand) -> None:
    root, base = built(tmp_path, stand)
    assert (root / "llms.txt").is_file() and (root / "about.html.md").is_file()
    checked = check(root, base, **ON)
    assert llms_problems(checked) == []
    assert checked.report.llms == 2  # llms.txt, llms-full.txt (no language folder here)
    asked = {path for _, path in stand.requests}
    assert {"/llms.txt", "/llms-full.txt", "/about.html.md"} <= asked


def test_an_older_llms_txt_served_after_the_next_build_is_the_problem(
    tmp_path: Path, stand: Stand
) -> None:
    root, base = built(tmp_path, stand)
    older = stand.files["/llms.txt"]
    write_site(root, {"blog/third.html": page("Third post", "Even more words.")})
    build(root, base, *FLAGS)
    assert (root / "llms.txt").read_bytes() != older[1]  # the build wrote a new one
    serve(stand, root)
    stand.files["/llms.txt"] = older  # the host still serves the one before
    ((url, what),) = llms_problems(check(root, base, **ON))
    assert url == base + "llms.txt"
    assert what.startswith("is not the file this build published")

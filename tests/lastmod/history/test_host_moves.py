"""A move of another site's scheme and host, the path kept, is one edit, however many of the
page's own pictures it moved (issue 79, read93a: a Hexo blog's deploy moved every picture from
one CDN host to another on all 101 pages; 7 pages whose own pictures moved beside the shared
ones were read as "a repair of their own beside the move"). Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

OLD, NEW = "https://gcore.example-cdn.net/gh/me/img/", "https://cdn.example-cdn.net/gh/me/img/"
SHARED = ("p1", "p2", "p3", "p4")  # (the posts that show the series' cover)
OWN = ("p5", "p6", "p7")  # (the posts that show pictures of their own)


def post(name: str, host: str, repaired: bool, site: str = "Notes") -> str:
    if name in SHARED:
        pictures = f"<img src='{host}cover.png' alt='Cover'>"
    else:
        last = "jpg" if name != "p7" or repaired else "jpeg"
        pictures = (
            f"<img src='{host}{name}-a.png' alt='A'><img src='{host}{name}-b.{last}' alt='B'>"
        )
    return (
        f"<html><head><title>{name} - {site}</title></head><body><main><h1>{name}</h1>"
        f"<p>What {name} says, in words of its own.</p>{pictures}</main></body></html>\n"
    )


def blog(
    host: str, *, repaired: bool = False, folder: str = "posts/", site: str = "Notes"
) -> dict[str, str]:
    """The posts with their pictures at ``host``; ``repaired``: p7's second picture's own
    name repaired (``.jpeg`` made ``.jpg``); ``folder``: where the posts stand ("": each at
    the top, a section of its own); ``site``: the site's name in every title."""
    pages = {
        f"{folder}{name}/index.html": post(name, host, repaired, site) for name in SHARED + OWN
    }
    p8 = post("p8", host, repaired, site).replace("<img", "<br data-x")
    return pages | {f"{folder}p8/index.html": p8}


def test_a_cdn_host_moved_under_a_pages_own_pictures_moves_no_date(tmp_path: Path) -> None:
    # The second deploy renamed the site in every title and moved every picture to the new
    # host, the paths kept: the four posts with the shared cover made one exact move, the
    # three with their own pictures each another; none made an edit of its own.
    found = dated(tmp_path, [blog(OLD), blog(NEW, site="Journal")])
    assert found == {f"posts/{name}": at(0) for name in (*SHARED, *OWN, "p8")}, sorted(
        found.items()
    )


def test_a_pages_own_picture_repaired_beside_a_cdn_host_move_is_dated_by_it(
    tmp_path: Path,
) -> None:
    # The same move, and p7's own second picture renamed in the same deploy: its edit.
    found = dated(tmp_path, [blog(OLD), blog(NEW, repaired=True, site="Journal")])
    expected = {f"posts/{name}": at(0) for name in (*SHARED, *OWN, "p8")}
    assert found == expected | {"posts/p7": at(1)}, sorted(found.items())


def test_a_cdn_host_moved_on_a_few_pages_of_a_re_rendering_deploy_moves_none(
    tmp_path: Path,
) -> None:
    # The deploy re-rendered twelve notes (a new stylesheet name, which no reader reads) beside
    # the seven pages, each a section of its own, whose pictures moved: seven of twenty pages
    # it changed, yet another site's host moved with its paths kept is no content wherever it
    # stands.
    def site(host: str, css: str) -> dict[str, str | None]:
        notes = {
            f"notes/n{n:02}/index.html": (
                f"<html><head><title>n{n} - Notes</title><link rel='stylesheet' href='/{css}.css'>"
                f"</head><body><main><h1>n{n}</h1><p>Note {n} in words of its own.</p></main>"
                "</body></html>\n"
            )
            for n in range(12)
        }
        return notes | blog(host, folder="")

    found = dated(tmp_path, [site(OLD, "a1"), site(NEW, "b2")])
    assert set(found.values()) == {at(0)}, sorted(found.items())

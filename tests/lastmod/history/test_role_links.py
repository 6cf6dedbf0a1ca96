"""A link whose own role is a furniture role is furniture, as a <nav> is (fingerprint version 13,
amended, issue 79: hugo99). Shaped like a Hexo Anatole post (structure copied, text our own):
the post's pager is two links with ``role="navigation"`` and no ``rel``, "上一篇" and "下一篇";
a new post re-pointed or gave a "next" link to the posts beside it, and each was dated by that
deploy (7 posts of a Hexo blog, heldout98's erichain-anatole)."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.fingerprint.versions import EARLIER_VERSIONS, FINGERPRINT_VERSION
from treedates import BASE, at, dated

SLUGS = ["scope-of-javascript", "css-center", "calc-height", "webpack-dll", "iterator-pattern"]


def path(slug: str) -> str:
    return f"posts/{slug}/index.html"


def post(slugs: list[str], at_: int, words: str = "") -> str:
    """Post ``at_`` of ``slugs`` (in publishing order), its pager to the posts beside it."""
    slug = slugs[at_]
    links = []
    if at_ > 0:
        links.append(
            f'<li class="pre pagbuttons"><a role="navigation" href="/posts/{slugs[at_ - 1]}/" '
            f'title="{slugs[at_ - 1]}" class="btn">上一篇</a></li>'
        )
    if at_ + 1 < len(slugs):
        links.append(
            f'<li class="next pagbuttons"><a role="navigation" href="/posts/{slugs[at_ + 1]}/" '
            f'title="{slugs[at_ + 1]}" class="btn">下一篇</a></li>'
        )
    return (
        f"<html><head><title>{slug} | Causeries</title></head><body><div class=content>"
        f'<div class=post><div class=post-title><h3><a href="/posts/{slug}/">{slug}</a></h3>'
        f"</div><div class=post-content><p>关于 {slug} 的笔记，写给自己看。{words}</p>"
        "<p>例子可以在这里查看。</p></div><div class=post-footer><span class=date>2016-03-29"
        '</span><a href="/tags/javascript/" class=tag>javascript</a></div></div>'
        f"<div class=pagination><ul class=clearfix>{''.join(links)}</ul></div>"
        "</div></body></html>\n"
    )


def site(slugs: list[str], own: str = "") -> dict[str, str]:
    """Every post of ``slugs`` and the index listing them; ``own``: the post given words."""
    pages = {
        path(slug): post(slugs, at_, "又改了一句。" if slug == own else "")
        for at_, slug in enumerate(slugs)
    }
    entries = "".join(f'<li><a href="/posts/{slug}/">{slug}</a></li>' for slug in slugs)
    index = f"<html><head><title>Causeries</title></head><body><ul>{entries}</ul></body></html>\n"
    return pages | {"index.html": index}


def test_a_new_post_moves_no_post_whose_pager_it_re_pointed(tmp_path: Path) -> None:
    # Build 1 publishes "webpack-dll": the last post gains a "next" link to it; build 2
    # publishes "calc-height" between two older posts, re-pointing both their links.
    first = ["scope-of-javascript", "css-center", "iterator-pattern"]
    second = [*first[:2], "webpack-dll", first[2]]
    third = [second[0], second[1], "calc-height", *second[2:]]
    found = dated(tmp_path, [site(first), site(second), site(third)])
    expected = {path(slug).removesuffix("/index.html"): at(0) for slug in first}
    expected |= {"posts/webpack-dll": at(1), "posts/calc-height": at(2), "": at(2)}
    assert found == expected, found


def test_a_post_s_own_words_beside_its_pager_still_date_it(tmp_path: Path) -> None:
    first = ["scope-of-javascript", "css-center", "iterator-pattern"]
    second = [*first, "webpack-dll"]
    found = dated(tmp_path, [site(first), site(second, own="css-center")])
    expected = {path(slug).removesuffix("/index.html"): at(0) for slug in first}
    expected |= {"posts/css-center": at(1), "posts/webpack-dll": at(1), "": at(1)}
    assert found == expected, found


def test_a_link_with_a_furniture_role_is_left_out_from_version_13_only() -> None:
    slugs = ["scope-of-javascript", "css-center", "calc-height"]
    page = post(slugs, 1).encode()
    url = BASE + "posts/css-center/"
    reduced = reduce_html(page, url=url, version=FINGERPRINT_VERSION)
    assert "下一篇" not in reduced and "/posts/calc-height" not in reduced, reduced
    assert "例子可以在这里查看" in reduced and "/tags/javascript" in reduced, reduced
    before = reduce_html(page, url=url, version=max(EARLIER_VERSIONS))
    assert "下一篇" in before and "/posts/calc-height" in before, before


def test_a_link_with_any_other_role_or_none_counts() -> None:
    page = (
        b"<html><head><title>Post</title></head><body><article><h1>Post</h1><p>Read "
        b'<a role="button" href="/other/">the other post</a> and <a href="/third/">the third'
        b'</a>.</p><p><a role="navigation" href="/next/">Next</a></p></article></body></html>'
    )
    reduced = reduce_html(page, url=BASE + "post/")
    assert "the other post" in reduced and "/other" in reduced and "/third" in reduced, reduced
    assert "/next" not in reduced and "Next" not in reduced, reduced

"""The key's file, where engines read it, and the warning for sites below a host's root."""

from __future__ import annotations

from sitemill.indexnow.key import (
    IndexNowTarget,
    below_root_warning,
    key_file_name,
    site_key_location,
)
from sitemill.messages import redact, register_secret

KEY = "abcdef0123456789"


def test_each_host_has_its_root_key_file_unless_one_is_configured() -> None:
    default = IndexNowTarget("https://engine/", KEY)
    assert default.location_for("https://a.example") == f"https://a.example/{KEY}.txt"
    placed = IndexNowTarget("https://engine/", KEY, f"https://a.example/keys/{KEY}.txt")
    assert placed.location_for("https://a.example") == f"https://a.example/keys/{KEY}.txt"
    assert placed.location_for("https://b.example") == f"https://b.example/{KEY}.txt"
    assert KEY not in repr(placed)


def test_the_repr_names_the_class_and_hides_the_key_also_in_its_location() -> None:
    placed = IndexNowTarget("https://engine/", KEY, f"https://a.example/keys/{KEY}.txt")
    assert repr(placed) == (
        "IndexNowTarget(endpoint='https://engine/', key=***,"
        " key_location='https://a.example/keys/***.txt')"
    )
    assert repr(IndexNowTarget("https://engine/")).startswith("IndexNowTarget(")


def test_a_project_site_that_writes_its_key_file_announces_it_scoped_to_the_site() -> None:
    base = "https://user.github.io/project/"
    assert site_key_location(base, KEY, None, written=True) == base + key_file_name(KEY)
    assert site_key_location(base, KEY, None, written=False) is None
    assert site_key_location("https://example.com/", KEY, None, written=True) is None
    configured = "https://user.github.io/" + key_file_name(KEY)
    assert site_key_location(base, KEY, configured, written=True) == configured


def test_the_below_root_warnings_say_where_and_never_the_key() -> None:
    base = "https://user.github.io/project/"
    unwritten = below_root_warning(base, None, written=False)
    written = below_root_warning(base, None, written=True)
    assert unwritten is not None and "https://user.github.io/<key>.txt" in unwritten
    assert written is not None and "keyLocation https://user.github.io/project/<key>.txt" in written
    assert below_root_warning("https://example.com/", None, written=False) is None
    assert below_root_warning(base, "https://user.github.io/k.txt", written=True) is None


def test_a_registered_key_is_redacted_wherever_it_is_quoted() -> None:
    register_secret(KEY)
    assert (
        redact(f"GET https://a.example/{KEY}.txt said 404")
        == "GET https://a.example/***.txt said 404"
    )

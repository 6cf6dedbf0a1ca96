"""docs/dates.md is the user's page on dates: one screen, its settings are keys of the model with
the defaults docs/configuration.md gives, and it leads to the full rules."""

from __future__ import annotations

import re
from pathlib import Path

from sitemill.config.model import CONFIG_KEYS

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "dates.md"


def table_rows(path: Path) -> dict[str, list[str]]:
    """The cells of each table row whose first cell is one backticked key."""
    rows: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if line.startswith("| `") and re.fullmatch(r"`[a-z_]+`", cells[0]):
            rows[cells[0].strip("`")] = cells
    return rows


def first_code(text: str) -> str:
    found = re.search(r"`([^`]+)`", text)
    return found.group(1) if found else text


def test_the_dates_page_is_one_screen_and_leads_to_the_rules() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 60
    assert "sitemill why" in text
    assert "](lastmod.md)" in text


def test_the_dates_pages_settings_are_the_models_with_their_defaults() -> None:
    mine = table_rows(PAGE)
    reference = table_rows(ROOT / "docs" / "configuration.md")
    assert mine, "no settings table"
    assert [key for key in mine if key not in CONFIG_KEYS] == []
    assert {key: first_code(cells[-1]) for key, cells in mine.items()} == {
        key: first_code(reference[key][5]) for key in mine
    }

"""action.yml meets what the GitHub Marketplace asks of a listed action: a name, a
description of at most 125 characters, and branding from the icons and colours it offers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The Marketplace's colours, and the Feather icons of the set it offers that suit a sitemap tool.
COLOURS = {"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
ICONS = {"map", "map-pin", "globe", "list", "layers", "navigation", "compass", "check-circle"}


def test_the_name_and_description_fit_the_marketplace(action: dict[str, Any]) -> None:
    name, description = action["name"], action["description"]
    assert name.strip() == name and 0 < len(name) <= 60
    assert "\n" not in description and 0 < len(description) <= 125, len(description)
    assert action.get("author")


def test_the_branding_is_one_the_marketplace_offers(action: dict[str, Any]) -> None:
    assert action["branding"]["icon"] in ICONS
    assert action["branding"]["color"] in COLOURS


def test_it_is_a_composite_action_at_the_repository_root(action: dict[str, Any]) -> None:
    assert action["runs"]["using"] == "composite"
    assert not (ROOT / "action.yaml").exists()  # (one metadata file: the Marketplace reads one)

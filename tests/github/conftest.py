"""What the Action's tests share: action.yml, parsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    """action.yml as the runner reads it."""
    data = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data

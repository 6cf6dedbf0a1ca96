"""What ``url_style = "auto"`` settled on (sitemill.listing.autostyle counts the votes): a
run reports it, and a state keeps it (sitemill.state.model) so that it never flips on a small
change to the site."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sitemill.messages import counted
from sitemill.urls import UrlStyle

# Pages whose canonical names themselves needed to decide for good; fewer: "directory", until
# a run that sees the whole site finds enough.
MIN_VOTES: Final = 10


@dataclass(frozen=True, slots=True)
class StyleDecision:
    """What ``auto`` settled on: the style, the pages voting for it among those whose
    canonical names themselves, and whether the decision is the state's (an earlier run's)."""

    style: UrlStyle
    votes: int = 0
    pages: int = 0
    kept: bool = False

    @property
    def decided(self) -> bool:
        """Whether enough pages voted for the decision to stand for good."""
        return self.pages >= MIN_VOTES

    def line(self) -> str:
        """``url style: clean (142 of 150 pages' own canonicals say so)``, for the report."""
        style, said = self.style.value, f"{self.votes:,} of {self.pages:,} pages' own canonicals"
        if self.decided:
            if self.kept:
                return f"url style: {style} (kept from an earlier run: {said} said so)"
            return f"url style: {style} ({said} say so)"
        kept = "kept from an earlier run: " if self.kept else ""
        return (
            f"url style: {style} ({kept}{counted(self.pages, 'page')} "
            f"{'names itself' if self.pages == 1 else 'name themselves'} as canonical, "
            f"fewer than the {MIN_VOTES} auto needs to decide)"
        )


def style_kept(style: UrlStyle, decision: StyleDecision | None) -> UrlStyle:
    """The style a run that does not decide renders in: ``style`` when set, else (``auto``)
    the ``decision`` a state keeps, ``directory`` while it keeps none."""
    if style is not UrlStyle.AUTO:
        return style
    return UrlStyle.DIRECTORY if decision is None else decision.style

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
    canonical names themselves, and whether the decision is the state's (an earlier run's);
    ``unslashed``: the votes of folder pages (``x/index.html``) whose canonical is ``…/x``,
    listed as ``…/x/`` all the same (sitemill.listing.aliases), so not as they say."""

    style: UrlStyle
    votes: int = 0
    pages: int = 0
    kept: bool = False
    unslashed: int = 0

    @property
    def decided(self) -> bool:
        """Whether enough pages voted for the decision to stand for good."""
        return self.pages >= MIN_VOTES

    def line(self) -> str:
        """``url style: clean (142 of 150 pages' own canonicals say so)``, for the report:
        the count is of canonicals that name the listed URL exactly."""
        style, exact = self.style.value, self.votes - self.unslashed
        said = f"{exact:,} of {self.pages:,} pages' own canonicals"
        if self.decided:
            kept = "kept from an earlier run: " if self.kept else ""
            if not self.unslashed:
                return f"url style: {style} ({kept}{said} {'said' if self.kept else 'say'} so)"
            return (
                f"url style: {style} ({kept}{said} {'named' if self.kept else 'name'} their "
                f"listed URL, {self.unslashed:,} more without its final slash: a folder page "
                "x/index.html is listed at …/x/, where hosts serve it)"
            )
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

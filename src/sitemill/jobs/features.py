"""The output features a run writes beside the sitemaps: the one list that names them."""
# Each is an output port (sitemill.outputs.OutputFeature) with the three hooks the stages that
# ask them declare: its files checked live (check.run.LiveCopies), its files' format
# (validate.files.FileFormats), what proves a file its own (writing.ownbytes.OwnFiles). A feature
# with nothing to say there answers None (or checks nothing). The front ends pass these lists
# to the runs; the core asks each feature of the list it is given, and names none.

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from sitemill.htmlmap.run import SITEMAP_HTML
from sitemill.indexnow.feature import INDEXNOW
from sitemill.llms.run import LLMS_FILES

if TYPE_CHECKING:  # (types only: a page's event loads no check, no validation)
    from typing import Protocol

    from sitemill.check.run import LiveCopies
    from sitemill.outputs import OutputFeature
    from sitemill.validate.files import FileFormats
    from sitemill.writing.ownbytes import OwnFiles

    class Feature(OutputFeature, LiveCopies, FileFormats, OwnFiles, Protocol):
        """An output feature with every hook."""


OUTPUTS: Final[tuple[Feature, ...]] = (LLMS_FILES, SITEMAP_HTML, INDEXNOW)
# A URL list reads no page and keeps no state: the outputs made of its URLs alone.
URL_LIST_OUTPUTS: Final[tuple[Feature, ...]] = (SITEMAP_HTML,)

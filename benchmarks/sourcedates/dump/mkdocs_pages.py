"""MkDocs hook: append each built page's source (page.file.src_uri) and output (dest_uri)."""

from __future__ import annotations

import json
import os
from typing import Any


def on_post_page(output: str, page: Any, config: Any) -> str:
    with open(os.environ["SOURCEDATES_DUMP"], "a", encoding="utf-8") as out:
        row = {"src_uri": page.file.src_uri, "dest_uri": page.file.dest_uri}
        out.write(json.dumps(row) + "\n")
    return output

"""Print {docname: source path} from a Sphinx HTML build's environment (its .doctrees); with a
second argument, write there {source path: [files it depends on]} (Sphinx's own record of the
include, literalinclude and autodoc files each document read)."""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path

out = Path(sys.argv[1])
with (out / ".doctrees" / "environment.pickle").open("rb") as f:
    env = pickle.load(f)  # the build's own data, written by the Sphinx run just before
print(json.dumps({d: str(env.doc2path(d)) for d in sorted(env.found_docs)}))
if len(sys.argv) > 2:
    deps = {
        str(env.doc2path(d)): sorted(
            os.path.normpath(os.path.join(env.srcdir, str(p))) for p in env.dependencies.get(d, ())
        )
        for d in sorted(env.found_docs)
    }
    Path(sys.argv[2]).write_text(json.dumps(deps))

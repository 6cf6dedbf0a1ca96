"""Print {docname: source path} from a Sphinx HTML build's environment (its .doctrees)."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

out = Path(sys.argv[1])
with (out / ".doctrees" / "environment.pickle").open("rb") as f:
    env = pickle.load(f)  # the build's own data, written by the Sphinx run just before
print(json.dumps({d: str(env.doc2path(d)) for d in sorted(env.found_docs)}))

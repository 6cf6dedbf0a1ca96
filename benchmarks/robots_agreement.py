"""How often sitemill's robots.txt decisions agree with Google's parser (fast-robotstxt).

    .venv/bin/python benchmarks/robots_agreement.py [--cases 20000] [--seed 9309] [--examples 5]

Draws random adversarial robots.txt/path pairs with a fixed seed, using the generator of
tests/robots/test_robots_google.py (the same one its hypothesis test uses), asks both parsers, and
prints the agreement rate, the disagreements robots/rules.py documents (and why), and examples of
any other disagreement. Exits 1 when there is an undocumented one. Needs the dev extra.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

# The generator and the oracle live with the differential test (tests/core/ is no package).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "core"))

from test_robots_google import (
    RandomChoices,
    documented_divergence,
    explain_disagreement,
    google_allows,
    make_case,
)

from sitemill.robots.rules import RobotsRules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=9309)
    parser.add_argument("--examples", type=int, default=5, help="undocumented ones to print")
    args = parser.parse_args()

    choices = RandomChoices(random.Random(args.seed))
    agreed = disallowed = 0
    documented: Counter[str] = Counter()
    in_class: Counter[str] = Counter()  # cases of a documented kind, agreeing or not
    undocumented: list[tuple[str, str, bool, bool]] = []
    ours_time = 0.0
    for _ in range(args.cases):
        robots_txt, path = make_case(choices)
        start = time.perf_counter()
        rules = RobotsRules.parse(robots_txt)
        ours = rules.allows(path)
        ours_time += time.perf_counter() - start
        google = google_allows(robots_txt, path)
        disallowed += not google
        reason = documented_divergence(rules, path)
        if reason is not None:
            in_class[reason] += 1
        if ours == google:
            agreed += 1
        elif (reason := explain_disagreement(rules, path, google)) is not None:
            documented[reason] += 1
        else:
            undocumented.append((robots_txt, path, ours, google))

    print(f"{args.cases} cases (seed {args.seed}), {disallowed} disallowed by Google's parser")
    print(f"agree: {agreed} ({100 * agreed / args.cases:.2f} %)")
    print("cases of a kind where robots.py departs from fast-robotstxt on purpose:")
    for reason, count in in_class.most_common():
        print(f"  {reason}: {count}")
    print(f"differ as robots.py documents: {sum(documented.values())}")
    for reason, count in documented.most_common():
        print(f"  {reason}: {count}")
    print(f"differ otherwise: {len(undocumented)} ({100 * len(undocumented) / args.cases:.2f} %)")
    for robots_txt, path, ours, google in undocumented[: args.examples]:
        shown = robots_txt if len(robots_txt) < 400 else robots_txt[:200] + "…" + robots_txt[-150:]
        print(f"\n  path {path!r}: sitemill allows={ours}, Google allows={google}\n  {shown!r}")
    print(f"\nsitemill parse + allows: {1e6 * ours_time / args.cases:.0f} µs a case")
    return 1 if undocumented else 0


if __name__ == "__main__":
    sys.exit(main())

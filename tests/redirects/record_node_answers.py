"""Record node tools' readings of node_cases.py's inputs into node_answers.json, which the tests
compare sitemill with (no node needed there). Where node and the parser are installed:

    npm install netlify-redirect-parser@14.4.0   # into some folder; then, from the repository:
    NODE_PATH=that/node_modules PYTHONPATH=src python tests/redirects/record_node_answers.py

--check writes nothing and fails when the tools' answers today differ from the record."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from node_cases import ANSWERS, node_inputs

# netlify-redirect-parser's own reading of a _redirects file and a netlify.toml, merged.
NETLIFY = """
const [file, config] = process.argv.slice(1);
import(require("url").pathToFileURL(require.resolve("netlify-redirect-parser")))
  .then(async ({ parseAllRedirects }) => {
    const { redirects, errors } = await parseAllRedirects({
      redirectsFiles: [file], netlifyConfigPath: config,
    });
    process.stdout.write(JSON.stringify({ redirects, errors: errors.length }));
  });
"""
# @docusaurus/utils isValidPathname: what the URL parser gives back as it is, or as encodeURI.
PATHNAMES = """
const options = JSON.parse(require("fs").readFileSync(0, "utf8"));
const valid = (s) =>
  s.startsWith("/") && [s, encodeURI(s)].includes(new URL(s, "https://d.com").pathname);
process.stdout.write(JSON.stringify(options.redirects.map((r) => valid(r.from))));
"""
VERSIONS = """
const path = require("path");
const parser = path.join(path.dirname(require.resolve("netlify-redirect-parser")), "..");
process.stdout.write(JSON.stringify({
  node: process.version,
  "netlify-redirect-parser": require(path.join(parser, "package.json")).version,
}));
"""


def node(script: str, *args: str, stdin: str = "") -> Any:
    done = subprocess.run(
        ["node", "-e", script, *args], input=stdin, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def answer(case: str, inputs: dict[str, str]) -> Any:
    if case.startswith("netlify-redirect-parser"):
        with tempfile.TemporaryDirectory() as folder:
            for name, text in inputs.items():
                (Path(folder) / name).write_text(text, encoding="utf-8", newline="")
            return node(NETLIFY, f"{folder}/_redirects", f"{folder}/netlify.toml")
    if case == "docusaurus pathnames":
        return node(PATHNAMES, stdin=inputs["text"])
    # The text as JavaScript: docusaurus.config.js takes it as an object literal.
    return node(
        f"const options = {inputs['text']};\nprocess.stdout.write(JSON.stringify(options));"
    )


def main() -> int:
    cases = {case: {"inputs": inputs, "answer": answer(case, inputs)}
             for case, inputs in node_inputs().items()}  # fmt: skip
    tools = node(VERSIONS) | {"docusaurus cases": "node's own URL and JavaScript parsers"}
    record = {"recorded_with": tools, "cases": cases}
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv[1:]:
        same = ANSWERS.read_text(encoding="utf-8") == text
        print("node_answers.json: " + ("as the tools answer today" if same else "DIFFERS"))
        return 0 if same else 1
    ANSWERS.write_text(text, encoding="utf-8")
    print(f"{ANSWERS.name}: {len(cases)} cases, {record['recorded_with']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Compile simple entry templates into plain Python renderers; Jinja renders everything else."""
# Rendering a sitemap spends most of its time in Jinja's per-entry machinery (a generator step per
# fragment, an attribute lookup and an escape call per field). A template that only interpolates
# entry fields and tests them with ``{% if %}`` — the built-in ones, and most user overrides — can
# be rendered by a small generated function instead, with exactly the same output: the same text,
# the same truthiness, the same escaping as markupsafe. Any template outside that subset (filters,
# macros, loop variables, expressions) is left to Jinja, so the output never depends on which path
# ran.
#
# The subset is a whitelist of node shapes: static text (with ``{% if uses_alternates %}`` and ``{%
# if uses_images %}`` around text, for the namespaces a file declares only when it uses them), one
# ``{% for x in entries %}``, and inside it ``{{ x.<field> }}`` and ``{% if x.<field> %}`` for the
# Entry fields, and one level of ``{% for a in x.alternates %}`` or ``{% for i in x.images %}`` with
# their items' fields. The generated code holds only fixed names and repr()-quoted text, so it
# reaches nothing that the sandbox Jinja renders the template in (see sitemill.render.environment)
# would refuse.

from __future__ import annotations

from dataclasses import dataclass

import jinja2
from jinja2 import nodes

from sitemill.render._compiledform import CompiledParts, CompiledTemplate, build_compiled
from sitemill.render._entrycode import (
    FIELDS,
    Scope,
    _Unsupported,
    entry_expression,
    kind,
    unsupported,
)

# The names a urlset file's header may test: whether any entry of the file has alternates,
# images (so that a namespace is declared only in the files that use it).
FILE_FLAGS = ("uses_alternates", "uses_images")


@dataclass(frozen=True, slots=True)
class Declined:
    """Why a template is left to Jinja: what in it lies outside the compiled subset."""

    reason: str


__all__ = [
    "FILE_FLAGS",
    "CompiledTemplate",
    "Declined",
    "compile_template",
    "compiled_parts",
    "try_compile_template",
]


def compile_template(template: jinja2.Template) -> CompiledTemplate | None:
    """A specialized renderer for ``template``, or None when Jinja must render it."""
    compiled = try_compile_template(template)
    return compiled if isinstance(compiled, CompiledTemplate) else None


def try_compile_template(template: jinja2.Template) -> CompiledTemplate | Declined:
    """A specialized renderer for ``template``, or why Jinja must render it."""
    parts = compiled_parts(template)
    if isinstance(parts, Declined):
        return parts
    try:
        return build_compiled(parts)
    except (SyntaxError, RecursionError, MemoryError):  # a template too deep to inline
        return Declined("too large to compile")


def compiled_parts(template: jinja2.Template) -> CompiledParts | Declined:
    """What ``template`` compiles to (its headers, footer and entry functions' source), or
    why Jinja must render it."""
    environment = template.environment
    if template.name is None:
        return Declined("it has no name to read its source by")
    if environment.loader is None:
        return Declined("its environment has no loader to read its source from")
    if environment.finalize is not None:
        return Declined("its environment finalizes every output")
    try:
        source, _, _ = environment.loader.get_source(environment, template.name)
        tree = environment.parse(source, template.name)
        autoescape = environment.autoescape
        escaping = bool(autoescape(template.name) if callable(autoescape) else autoescape)
        return _compile_parts(tree, escaping)
    except _Unsupported as exc:
        return Declined(str(exc))
    except jinja2.TemplateError as exc:  # Jinja renders it (or fails, and says why)
        return Declined(f"its source could not be read again ({type(exc).__name__})")
    except RecursionError:
        return Declined("it is nested too deeply to parse")


def _compile_parts(tree: nodes.Template, escaping: bool) -> CompiledParts:
    loops = [node for node in tree.body if isinstance(node, nodes.For)]
    if len(loops) != 1:
        raise _Unsupported(f"{len(loops)} {{% for %}} loops at its top level, not one")
    loop = loops[0]
    if not (
        isinstance(loop.target, nodes.Name)
        and isinstance(loop.iter, nodes.Name)
        and loop.iter.name == "entries"
        and not loop.else_
        and loop.test is None
        and not loop.recursive
    ):
        raise unsupported(loop, "a loop that is not a plain {% for entry in entries %}")
    split = tree.body.index(loop)
    headers = {
        (alternates, images): "".join(
            _static_text(node, {"uses_alternates": alternates, "uses_images": images})
            for node in tree.body[:split]
        )
        for alternates in (False, True)
        for images in (False, True)
    }
    footer = "".join(_static_text(node, {}) for node in tree.body[split + 1 :])
    fields = ", ".join(f"f_{name}" for name in FIELDS)
    scope: Scope = {loop.target.name: ("f_", FIELDS)}
    text = entry_expression(loop.body, scope, escaping)
    plain = entry_expression(loop.body, scope, escaping, plain=True)
    source = (
        f"def render_entry(entry):\n    {fields}, = entry\n    return {text}\n"
        f"def render_batch(entries):\n    return [{text} for {fields} in entries]\n"
        f"def render_plain_batch(entries):\n    return [{plain} for {fields} in entries]\n"
    )
    return CompiledParts(headers, footer, source)


def _static_text(node: nodes.Node, flags: dict[str, bool]) -> str:
    """The text a node outside the loop writes, with ``flags`` for the file's flags."""
    if isinstance(node, nodes.Output):
        dynamic = [n for n in node.nodes if not isinstance(n, nodes.TemplateData)]
        if not dynamic:
            return "".join(n.data for n in node.nodes)  # type: ignore[attr-defined]
        node = dynamic[0]
    elif (
        isinstance(node, nodes.If)
        and isinstance(node.test, nodes.Name)
        and node.test.name in FILE_FLAGS
        and not node.elif_
        and not node.else_
    ):
        if not flags.get(node.test.name, False):
            return ""
        return "".join(_static_text(child, flags) for child in node.body)
    raise unsupported(node, f"{kind(node)} outside the loop, where only text is compiled")

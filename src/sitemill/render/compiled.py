"""Compile simple entry templates into plain Python renderers; Jinja renders everything else."""
# Rendering a sitemap spends most of its time in Jinja's per-entry machinery. A template that only
# interpolates entry fields and tests them with ``{% if %}`` (the built-in ones, most overrides) is
# rendered by a small generated function instead, with exactly the same output (text, truthiness,
# markupsafe's escaping); any other is left to Jinja, so the output never depends on the path. The
# subset is a whitelist of node shapes: static text (``{% if uses_alternates %}``, ``{% if
# uses_images %}`` around it), one ``{% for x in entries %}`` with ``{{ x.<field> }}`` and ``{% if
# x.<field> %}``, and one level of ``x.alternates`` or ``x.images``. The generated code holds only
# fixed names and repr()-quoted text: nothing the sandbox (render.environment) would refuse.

from __future__ import annotations

from dataclasses import dataclass

import jinja2
from jinja2 import nodes

from sitemill.entries import Alternate, Entry, Image
from sitemill.render._compiledform import (
    XML_SPECIAL_CHARS,
    CompiledParts,
    CompiledTemplate,
    build_compiled,
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


# The Python expression that writes one entry: the compiled renderer's inner loop.
# Text and fields become one %-format, an ``{% if %}`` a conditional expression, a loop over an
# entry's alternates or images a join; anything else is _Unsupported (Jinja renders it).
FIELDS = Entry._fields
# The fields of an entry that hold a tuple of items, and the fields of those items.
_ITEM_FIELDS = {"alternates": Alternate._fields, "images": Image._fields}
_FIELD_NAMES = f"fields ({', '.join(FIELDS)})"


class _Unsupported(Exception):
    """The template uses something beyond the subset this compiler handles."""


def unsupported(node: nodes.Node, what: str) -> _Unsupported:
    """The reason, with the line of the template it is on."""
    return _Unsupported(f"line {node.lineno}: {what}")


def _output(name: str, escaping: bool) -> str:
    """The expression that writes a field: str() or, when escaping, markupsafe's escape.

    Inlined for the usual case, a str with nothing to escape, which is written as it is;
    anything else goes through ``xml_escape`` (the same result, a function call slower).
    """
    if not escaping:
        return f"str({name})"
    plain = " or ".join(f"{char!r} in {name}" for char in XML_SPECIAL_CHARS)
    return f"({name} if {name}.__class__ is str and not ({plain}) else _escape({name}))"


# A loop variable's name -> the prefix of its fields' Python names, and those fields.
Scope = dict[str, tuple[str, tuple[str, ...]]]


def _field(node: nodes.Node, scope: Scope) -> str:
    if (
        isinstance(node, nodes.Getattr)
        and isinstance(node.node, nodes.Name)
        and node.node.name in scope
        and node.attr in scope[node.node.name][1]
    ):
        return f"{scope[node.node.name][0]}{node.attr}"
    raise unsupported(node, f"{kind(node)} where only the entry's {_FIELD_NAMES} are compiled")


def _item_loop(node: nodes.For, scope: Scope, escaping: bool) -> str:
    """``{% for item in entry.alternates %}`` (or images): a join over a comprehension, and
    nothing at all for an entry without items (most entries)."""
    source = node.iter
    if not (
        isinstance(node.target, nodes.Name)
        and isinstance(source, nodes.Getattr)
        and isinstance(source.node, nodes.Name)
        and scope.get(source.node.name, ("", ()))[0] == "f_"
        and source.attr in _ITEM_FIELDS
        and not node.else_
        and node.test is None
        and not node.recursive
    ):
        raise unsupported(node, "a loop other than {% for item in entry.alternates/images %}")
    fields = _ITEM_FIELDS[source.attr]
    inner = {**scope, node.target.name: ("i_", fields)}
    text = entry_expression(node.body, inner, escaping, nested=True)
    names = ", ".join(f"i_{name}" for name in fields)
    items = f"f_{source.attr}"
    return f"(''.join([{text} for {names}, in {items}]) if {items} else '')"


def entry_expression(
    body: list[nodes.Node],
    scope: Scope,
    escaping: bool,
    *,
    nested: bool = False,
    plain: bool = False,
) -> str:
    """A Python expression for the text a list of template nodes writes for one entry.

    Text and fields become one %-format (built in C at once); an ``{% if %}`` becomes a
    conditional expression whose text is one more %-format inside it, and a loop over an
    entry's alternates or images a join (``nested``: inside such a loop, where no other is;
    ``plain``: for entries without alternates and images, where such a loop writes nothing).
    """
    template: list[str] = []
    values: list[str] = []
    for node in body:
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    template.append(child.data.replace("%", "%%"))
                else:
                    template.append("%s")
                    values.append(_output(_field(child, scope), escaping))
        elif isinstance(node, nodes.If) and not node.elif_:
            then = entry_expression(node.body, scope, escaping, nested=nested, plain=plain)
            otherwise = entry_expression(node.else_, scope, escaping, nested=nested, plain=plain)
            template.append("%s")
            values.append(f"({then} if {_field(node.test, scope)} else {otherwise})")
        elif isinstance(node, nodes.For) and not nested:
            loop = _item_loop(node, scope, escaping)  # (checked in either case)
            if not plain:
                template.append("%s")
                values.append(loop)
        else:
            raise unsupported(node, f"{kind(node)} inside the loop")
    if not values:
        return repr("".join(template).replace("%%", "%"))
    return f"({''.join(template)!r} % ({', '.join(values)},))"


def kind(node: nodes.Node) -> str:
    """A node, as a reason names it: what the template wrote, where that is short."""
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name):
        return f"'{node.node.name}.{node.attr}'"
    if isinstance(node, nodes.Name):
        return f"the variable {node.name!r}"
    if isinstance(node, nodes.Filter | nodes.Test):
        return f"the {type(node).__name__.lower()} {node.name!r}"
    if isinstance(node, nodes.If):
        return "an {% elif %}"
    return f"a Jinja {type(node).__name__} node"

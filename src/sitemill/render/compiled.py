"""Compile simple entry templates into plain Python renderers; Jinja renders everything else.

Rendering a sitemap spends most of its time in Jinja's per-entry machinery (a generator
step per fragment, an attribute lookup and an escape call per field). A template that only
interpolates entry fields and tests them with ``{% if %}`` — the built-in ones, and most
user overrides — can be rendered by a small generated function instead, with exactly the
same output: the same text, the same truthiness, the same escaping as markupsafe. Any
template outside that subset (filters, macros, loop variables, expressions) is left to
Jinja, so the output never depends on which path ran.

The subset is a whitelist of node shapes: static text, one ``{% for x in entries %}``, and
inside it ``{{ x.<field> }}`` and ``{% if x.<field> %}`` for the four Entry fields. The
generated code holds only fixed names and repr()-quoted text, so it reaches nothing that
the sandbox Jinja renders the template in (see sitemill.render.environment) would refuse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import jinja2
import markupsafe
from jinja2 import nodes

from sitemill.entries import Entry

_FIELDS = Entry._fields
# markupsafe.escape's replacements, in its order (& first, so nothing is escaped twice).
_XML_SPECIAL = (("&", "&amp;"), (">", "&gt;"), ("<", "&lt;"), ("'", "&#39;"), ('"', "&#34;"))
_XML_SPECIAL_CHARS = "".join(char for char, _ in _XML_SPECIAL)
_FIELD_NAMES = f"fields ({', '.join(_FIELDS)})"


def xml_escape(value: object) -> str:
    """Exactly what Jinja's autoescape writes for ``value`` (markupsafe.escape), as a str."""
    if value.__class__ is not str:
        return str(markupsafe.escape(value))
    text: str = value
    if "&" in text or "<" in text or ">" in text or "'" in text or '"' in text:
        for char, entity in _XML_SPECIAL:
            text = text.replace(char, entity)
    return text


@dataclass(frozen=True, slots=True)
class CompiledTemplate:
    """A template split into its fixed header and footer and a function per entry."""

    header: str
    footer: str
    render_entry: Callable[[Entry], str]
    render_batch: Callable[[list[Entry]], list[str]]  # the same, for many entries at once


@dataclass(frozen=True, slots=True)
class Declined:
    """Why a template is left to Jinja: what in it lies outside the compiled subset."""

    reason: str


class _Unsupported(Exception):
    """The template uses something beyond the subset this compiler handles."""


def compile_template(template: jinja2.Template) -> CompiledTemplate | None:
    """A specialized renderer for ``template``, or None when Jinja must render it."""
    compiled = try_compile_template(template)
    return compiled if isinstance(compiled, CompiledTemplate) else None


def try_compile_template(template: jinja2.Template) -> CompiledTemplate | Declined:
    """A specialized renderer for ``template``, or why Jinja must render it."""
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
        return _compile(tree, escaping)
    except _Unsupported as exc:
        return Declined(str(exc))
    except jinja2.TemplateError as exc:  # Jinja renders it (or fails, and says why)
        return Declined(f"its source could not be read again ({type(exc).__name__})")
    except RecursionError:
        return Declined("it is nested too deeply to parse")


def _compile(tree: nodes.Template, escaping: bool) -> CompiledTemplate:
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
        raise _unsupported(loop, "a loop that is not a plain {% for entry in entries %}")
    split = tree.body.index(loop)
    header = "".join(_static_text(node) for node in tree.body[:split])
    footer = "".join(_static_text(node) for node in tree.body[split + 1 :])
    fields = ", ".join(f"f_{name}" for name in _FIELDS)
    text = _expression(loop.body, loop.target.name, escaping)
    source = (
        f"def render_entry(entry):\n    {fields}, = entry\n    return {text}\n"
        f"def render_batch(entries):\n    return [{text} for {fields} in entries]\n"
    )
    namespace: dict[str, object] = {"_escape": xml_escape}
    try:
        exec(compile(source, "<sitemill-template>", "exec"), namespace)  # noqa: S102
    except (SyntaxError, RecursionError, MemoryError) as exc:  # a template too deep to inline
        raise _Unsupported("too large to compile") from exc
    render_entry, render_batch = namespace["render_entry"], namespace["render_batch"]
    assert callable(render_entry) and callable(render_batch)
    return CompiledTemplate(header, footer, render_entry, render_batch)


def _unsupported(node: nodes.Node, what: str) -> _Unsupported:
    """The reason, with the line of the template it is on."""
    return _Unsupported(f"line {node.lineno}: {what}")


def _output(name: str, escaping: bool) -> str:
    """The expression that writes a field: str() or, when escaping, markupsafe's escape.

    Inlined for the usual case, a str with nothing to escape, which is written as it is;
    anything else goes through ``xml_escape`` (the same result, a function call slower).
    """
    if not escaping:
        return f"str({name})"
    plain = " or ".join(f"{char!r} in {name}" for char in _XML_SPECIAL_CHARS)
    return f"({name} if {name}.__class__ is str and not ({plain}) else _escape({name}))"


def _static_text(node: nodes.Node) -> str:
    if isinstance(node, nodes.Output):
        dynamic = [n for n in node.nodes if not isinstance(n, nodes.TemplateData)]
        if not dynamic:
            return "".join(n.data for n in node.nodes)  # type: ignore[attr-defined]
        node = dynamic[0]
    raise _unsupported(node, f"{_kind(node)} outside the loop, where only text is compiled")


def _field(node: nodes.Node, target: str) -> str:
    if (
        isinstance(node, nodes.Getattr)
        and isinstance(node.node, nodes.Name)
        and node.node.name == target
        and node.attr in _FIELDS
    ):
        return f"f_{node.attr}"
    raise _unsupported(node, f"{_kind(node)} where only the entry's {_FIELD_NAMES} are compiled")


def _expression(body: list[nodes.Node], target: str, escaping: bool) -> str:
    """A Python expression for the text a list of template nodes writes for one entry.

    Text and fields become one %-format (built in C at once); an ``{% if %}`` becomes a
    conditional expression whose text is one more %-format inside it.
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
                    values.append(_output(_field(child, target), escaping))
        elif isinstance(node, nodes.If) and not node.elif_:
            then = _expression(node.body, target, escaping)
            otherwise = _expression(node.else_, target, escaping)
            template.append("%s")
            values.append(f"({then} if {_field(node.test, target)} else {otherwise})")
        else:
            raise _unsupported(node, f"{_kind(node)} inside the loop")
    if not values:
        return repr("".join(template).replace("%%", "%"))
    return f"({''.join(template)!r} % ({', '.join(values)},))"


def _kind(node: nodes.Node) -> str:
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

"""The Python expression that writes one entry: the compiled renderer's inner loop."""
# Text and fields become one %-format, an ``{% if %}`` a conditional expression, a loop over an
# entry's alternates or images a join; anything else is _Unsupported (Jinja renders it).

from __future__ import annotations

from jinja2 import nodes

from sitemill.entries import Alternate, Entry, Image
from sitemill.render._compiledform import XML_SPECIAL_CHARS

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

"""Jinja2 environment and the templates: urlset, sitemapindex, text and the HTML sitemap."""
# Templates run in Jinja's immutable sandbox: they see the values they are given (no private
# attributes, no methods that change data), include only templates from templates_dir and the
# built-in ones, and any failure becomes one TemplateError line naming the template.

from __future__ import annotations

import os
import re
import stat
import traceback
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, Final

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

from sitemill.errors import ConfigError, TemplateError
from sitemill.render.templatenames import HTML_TEMPLATE as HTML_TEMPLATE
from sitemill.render.templatenames import INDEX_TEMPLATE as INDEX_TEMPLATE
from sitemill.render.templatenames import MAX_TEMPLATE_BYTES
from sitemill.render.templatenames import TEXT_TEMPLATE as TEXT_TEMPLATE
from sitemill.render.templatenames import URLSET_TEMPLATE as URLSET_TEMPLATE

_BUILTIN_NAMES: Final = (URLSET_TEMPLATE, INDEX_TEMPLATE, TEXT_TEMPLATE, HTML_TEMPLATE)
# What a template may build with "*" and "**" (the sandbox already bounds range() to
# jinja2.sandbox.MAX_RANGE items): enough for any markup, far from exhausting memory.
MAX_REPEAT: Final = 10_000_000  # items or characters of a repeated sequence
MAX_INT_BITS: Final = 100_000  # bits of an integer product or power
_MESSAGE_LENGTH: Final = 300  # an error line quotes at most this much of an exception
# Frames of template code, as Jinja rewrites them in a traceback (see jinja2.debug).
_TEMPLATE_FRAME: Final = re.compile(r"template|top-level template code|block '.*'")


def _builtin_loader() -> jinja2.BaseLoader:
    # Read through importlib.resources so that the templates load from a wheel, an editable
    # install or the unpacked Lambda zip alike.
    folder = resources.files("sitemill.templates")
    return jinja2.DictLoader({name: (folder / name).read_text("utf-8") for name in _BUILTIN_NAMES})


class TemplatesDirLoader(jinja2.BaseLoader):
    """The user's templates_dir: regular UTF-8 files of at most MAX_TEMPLATE_BYTES inside it.

    A name with ".." or a leading "/", or a symbolic link that leads out of the folder, is
    an error, not a miss: it never falls back to a built-in template of the same name.
    """

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._root = Path(os.path.realpath(folder))

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        parts = [part for part in template.split("/") if part not in ("", ".")]
        if template.startswith("/") or ".." in parts or any("\\" in p or "\0" in p for p in parts):
            raise jinja2.TemplateError(f"{template!r} is outside templates_dir")
        path = self._folder.joinpath(*parts)
        real = Path(os.path.realpath(path))
        if not real.is_relative_to(self._root):
            raise jinja2.TemplateError(f"{template!r} is a link that leads outside templates_dir")
        source, mtime = _read_template(real, template)

        def uptodate() -> bool:
            try:
                return os.stat(real).st_mtime_ns == mtime
            except OSError:
                return False

        return source, os.path.normpath(path), uptodate


def _read_template(path: Path, name: str) -> tuple[str, int]:
    """The text of a template file and its mtime; never blocks on a FIFO, never follows a
    link swapped in since the path was resolved, never reads more than the limit."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise jinja2.TemplateNotFound(name) from exc
    except OSError as exc:
        raise jinja2.TemplateError(f"cannot read {name!r}: {exc.strerror or exc}") from exc
    with os.fdopen(descriptor, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise jinja2.TemplateError(f"{name!r} is not a regular file")
        data = stream.read(MAX_TEMPLATE_BYTES + 1)
    if len(data) > MAX_TEMPLATE_BYTES:
        raise jinja2.TemplateError(f"{name!r} is larger than {MAX_TEMPLATE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise jinja2.TemplateError(f"{name!r} is not UTF-8 text ({exc.reason})") from exc
    # Universal newlines, as a file opened in text mode (FileSystemLoader's way) reads them.
    return text.replace("\r\n", "\n").replace("\r", "\n"), status.st_mtime_ns


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, with "*" and "**" bounded (see MAX_REPEAT, MAX_INT_BITS)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if (too_large := _too_large(operator, left, right)) is not None:
            raise SecurityError(f"{too_large} is too large for a template")
        return super().call_binop(context, operator, left, right)


def _too_large(operator: str, left: Any, right: Any) -> str | None:
    """What is wrong with ``left <operator> right`` (an intercepted "*" or "**"), if anything."""
    if isinstance(left, int) and isinstance(right, int):
        if operator == "**":
            bits = abs(left).bit_length() * right if abs(left) > 1 else 0
        else:
            bits = left.bit_length() + right.bit_length()
        return f"an integer of {bits} bits" if bits > MAX_INT_BITS else None
    for sequence, count in ((left, right), (right, left)):
        repeated = isinstance(sequence, str | bytes | list | tuple) and isinstance(count, int)
        if repeated and len(sequence) * count > MAX_REPEAT:
            return f"a sequence of {len(sequence) * count} items"
    return None


def _autoescape(name: str | None) -> bool:
    # Escape every XML template (".xml.j2" would escape nothing with select_autoescape's
    # default extensions); a text sitemap holds raw URLs, where "&amp;" would be wrong.
    return name is None or not name.endswith(".txt.j2")


def make_environment(templates_dir: Path | None = None) -> jinja2.Environment:
    """A sandboxed environment whose loader prefers templates_dir over the built-in ones."""
    loaders: list[jinja2.BaseLoader] = []
    if templates_dir is not None:
        if not templates_dir.is_dir():
            raise ConfigError("templates_dir", f"{templates_dir} is not a directory")
        loaders.append(TemplatesDirLoader(templates_dir))
    loaders.append(_builtin_loader())
    return _Sandbox(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=_autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def is_user_template(template: jinja2.Template) -> bool:
    """Whether ``template`` came from the user's templates_dir (a file), not the built-ins.

    Built-in templates come from a DictLoader, which gives no file name (Jinja then says
    "<template>"); TemplatesDirLoader gives the file's path.
    """
    filename = template.filename
    return filename is not None and not filename.startswith("<")


def load_template(environment: jinja2.Environment, name: str) -> jinja2.Template:
    try:
        return environment.get_template(name)
    except Exception as exc:  # a syntax error, a bad include, a template too deep to parse
        raise template_error(name, exc) from exc


def template_error(name: str | None, exc: BaseException) -> TemplateError:
    """One line for a template that failed: its name, where in it, and what went wrong.

    Everything a template does can fail (Jinja's errors, the sandbox's SecurityError, the
    ZeroDivisionError or RecursionError of its own code): all of it is reported this way.
    """
    where = f"template {name}"
    if isinstance(exc, jinja2.TemplateSyntaxError):
        inner = exc.filename or exc.name
        if inner and not _same_template(inner, name):
            where += f" (in {inner})"
        where += f", line {exc.lineno}"
        what = f"syntax error: {exc.message}"
    else:
        # The innermost line of template code, in the frames Jinja rewrote to point at it.
        lines = [
            (frame.f_code.co_filename, line)
            for frame, line in traceback.walk_tb(exc.__traceback__)
            if _TEMPLATE_FRAME.fullmatch(frame.f_code.co_name)
        ]
        if lines:
            inner, line = lines[-1]
            if inner != "<template>" and not _same_template(inner, name):
                where += f" (in {inner})"
            where += f", line {line}"
        if isinstance(exc, jinja2.TemplateNotFound):
            what = f"no template named {exc.name!r}"
        elif type(exc) is jinja2.TemplateError:  # the loader's own complaints
            what = str(exc.message)
        elif isinstance(exc, jinja2.TemplateError):
            what = f"{type(exc).__name__}: {exc.message}"
        else:
            what = f"{type(exc).__name__}: {exc}"
    what = " ".join(what.split())
    if len(what) > _MESSAGE_LENGTH:
        what = what[: _MESSAGE_LENGTH - 1] + "…"
    return TemplateError(f"{where}: {what}")


def _same_template(filename: str, name: str | None) -> bool:
    return name is not None and (filename == name or filename.endswith(os.sep + name))

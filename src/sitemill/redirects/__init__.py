"""Redirects for removed URLs, pure: written in a host's or generator's form, read from a build."""
# Read from the rules a build serves (`_redirects`, S3 routing rules). Text in, text out.

from sitemill.redirects._formchoice import detect_generator, form_for, generator_form
from sitemill.redirects._render import redirect_notes, render_redirects
from sitemill.redirects._routingrules import parse_routing_rules
from sitemill.redirects._rules import RedirectRules
from sitemill.redirects.model import (
    MAX_ROUTING_RULES,
    Redirect,
    RedirectForm,
    is_redirect_status,
)
from sitemill.redirects.netlifyfile import parse_netlify_toml, parse_redirects_file

__all__ = [
    "MAX_ROUTING_RULES",
    "Redirect",
    "RedirectForm",
    "RedirectRules",
    "detect_generator",
    "form_for",
    "generator_form",
    "is_redirect_status",
    "parse_netlify_toml",
    "parse_redirects_file",
    "parse_routing_rules",
    "redirect_notes",
    "render_redirects",
]

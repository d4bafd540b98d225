"""HTML for the widgets, from Jinja2 templates with autoescape on, and the one stylesheet they share.

Every string a user or a file supplies (a file name, a seed, an exercise's text, a save's field) reaches the page
through a template, which escapes it; only values already made safe (:class:`Markup`, such as rule ids turned into
links by :func:`rulebook.rules_text.rule_links`) pass unescaped. Looks come from classes in ``style.css``, not from
inline ``style=`` attributes.

Shared templates live in ``rulebook/view/templates/``; a game's own in ``<its package>/templates/``
(``render("scores.html", package=__package__)``), so a game package outside this repository brings its own.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

__all__ = ["STYLESHEET", "Markup", "escape", "render"]

STYLESHEET = Path(__file__).with_name("style.css")
_SHARED = Path(__file__).with_name("templates")


@functools.cache
def _environment(folder: str) -> Any:
    """One Jinja2 environment per templates folder (Jinja2 is imported on the first render, not at import)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([folder, str(_SHARED)]),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,  # a value a template needs and is not given is an error, not blank text
        keep_trailing_newline=False,
    )


@functools.cache
def _templates_of(package: str | None) -> str:
    if package is None:
        return str(_SHARED)
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"no package {package!r} to take templates from")
    return str(Path(next(iter(spec.submodule_search_locations))) / "templates")


def render(template: str, package: str | None = None, **values: Any) -> Markup:
    """The HTML of ``template`` (a file in the package's ``templates/`` folder, else the shared one) with ``values``
    escaped unless they are :class:`Markup`."""
    html = _environment(_templates_of(package)).get_template(template).render(**values)
    return Markup(html.strip())

"""Issue 26.9: the app's pages as Voila renders them link nothing of another host. Voila's lab template links
Font Awesome from cdn.jsdelivr.net (which its own voila-style.js holds already) and nbconvert's imports mermaid from
cdnjs.cloudflare.com; rulebook/voila_templates, first in RulebookVoila's template paths, leaves them out. The page
rendered here is Voila's own rendering of a notebook (its exporter, its templates as installed); the browser's view
of it is tests/e2e/test_offline_app.py."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import nbformat
from voila.configuration import VoilaConfiguration
from voila.exporter import VoilaExporter
from voila.paths import collect_static_paths, collect_template_paths
from voila.utils import create_include_assets_functions

from rulebook.voila_app import TEMPLATES, RulebookVoila

# what makes a browser ask a host: a link's or a script's address, a module import, a stylesheet's url()
FETCHED = re.compile(r"""(?:href|src)\s*=\s*["'](https?:)?//|import\(\s*["'](https?:)?//|url\(\s*["']?(https?:)?//""")


async def _start(nb):
    return "kernel"


async def _execute(nb, kernel_id):
    return nb


async def _cells(nb, kernel_id):
    for cell in nb.cells:
        yield cell


def rendered(paths: list[str]) -> str:
    """Voila's page of a one-cell notebook with these template paths (the kernel's part stubbed: no kernel runs)."""
    exporter = VoilaExporter(template_paths=paths, template_name="lab", base_url="/", theme="light")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("App('claim')", id="app")])
    resources = {"base_url": "/", "theme": "light", "template": "lab", "metadata": {"name": "Claim"}, "page_config": {}}
    context = {
        "frontend": "voila",
        "main_js": "voila.js",
        "kernel_start": _start,
        "notebook_execute": _execute,
        "progressive_rendering": False,
        "cell_generator": _cells,
    }

    async def page() -> str:
        parts = []
        async for output, _ in exporter.generate_from_notebook_node(nb, resources=resources, extra_context=context):
            parts.append(output)
        return "".join(parts)

    return asyncio.run(page())


def test_the_app_page_asks_no_other_host_and_keeps_voila_s_font_awesome():
    voila_paths = collect_template_paths(["voila", "nbconvert"], "lab", prune=True)
    theirs = rendered(voila_paths)
    assert "cdn.jsdelivr.net" in theirs and FETCHED.search(theirs), "Voila's page links its CDN (what is removed)"
    ours = rendered([str(TEMPLATES), *voila_paths])
    assert not FETCHED.search(ours), FETCHED.search(ours)
    assert "cdn.jsdelivr.net" not in ours and "cdnjs.cloudflare.com" not in ours
    assert "static/voila-style.js" in ours, "Voila's own stylesheet script, which holds Font Awesome, stays"
    assert ours.count("<script") >= theirs.count("<script") - 1  # only mermaid's loader went
    assert ours[ours.index("<body") :] == theirs[theirs.index("<body") :], "the page itself is Voila's"


def test_voila_s_style_script_holds_the_icons_the_app_uses():
    """The icons of the app's buttons (ipywidgets' Font Awesome 4 names) are in voila-style.js, served by Voila."""
    found = [Path(path, "voila-style.js") for path in collect_static_paths(["voila", "nbconvert"], "lab")]
    text = next(path for path in found if path.is_file()).read_text(encoding="utf-8", errors="replace")
    assert "Font Awesome 5 Free" in text
    for icon in ("lightbulb-o", "undo", "fast-backward", "step-backward", "step-forward", "fast-forward"):
        assert f"fa-{icon}" in text, icon


def test_rulebook_voila_puts_its_templates_first_and_no_address_picks_another():
    app = RulebookVoila()
    app.voila_configuration = VoilaConfiguration(parent=app)
    app.setup_template_dirs()
    assert app.template_paths[0] == str(TEMPLATES) and app.template_paths.count(str(TEMPLATES)) == 1
    assert app.voila_configuration.allow_template_override == "NO"


def test_voila_s_other_pages_use_the_rulebook_s_frame():
    """An error page (Voila's error.html extends "page.html"): the rulebook's page.html, without Font Awesome 4.5
    from the CDN that Voila's base page.html links outside any block."""
    import jinja2

    paths = [str(TEMPLATES), *collect_template_paths(["voila", "nbconvert"], "lab", prune=True)]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(paths), extensions=["jinja2.ext.i18n"])
    env.install_null_translations()  # type: ignore[attr-defined]
    namespace = {"status_code": 404, "status_message": "Not Found", "base_url": "/", "theme": "light"}
    page = env.get_template("404.html").render(**namespace, **create_include_assets_functions("lab", "/"))
    assert "404: Not Found" in page and "does not exist" in page and "static/index.css" in page
    assert not FETCHED.search(page) and "cdn.jsdelivr.net" not in page

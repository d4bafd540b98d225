"""The rulebook as a static website: JupyterLite with the Pyodide kernel, every file served from the site's own host.

``make site`` (``python -m rulebook.site``) builds ``site/``: a front page listing the games of the registry, one page
per game that opens its app (``App(name)``, as ``rulebook app`` does) in the browser's own Python, and JupyterLab
(JupyterLite) on the notebooks. :mod:`rulebook.site.build` holds the pipeline, :mod:`rulebook.site.pages` the pages.
Nothing here is imported by the rulebook itself, but :mod:`rulebook.site.deferred`, which the apps' pages import in the
browser to fetch the parts of packages their first screen leaves out.
"""

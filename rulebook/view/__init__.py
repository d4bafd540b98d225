"""The view kit: a game in play drawn as widgets (:mod:`.table`'s Table), figures drawn in the page from plotly's JSON
(:mod:`.figures`: BoardView, ChartView), HTML from escaped templates (:mod:`.markup`), and the page's own files: the
.js modules of the anywidgets, ``style.css`` and ``templates/``."""

from pathlib import Path

FILES = Path(__file__).parent  # where the page's files are: the anywidgets' .js modules, style.css and templates/

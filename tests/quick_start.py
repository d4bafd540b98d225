"""Loaded by pytest before its plugins (``-p tests.quick_start`` in pyproject's addopts), in the main process and in
each xdist worker: nbval's plugin imports nbformat, whose schema validation imports jsonschema, which builds
rfc3987_syntax's grammars on import (1.3 s of the 1.8 s nbval's plugin took to import; see
:func:`rulebook.serve.skip_unused_iri_grammars`, which the rulebook's servers call too)."""

from rulebook.serve import skip_unused_iri_grammars

skip_unused_iri_grammars()

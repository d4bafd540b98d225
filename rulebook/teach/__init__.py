"""Teaching content read by id: the rules text from the notebooks' markdown, the guided first games (tutorials) and
the exercises with their marking. Plain Python: the panels that show them are in :mod:`rulebook.app`."""

"""Moved: the exercises' data and marking to :mod:`rulebook.teach.exercises`, their panel to
:mod:`rulebook.app.exercise_panel`. This path stays working for saved notebooks (``from rulebook.exercises import
ExercisePanel``), outside games and teachers' cells: every name of both is read here."""

from typing import Any

from rulebook.app.exercise_panel import SHOW, ExercisePanel
from rulebook.teach import exercises as _moved

__all__ = ["SHOW", "ExercisePanel"]


def __getattr__(name: str) -> Any:
    return getattr(_moved, name)  # the data and marking, read from where they live (a monkeypatch goes there)

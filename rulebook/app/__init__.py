"""The app: one page that opens on a game, with its set-up, rules, save and load, exercises, guided first game and
"Who is winning?" beside the board. ``App("claim")`` is all the app notebook holds; ``rulebook app GAME`` serves it.

Its parts, a module each: :mod:`.shell` (App: how a game comes onto the board), :mod:`.toolbar`, :mod:`.setup_panel`,
:mod:`.side_tabs`, :mod:`.rules` (the Rules tab), :mod:`.files` (save and load), :mod:`.exercise_view` with
:mod:`.exercise_panel`, :mod:`.learn_tab` with :mod:`.learn`, and :mod:`.estimate_panel`; :mod:`.base` is what
they share.
"""

from rulebook.app.exercise_panel import ExercisePanel
from rulebook.app.files import LoadButton, SaveButton, moves_played
from rulebook.app.rules import RulesPanel, rules_html
from rulebook.app.shell import App

__all__ = ["App", "ExercisePanel", "LoadButton", "RulesPanel", "SaveButton", "moves_played", "rules_html"]

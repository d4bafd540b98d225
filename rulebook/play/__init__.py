"""A game in play, as plain Python over the engine's verbs: a session (undo, chance, computer turns, hints, the log),
many games between computer players (study) and who is winning (estimate). No widget library is imported here."""

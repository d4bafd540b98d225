"""Nim's board: a ``rulebook.ui.Table`` with a row of buttons per heap and no figure.

``Board(state, seed=..., computer={seat: name})`` as every game's board; a click sends a move through the table
(``check``/``apply`` in its session), so a refused take is told with its rule id in the status line."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from rulebook.ui import Table

from .rules import State, Take


class Board(Table):
    """The heaps, each with its stones and one button per number of stones a turn may take from it."""

    def __init__(self, state: State, *, seed: int = 0, computer: Any = ()) -> None:
        super().__init__(state, seed=seed, computer=computer)
        self.heap_texts = [widgets.HTML() for _ in state.heaps]
        self.buttons: dict[tuple[int, int], widgets.Button] = {}
        rows = []
        for heap, text in enumerate(self.heap_texts, start=1):
            row = [text]
            for count in range(1, state.limit + 1):
                button = widgets.Button(description=f"take {count}", tooltip=f"Take {count} from heap {heap}")
                button.layout.width = "70px"
                button.on_click(lambda _, move=Take(heap, count): self.play(move))
                self.buttons[(heap, count)] = button
                row.append(button)
            rows.append(widgets.HBox(row))
        self.children = [self.status, *rows, widgets.HBox([self.undo_button]), self.history_bar, self.move_log]
        self.start()

    def prompt(self) -> str:
        if self.state.player is None:
            return "The last stone is taken."
        return f"{self.describe_player(self.state.player)} to take stones."

    def draw(self) -> None:
        for heap, (text, held) in enumerate(zip(self.heap_texts, self.state.heaps), start=1):
            text.value = f"<b>Heap {heap}</b>: {html.escape('●' * held) or 'empty'} ({held})"
        self.move_log.value = self.history_html()

"""The Set-up tab: players, who plays each seat (a person or a computer level, its description under it), the seed
and the game's options; New game reads them (:meth:`SetupPart.read_setup`)."""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as widgets

from rulebook.app.base import Part, Started
from rulebook.registry import Option
from rulebook.view import markup

WIDE = "330px"  # a control's widest: the panel holds 328 px
# the label of the players', seats' and seed's rows: the seats' names are short ("P6 (purple)", 80 px), and at 150 px
# the menu beside it had 128 px for its text, which cut "Computer: intermediate" (136 px at 13 px) (issue 48.9)
SEAT_LABEL = "100px"


def _option_control(option: Option) -> widgets.Widget:
    style = {"description_width": "150px"}
    layout = widgets.Layout(width="100%", max_width=WIDE)
    if option.choices:
        control = widgets.Dropdown(
            description=option.label, options=list(option.choices), value=option.default, style=style, layout=layout
        )
    elif isinstance(option.default, bool):
        control = widgets.Checkbox(description=option.label, value=option.default, indent=False, layout=layout)
    else:
        control = widgets.BoundedIntText(
            description=option.label,
            value=option.default,
            min=option.minimum if option.minimum is not None else -(10**9),
            max=option.maximum if option.maximum is not None else 10**9,
            style=style,
            layout=layout,
        )
    control.tooltip = option.help
    control.add_class("rulebook-option")  # a long label wraps onto a second line (style.css), never cut
    return control


class SetupPart(Part):
    """Builds the set-up panel, sets it from App's arguments and reads the game it describes."""

    entropy = random.SystemRandom()  # the seed of a game whose seed is left blank

    def _build_setup(self) -> widgets.VBox:
        setup = self.setup
        self.players = widgets.Dropdown(
            description="Players",
            options=[(str(n), n) for n in setup.players],
            value=setup.default_players,
            style={"description_width": SEAT_LABEL},
            layout=widgets.Layout(width="180px"),
        )
        seat_rows = self._build_seats()
        self.seed_text = widgets.Text(
            description="Seed",
            placeholder="blank: a new random game",
            style={"description_width": SEAT_LABEL},
            layout=widgets.Layout(width="100%", max_width=WIDE),
            tooltip="The same seed deals the same game",
        )
        self.option_controls = {option.name: _option_control(option) for option in setup.options}
        self.setup_message = widgets.HTML()
        self.players.observe(lambda _: self._show_seats(), names="value")
        self._show_seats()
        levels = [level.label for level in setup.levels]
        hint = widgets.HTML(markup.render("setup_hint.html", levels=levels))
        parts: list[widgets.Widget] = [hint, self.players, *seat_rows, self.seed_text]
        if self.option_controls:
            parts.append(widgets.HTML(markup.render("heading.html", text="Game options")))
            parts.extend(self.option_controls.values())
        parts.append(self.setup_message)
        parts.append(self._build_join_box())  # a seat at a class table instead (rulebook.app.table_part)
        return widgets.VBox(parts, layout=widgets.Layout(max_height="640px", overflow="auto", padding="4px"))

    def _build_seats(self) -> list[widgets.Widget]:
        """A menu per seat (a person or a computer level) with its level's description under it."""
        setup = self.setup
        seat_choices = [("Person", "")] + [(setup.bot_label(level.name), level.name) for level in setup.levels]
        self.seats: list[widgets.Dropdown] = []
        self.seat_notes: list[widgets.HTML] = []  # under each seat: its computer level's description, in full
        rows: list[widgets.Widget] = []
        for seat, name in enumerate(setup.seat_names(setup.players[-1])):
            control = widgets.Dropdown(
                description=name,
                options=seat_choices,
                value=setup.default_computer.get(seat, ""),
                style={"description_width": SEAT_LABEL},  # the level's whole name shows in the menu
                layout=widgets.Layout(width="100%", max_width=WIDE),
            )
            note = widgets.HTML(layout=widgets.Layout(width="100%", flex="0 0 auto"))  # wraps in the panel
            note.add_class("rulebook-level-note")
            control.observe(lambda _change, seat=seat: self._describe_level(seat), names="value")
            self.seats.append(control)
            self.seat_notes.append(note)
            # never squeezed by the panel's height (a long set-up scrolls instead): the description stays whole
            row = widgets.Layout(flex="0 0 auto", width="100%", overflow="visible")
            rows.append(widgets.VBox([control, note], layout=row))
        return rows

    def _show_seats(self) -> None:
        players = self.players.value
        names = self.setup.seat_names(players)
        for seat, control in enumerate(self.seats):
            control.layout.display = None if seat < players else "none"
            if seat < players:
                control.description = names[seat]
            self._describe_level(seat)
        for option in self.setup.options:
            if option.players:
                self.option_controls[option.name].layout.display = None if players in option.players else "none"

    def _describe_level(self, seat: int) -> None:
        """Under a seat's menu, the description of the computer level chosen for it (none for a person, or a seat
        the game does not use): the menu shows the level's name only, its description is never cut off."""
        level = self.setup.level(self.seats[seat].value)
        note = self.seat_notes[seat]
        if level is None or seat >= self.players.value:
            note.value, note.layout.display = "", "none"
            return
        note.value = markup.render("level_note.html", level=level.label, text=level.description)
        note.layout.display = None

    def _apply_arguments(self, players: int | None, seed: int | None, computer: Any) -> None:
        """Set the panel from the constructor's arguments (a notebook can open the app on a chosen game)."""
        if players is not None:
            self.players.value = players
        if seed is not None:
            self.seed_text.value = str(seed)
        if computer is not None:
            seats = computer.items() if isinstance(computer, dict) else ((seat, "greedy") for seat in computer)
            for control in self.seats:
                control.value = ""
            for seat, name in seats:
                self.seats[seat].value = name

    def read_setup(self) -> Started:
        """The game the set-up panel describes; ValueError says which choice is wrong."""
        players = self.players.value
        text = self.seed_text.value.strip()
        if not text:
            seed = self.entropy.randrange(1_000_000)
        elif text.isdigit():
            seed = int(text)
        else:
            raise ValueError(f"Seed: a whole number, or blank for a random game (not {text!r})")
        computer = {seat: control.value for seat, control in enumerate(self.seats[:players]) if control.value}
        options = {name: control.value for name, control in self.option_controls.items()}
        return Started(players=players, seed=seed, computer=computer, options=options)

"""The game app: one page that opens on a game, with its set-up, rules, save and load beside the board.

``App("claim")`` is all the app notebook holds; ``rulebook app GAME`` serves it with Voila. The shell knows no game:
it asks the registry (``rulebook.registry``) for the game's set-up, board, explorer and verbs (saving and loading),
and ``rulebook.rules_text`` for the rules (read from the game's notebook, the one source).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from rulebook import registry
from rulebook.registry import Option
from rulebook.teach import rules_text
from rulebook.teach.exercises import Exercise, ExercisePanel
from rulebook.view import FILES as VIEW
from rulebook.view import figures, markup, table
from rulebook.view.markup import Markup
from rulebook.view.table import Table, build, close_widgets

PANEL_WIDTH = "360px"
MAX_UPLOAD = 5_000_000  # bytes: a save of a very long game is well under 1 MB


@dataclass
class Game:
    """How the game on the board was started: what New game read from the set-up, or the file it was loaded from."""

    players: int
    seed: int
    computer: dict[int, str]
    options: dict[str, Any] = field(default_factory=dict)
    loaded: Any = None  # the loaded position, for a game that came from a file
    source: str = ""
    moves: int = 0  # the moves played before the board's first position, as the log counts them (a loaded game)


@dataclass
class _Away:
    """The game put aside while an exercise is on the board, kept as it was: "Back to your game" shows it again."""

    board: Table
    game: Game
    explorer: tuple[widgets.Widget, ...]  # the odds tab's explorer of that board (none if it was never opened)
    display: str | None  # the board's layout.display before it was hidden


class RulesPanel(anywidget.AnyWidget):
    """The whole rules text, scrolled to the paragraph in ``focus`` (which is highlighted)."""

    _esm = VIEW / "rules_panel.js"
    _css = markup.STYLESHEET
    value = traitlets.Unicode("").tag(sync=True)
    focus = traitlets.Unicode("").tag(sync=True)


def rules_html(game: str) -> Markup:
    """Every paragraph of a game's rules under its section heading, each marked with its id."""
    known = rules_text.paragraphs(game)
    paragraphs: list[tuple[str, str, bool, Markup]] = []
    heading = ""
    for kind, text in rules_text.outline(game):
        if kind == "heading":
            heading = text
            continue
        paragraph = known[text]
        body = rules_text.rule_links(rules_text.to_html(paragraph.markdown), known)
        paragraphs.append((heading, text, paragraph.is_clarification, body))
        heading = ""
    return markup.render("rules.html", paragraphs=paragraphs)


class SaveButton(anywidget.AnyWidget):
    """A Save button: a click asks the kernel for the game's JSON, which the browser downloads as a file."""

    _esm = VIEW / "save_button.js"
    _css = markup.STYLESHEET  # the app's toolbar holds one: the app's page has the styles before any board

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.provider: Any = None
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("save") and self.provider is not None:
            name, text = self.provider()
            self.send({"file": name, "text": text})


class LoadButton(anywidget.AnyWidget):
    """A Load button: the browser's file chooser, whose file comes to the kernel as bytes: each of ``handlers`` is
    called with its name, its content and "" (or None and why it was not read). Unlike ipywidgets' FileUpload it
    shows no count of files ("Load (0)")."""

    _esm = VIEW / "load_button.js"
    _css = markup.STYLESHEET
    limit = traitlets.Int(MAX_UPLOAD).tag(sync=True)  # bytes: a larger file is not read, its size is told

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.handlers: list[Any] = []
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, buffers: Any) -> None:
        if not isinstance(content, dict) or "load" not in content:
            return
        name = str(content.get("load") or "the file")[:200]
        size = content.get("size")
        data: bytes | None = None
        if content.get("unreadable"):
            why = "the browser could not read the file"
        elif buffers:
            data, why = bytes(buffers[0]), ""
        elif isinstance(size, int) and size > self.limit:  # too large to send: only its size came
            why = f"the file is {size:,} bytes; a saved game is much smaller"
        else:
            data, why = b"", ""  # an empty file
        for handler in list(self.handlers):
            handler(name, data, why)


def moves_played(module: Any, state: Any) -> int:
    """The moves of a game's history as its log counts them: every entry but the chance outcomes (dice, cards
    drawn), which the log tells with the move they follow. Replays the history from the game's set-up."""
    history = list(getattr(state, "history", ()))
    if not history:
        return 0
    data = json.loads(module.to_json(state))
    data["history"] = []
    position = module.from_json(json.dumps(data))
    count = 0
    for entry in history:
        if module.outcome(position) is not None or not module.chance_outcomes(position):
            count += 1
        position = module.apply(position, entry)
    return count


def _read_save(data: bytes) -> str:
    """The text of an uploaded file that may be a save; ValueError in words when it cannot be one (no parser's
    message: "'Expecting value: line 1 column 1 (char 0)'" told a player nothing)."""
    if len(data) > MAX_UPLOAD:
        raise ValueError(f"the file is {len(data):,} bytes; a saved game is much smaller")
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("this file is not a saved game: it is not a text file (a saved game is JSON text)") from None
    if not text.strip():
        raise ValueError("this file is empty: it is not a saved game")
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"this file is not a saved game: it is not JSON (line {error.lineno})") from None
    except RecursionError:
        raise ValueError("this file is not a saved game: its JSON is nested too deeply") from None
    except ValueError:  # a number of more than 4300 digits
        raise ValueError("this file is not a saved game: it holds a number too long to read") from None
    return text


def _option_control(option: Option) -> widgets.Widget:
    style = {"description_width": "150px"}
    layout = widgets.Layout(width="100%", max_width="330px")  # the panel holds 328 px
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


class App(widgets.VBox):
    """One game as an app: toolbar (New game, Restart, Save, Load), the board, and a side panel (set-up, rules)."""

    SETUP_TAB, RULES_TAB, EXERCISES_TAB = 0, 1, 2

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        seed: int | None = None,
        computer: Any = None,
        plotly_url: str | None = None,
    ):
        if plotly_url is not None:  # `rulebook app` serves plotly.js as a file (figures.serve_plotly_from)
            figures.serve_plotly_from(plotly_url)
        self.setup: registry.Game = registry.game(game)
        self.game = game
        self.module = self.setup.engine
        self.board_class = self.setup.board_class()
        self.board: Table | None = None
        self.current: Game | None = None
        self.entropy = random.SystemRandom()
        self._away: _Away | None = None  # the game in progress while an exercise is on the board
        self.exercise_shown: Exercise | None = None  # the exercise on the board, if one is

        self.about = widgets.HTML()
        self.notice = widgets.HTML()
        toolbar = self._build_toolbar()
        self.banner = self._build_banner()
        self.tabs = self._build_side_panel()
        self.board_box = widgets.Box(layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        self.exercise_view = self._build_exercise_view()
        body = widgets.HBox([self.board_box, self.tabs], layout=widgets.Layout(align_items="flex-start"))
        super().__init__([toolbar, self.notice, self.banner, body], layout=widgets.Layout(width="100%"))
        self.add_class("rulebook-app")
        self._apply_arguments(players, seed, computer)
        self.new_game()

    # -- the parts of the page ---------------------------------------------------------------------------
    def _build_toolbar(self) -> widgets.HBox:
        """The title, New game, Restart, Save, Load, Hint and the line about the game on the board."""
        title = widgets.HTML(markup.render("app_title.html", title=self.setup.title))
        self.new_button = widgets.Button(
            description="New game", button_style="primary", tooltip="Start a game with the choices under Set-up"
        )
        self.new_button.add_class("rulebook-new-game")
        self.restart_button = widgets.Button(description="Restart", tooltip="Play this game again from its start")
        strongest = self.setup.level(self.setup.strongest())
        level = strongest.label if strongest is not None else self.setup.strongest()
        self.hint_button = widgets.Button(
            description="Hint",
            icon="lightbulb-o",
            tooltip=f"What the {level} computer player, the strongest level, would do now (not played)",
        )
        self.hint_button.add_class("rulebook-hint")
        self.hint_button.layout.width = "80px"
        self.hint_button.on_click(lambda _: self.board.hint() if self.board is not None else None)
        self.save_button = SaveButton()
        self.save_button.provider = self.saved
        self.upload = LoadButton()
        self.upload.handlers.append(self._uploaded)
        for button in (self.new_button, self.restart_button):
            button.layout.width = "100px"
        self.new_button.on_click(lambda _: self.new_game())
        self.restart_button.on_click(lambda _: self.restart())
        # the computer's moves: played out one at a time (told and marked) or at once; the board follows at once
        self.pace_menu = widgets.Dropdown(
            description="Computer moves",
            options=[("one by one", "normal"), ("one by one, fast", "fast"), ("all at once (off)", "off")],
            value=table.default_pace(),
            style={"description_width": "initial"},  # its whole label: at 110 px it read "Computer mo..."
            layout=widgets.Layout(width="285px"),
            tooltip="How the computer players' moves are shown: one at a time, told and marked, or all at once",
        )
        self.pace_menu.add_class("rulebook-pace")

        def paced(change: dict[str, Any]) -> None:
            table.choose_pace(change["new"])
            if self.board is not None and self.board.pace != change["new"]:
                self.board.pace = change["new"]

        self.pace_menu.observe(paced, names="value")
        return widgets.HBox(
            [title, self.new_button, self.restart_button, self.save_button, self.upload, self.hint_button]
            + [self.pace_menu, self.about],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"),
        )

    def _build_banner(self) -> widgets.HBox:
        """The game-over banner (hidden while a game is played), with a New game button."""
        self.banner_text = widgets.HTML()
        self.banner_new = widgets.Button(description="New game", button_style="success", tooltip="Start another game")
        self.banner_new.on_click(lambda _: self.new_game())
        banner = widgets.HBox(
            [self.banner_text, self.banner_new],
            layout=widgets.Layout(display="none", align_items="center", padding="4px 10px", border="2px solid #2e7d32"),
        )
        banner.add_class("rulebook-banner")
        return banner

    def _build_exercise_view(self) -> widgets.VBox:
        """What stands in the board's place while an exercise is shown: a line naming it with "Back to your game",
        over the exercise's own board (:meth:`show_exercise` puts it in)."""
        self.exercise_text = widgets.HTML()
        self.back_button = widgets.Button(
            description="Back to your game",
            icon="undo",
            button_style="success",
            tooltip="The game you were playing, exactly as you left it",
            layout=widgets.Layout(width="170px", flex="0 0 auto"),
        )
        self.back_button.add_class("rulebook-back-to-game")
        self.back_button.on_click(lambda _: self.back_to_game())
        self.exercise_bar = widgets.HBox(
            [self.exercise_text, self.back_button],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px", padding="2px 0"),
        )
        self.exercise_bar.add_class("rulebook-exercise-bar")
        self.odds_note = widgets.HTML(markup.render("exercise_odds_note.html"))  # the odds tab during an exercise
        view = widgets.VBox([self.exercise_bar], layout=widgets.Layout(width="100%"))
        view.add_class("rulebook-exercise-board")
        return view

    def _build_side_panel(self) -> widgets.Tab:
        """The tabs beside the board: set-up, rules, exercises and the game's explorer (if it has one); every tab but
        the set-up is filled when first shown (:meth:`_fill_tab`)."""
        self.setup_panel = self._build_setup()
        self.rules = RulesPanel()  # the text is sent when the tab is first shown (_fill_tab): the page opens faster
        self.rules.layout.width = "100%"
        self.rule_picker = widgets.Dropdown(
            description="Go to",
            options=[("-", "")] + [(self._rule_label(rule), rule) for rule in rules_text.paragraphs(self.game)],
            layout=widgets.Layout(width="100%", max_width="340px"),  # never wider than the panel (328 px)
            style={"description_width": "40px"},
        )
        self.rule_picker.observe(lambda change: self.open_rule(change["new"]) if change["new"] else None, "value")
        rules_box = widgets.VBox([self.rule_picker, self.rules])
        self.explorer_class = self.setup.explorer_class()  # the game's odds explorer, if it has one
        self.odds_box = widgets.Box(layout=widgets.Layout(width="100%"))
        self._exercises: ExercisePanel | None = None  # built when its tab is first shown (see `exercises`)
        self.exercises_box = widgets.Box(layout=widgets.Layout(width="100%"))
        panels, titles = [self.setup_panel, rules_box, self.exercises_box], ["Set-up", "Rules", "Exercises"]
        self._add_estimate_tab(panels, titles)
        self._add_learn_tab(panels, titles)  # a game with a tutorial: its Learn tab (issue 27)
        if self.explorer_class is not None:
            panels.append(self.odds_box)
            titles.append(getattr(self.explorer_class, "title", "Odds"))  # a game without chance names it its way
        tabs = widgets.Tab(children=panels, titles=tuple(titles))
        tabs.layout.width = PANEL_WIDTH
        tabs.layout.min_width = PANEL_WIDTH
        tabs.observe(self._fill_tab, "selected_index")
        return tabs

    def _add_estimate_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None:
        """The "Who is winning?" tab (rulebook.estimate_panel), placed before the explorer's (which stays last): the
        estimate of the live position on request, and its chart over the game, which follows every board the app
        shows (called after the app's own ``_board_changed``)."""
        from rulebook.app.estimate_panel import EstimatePanel

        panel = self.estimate_panel = EstimatePanel(lambda: self.board)
        app_changed = self._board_changed

        def changed(board: Table) -> None:
            app_changed(board)
            if board is self.board:
                panel.board_changed(board)

        self._board_changed = changed  # type: ignore[method-assign]  # _follow hands it to every board
        panels.append(panel)
        titles.append(panel.title)

    # -- set-up panel ------------------------------------------------------------------------------------
    def _build_setup(self) -> widgets.VBox:
        setup = self.setup
        self.players = widgets.Dropdown(
            description="Players",
            options=[(str(n), n) for n in setup.players],
            value=setup.default_players,
            style={"description_width": "150px"},
            layout=widgets.Layout(width="230px"),
        )
        seat_choices = [("Person", "")] + [(setup.bot_label(level.name), level.name) for level in setup.levels]
        self.seats: list[widgets.Dropdown] = []
        self.seat_notes: list[widgets.HTML] = []  # under each seat: its computer level's description, in full
        seat_rows: list[widgets.Widget] = []
        for seat, name in enumerate(setup.seat_names(setup.players[-1])):
            control = widgets.Dropdown(
                description=name,
                options=seat_choices,
                value=setup.default_computer.get(seat, ""),
                style={"description_width": "150px"},
                layout=widgets.Layout(width="100%", max_width="330px"),  # the panel holds 328 px
            )
            note = widgets.HTML(layout=widgets.Layout(width="100%", flex="0 0 auto"))  # wraps in the panel
            note.add_class("rulebook-level-note")
            control.observe(lambda _change, seat=seat: self._describe_level(seat), names="value")
            self.seats.append(control)
            self.seat_notes.append(note)
            # never squeezed by the panel's height (a long set-up scrolls instead): the description stays whole
            row = widgets.Layout(flex="0 0 auto", width="100%", overflow="visible")
            seat_rows.append(widgets.VBox([control, note], layout=row))
        self.seed_text = widgets.Text(
            description="Seed",
            placeholder="blank: a new random game",
            style={"description_width": "150px"},
            layout=widgets.Layout(width="100%", max_width="330px"),  # the panel holds 328 px
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
        return widgets.VBox(parts, layout=widgets.Layout(max_height="640px", overflow="auto", padding="4px"))

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
        shown = level is not None and seat < self.players.value
        note = self.seat_notes[seat]
        note.value = markup.render("level_note.html", level=level.label, text=level.description) if shown else ""
        note.layout.display = None if shown else "none"

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

    def read_setup(self) -> Game:
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
        return Game(players=players, seed=seed, computer=computer, options=options)

    # -- games ----------------------------------------------------------------------------------------------
    def new_game(self) -> bool:
        """Start a game from the set-up panel; a choice the game refuses is explained and nothing changes."""
        try:
            game = self.read_setup()
            self._start(game)
        except ValueError as error:
            self._say(f"Set-up: {error}", error=True)
            self.tabs.selected_index = self.SETUP_TAB
            return False
        self._say("")
        return True

    def restart(self) -> None:
        """The same game again from its start: same players, seats, seed and options (or the loaded position); while
        an exercise is shown, the exercise's position again (the game put aside stays as it was)."""
        if self._learn is not None and self._away is not None and self.board is self._learn.board:
            self._learn.lesson.go(self._learn.lesson.index)  # the lesson's step again from its start (issue 27)
        elif self.exercise_shown is not None:
            self.show_exercise(self.exercise_shown, self.exercise_shown.state())
        elif self.current is not None:
            self._start(self.current)
            self._say("Restarted: the same game from its start.")

    def _start(self, game: Game) -> None:
        state = game.loaded if game.loaded is not None else self.setup.new_state(game.players, game.seed, game.options)
        board = build(lambda: self.board_class(state, seed=game.seed, computer=game.computer))
        self.current = game
        self._show(board)

    @property
    def exercises(self) -> ExercisePanel:
        """The Exercises tab's panel, built the first time it is shown or asked for."""
        if self._exercises is None:
            panel = ExercisePanel(self.game, on_show=self.show_exercise)
            panel.feedback.handlers.append(self.open_rule)  # a rule id in the feedback opens the rules tab
            panel.check_handlers.append(self._exercise_checked)
            self._exercises = panel
            self.exercises_box.children = (panel,)
        return self._exercises

    def _fill_tab(self, *_: Any) -> None:
        """Build what a side tab shows when it is first selected: the page opens with the set-up only (the other
        tabs' widgets and the rules text made it about 0.1-0.2 s slower to open in a browser)."""
        index = self.tabs.selected_index
        if index == self.RULES_TAB and not self.rules.value:
            self.rules.value = rules_html(self.game)
        elif index == self.EXERCISES_TAB:
            self.exercises  # noqa: B018 - builds the panel
        self._build_explorer()

    @property
    def odds_tab(self) -> int | None:
        """The index of the explorer's tab (None for a game without one)."""
        return len(self.tabs.children) - 1 if self.explorer_class is not None else None

    def _build_explorer(self, *_: Any) -> None:
        """The explorer of the board's game, built when its tab is first shown: a page opens faster without its
        chart, and a tab nobody opens costs nothing."""
        if self.explorer_class is None or self.board is None or self.odds_box.children:
            return
        if self.tabs.selected_index == self.odds_tab:
            board, explorer_class = self.board, self.explorer_class
            self.odds_box.children = (build(lambda: explorer_class(board)),)

    def _follow(self, board: Table) -> None:
        """Make ``board`` the app's: the banner and the about line follow it, its rule ids open the rules tab."""
        self.board = board
        board.page_root = lambda: self  # a page shown the board gets the whole app's state again (Table._page_shown)
        board.listeners.append(self._board_changed)
        for text in (board.status, board.move_log):
            text.handlers.append(self.open_rule)

    def _show(self, board: Table) -> None:
        """Put a new game's board in place of what was shown, and close the boards and explorers it replaces (a
        replaced board left open stays in the kernel and the page: 70 to 120 widgets per New game)."""
        retired: list[widgets.Widget] = [] if self.board is None else [self.board]
        retired += [child for child in self.odds_box.children if child is not self.odds_note]
        if self._away is not None:  # a new game ends the exercise, and the game put aside for it
            retired += [self._away.board, *self._away.explorer]
            self._away, self.exercise_shown = None, None
            self.exercise_view.children = (self.exercise_bar,)
        self._follow(board)
        self.board_box.children = (board,)
        self.odds_box.children = ()
        close_widgets(*retired)
        self._build_explorer()
        self._board_changed(board)

    def _board_changed(self, board: Table) -> None:
        """After every redraw of the board: the banner and the line about the game."""
        if board is not self.board or self.current is None:
            return
        game = self.current
        people = [name for seat, name in enumerate(self.setup.seat_names(game.players)) if seat not in game.computer]
        who = ", ".join(people) if people else "nobody (computer players only)"
        origin = game.source or f"seed {game.seed}"
        self.about.value = markup.render("about.html", players=game.players, origin=origin, who=who)
        self.hint_button.disabled = board.finished or board.replaying
        if self.pace_menu.value != board.pace:  # a board that follows the page's prefers-reduced-motion: "off"
            self.pace_menu.value = board.pace
        if board.finished:
            self.banner_text.value = markup.render("banner.html", result=board.result_text())
            self.banner.layout.display = "flex"
        else:
            self.banner.layout.display = "none"

    def open_rule(self, rule: str) -> None:
        """Show a paragraph of the rules beside the board."""
        if rule not in rules_text.paragraphs(self.game):
            return
        self.tabs.selected_index = self.RULES_TAB  # shown first, so the panel has a size to scroll in
        if self.rules.focus == rule:
            self.rules.focus = ""  # the same rule again (the reader may have scrolled away): scroll back to it
        self.rules.focus = rule
        if self.rule_picker.value != rule:
            self.rule_picker.value = rule

    def _rule_label(self, rule: str) -> str:
        text = rules_text.paragraph(self.game, rule).markdown
        words = text.split("**", 2)[-1].replace("*", "").replace("`", "").strip().lstrip(".) ").split()
        return f"{rule}  {' '.join(words[:7])}…"

    def show_exercise(self, exercise: Exercise, state: Any) -> None:
        """Show an exercise's position on a board of its own, in the place of the game's board, which is kept as it
        was ("Back to your game" shows it again, the same board). The exercise's board has no computer players and
        shows no legal target, hint or score until the answer is checked (:meth:`_exercise_checked`)."""
        self._say(f"Setting up exercise {exercise.id} on its own board…")
        players = getattr(state, "players", self.setup.default_players)
        game = Game(players=players, seed=0, computer={}, loaded=state, source=f"exercise {exercise.id}")
        try:
            board = build(lambda: self.board_class(state, seed=0, computer={}))
        except ValueError as error:
            self._say(f"Exercise {exercise.id} cannot be shown: {error}", error=True)
            return
        board.show_only(
            f"Exercise {exercise.id}: the position only. Answer under Exercises; once your answer is checked, "
            "the board shows the moves and you can play on from here."
        )
        retired: list[widgets.Widget] = []
        if self._away is None:  # the game in progress is put aside as it is, board and all
            assert self.board is not None and self.current is not None
            self._away = _Away(self.board, self.current, tuple(self.odds_box.children), self.board.layout.display)
            self.board.layout.display = "none"  # hidden, not closed: its page stays drawn for the way back
        elif self.board is not None:
            retired.append(self.board)  # the board of the exercise shown before
        self.exercise_shown, self.current = exercise, game
        self._follow(board)
        self.exercise_text.value = markup.render(
            "exercise_bar.html", exercise=exercise.id, moves=len(getattr(self._away.board.live, "history", ()))
        )
        self.exercise_view.children = (self.exercise_bar, board)
        self.board_box.children = (self.exercise_view, self._away.board)
        self.odds_box.children = (self.odds_note,)  # the game's explorer waits with the game
        close_widgets(*retired)
        self._board_changed(board)
        self._say(f"Exercise {exercise.id} is on its own board; your game waits: Back to your game returns to it.")

    def _exercise_checked(self, exercise: Exercise) -> None:
        """Once the answer to the exercise on the board is checked, its board plays: legal targets, hints, moves."""
        board = self.board
        if self.exercise_shown is None or exercise.id != self.exercise_shown.id or board is None:
            return
        if board.shown_only:
            board.show_only("")
            self._say(f"Exercise {exercise.id} is checked: play on from its position, or go back to your game.")

    def back_to_game(self) -> None:
        """Close the exercise's board and show the game put aside for it, exactly as it was left."""
        away = self._away
        if away is None:
            return
        exercise_board = self.board
        self._away, self.exercise_shown = None, None
        self.board, self.current = away.board, away.game
        away.board.layout.display = away.display
        self.board_box.children = (away.board,)
        self.exercise_view.children = (self.exercise_bar,)
        self.odds_box.children = away.explorer
        if exercise_board is not None and exercise_board is not away.board:
            close_widgets(exercise_board)
        self._build_explorer()
        self._board_changed(away.board)
        self._say("Back to your game, as you left it.")

    # -- learn to play (issue 27): the guided first game in the board's place, the game put aside for it ----------
    def _add_learn_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None:
        """A Learn tab, after Exercises, for a game that has a tutorial: what it is and a button that opens it (the
        tutorial itself is read when first opened)."""
        from rulebook.teach import tutorial

        self._learn: Any = None  # the LearnPanel, once opened: it keeps the learner's step while the page is open
        if tutorial.path(self.game) is None:
            self.learn_tab: int | None = None
            return
        self.learn_offer = widgets.HTML(markup.render("tutorial_offer.html", title=self.setup.title, progress=""))
        self.learn_button = widgets.Button(
            description="Start the guided game",
            button_style="primary",
            icon="graduation-cap",
            tooltip="Learn to play on the board, step by step; your game waits",
            layout=widgets.Layout(width="220px"),
        )
        self.learn_button.add_class("rulebook-learn-start")
        self.learn_button.on_click(lambda _: self.show_tutorial())
        self.learn_tab = len(panels)
        panels.append(widgets.VBox([self.learn_offer, self.learn_button], layout=widgets.Layout(padding="4px")))
        titles.append("Learn")

    @property
    def learn(self) -> Any:
        """The guided first game's panel, made the first time it is asked for."""
        if self._learn is None:
            from rulebook.app.learn import LearnPanel

            panel = build(
                lambda: LearnPanel(
                    self.game, on_full_game=self._learned_full_game, on_exercises=self._learned_exercises
                )
            )
            panel.text.handlers.append(self.open_rule)
            panel.board_handlers.append(self._learn_board)
            panel.lesson.listeners.append(lambda _lesson: self._learn_progress())
            self._learn = panel
        return self._learn

    def show_tutorial(self) -> None:
        """Show the guided first game in the board's place, at the step the learner left it; the game in progress is
        put aside as it is ("Back to your game" returns to it, as from an exercise)."""
        panel = self.learn
        retired: list[widgets.Widget] = []
        if self._away is None:
            assert self.board is not None and self.current is not None
            self._away = _Away(self.board, self.current, tuple(self.odds_box.children), self.board.layout.display)
            self.board.layout.display = "none"
        elif self.board is not None and self.board is not panel.board:
            retired.append(self.board)  # an exercise's board shown before
        self.exercise_shown = None
        board = panel.show()
        self.exercise_view.children = (self.exercise_bar, panel)
        self.board_box.children = (self.exercise_view, self._away.board)
        self.odds_box.children = (self.odds_note,)
        close_widgets(*retired)
        self._learn_board(board)

    def _learn_board(self, board: Table) -> None:
        """The lesson put a board on the page: the app follows it (rule links, banner, about line)."""
        if self._learn is None or self._away is None or self._learn.board is not board:
            return
        state = board.state
        players = getattr(state, "players", self.setup.default_players)
        replying = self._learn.replying_seats(state)  # the seats whose moves the lesson plays
        self.current = Game(players=players, seed=0, computer=replying, loaded=state, source="the guided first game")
        self._follow(board)
        self._learn_progress()
        self._board_changed(board)

    def _learn_progress(self) -> None:
        """The bar over the lesson and the Learn tab tell the learner's step."""
        if self._learn is None or self.learn_tab is None:
            return
        progress = self._learn.lesson.progress()
        self.learn_offer.value = markup.render("tutorial_offer.html", title=self.setup.title, progress=progress)
        self.learn_button.description = "Back to the lesson"
        if self._away is not None and self.exercise_shown is None and self.board is self._learn.board:
            moves = len(getattr(self._away.board.live, "history", ()))
            self.exercise_text.value = markup.render("tutorial_bar.html", progress=progress, moves=moves)
            self._say(f"Learn to play {self.setup.title}: {progress.lower()}. Your game waits.")

    def _learned_full_game(self) -> None:
        """After the lesson: a new game against the computer at the beginner level (seats but the first)."""
        beginner = self._learn.beginner() if self._learn is not None else {}
        self.players.value = self.setup.default_players
        for seat, control in enumerate(self.seats):
            control.value = beginner.get(seat, "")
        self.seed_text.value = ""
        self.new_game()

    def _learned_exercises(self) -> None:
        """After the lesson: back to the game, with the exercises' tab open."""
        self.back_to_game()
        self.tabs.selected_index = self.EXERCISES_TAB

    # -- save and load --------------------------------------------------------------------------------------
    def saved(self) -> tuple[str, str]:
        """The file name and JSON text of the game on the board (the position shown); the name counts its moves as
        the log does (a chance outcome is not a move), the moves before a loaded game's start included."""
        assert self.board is not None
        state = self.board.state
        before = self.current.moves if self.current is not None else 0
        return f"{self.game}-move{before + self.board.session.shown}.json", self.module.to_json(state)

    def load(self, name: str, data: bytes) -> bool:
        """Continue a saved game; a file that is not one leaves the game on the board as it was."""
        try:
            state = self.module.from_json(_read_save(data))
        except (ValueError, RecursionError, TypeError, KeyError, IndexError, AttributeError) as error:
            reason = "it is nested too deeply" if isinstance(error, RecursionError) else str(error)
            self._say(f"Could not load {name}: {reason}. The game on the board is unchanged.", error=True)
            return False
        players = getattr(state, "players", self.setup.default_players)
        playing = self._away.game if self._away is not None else self.current  # the game, not an exercise shown
        keep = playing.computer if playing is not None else {}
        computer = {seat: bot for seat, bot in keep.items() if seat < players}
        seed = getattr(state, "seed", 0) + len(getattr(state, "history", ()))
        try:
            moves = moves_played(self.module, state)
            game = Game(players=players, seed=seed, computer=computer, loaded=state, source=f"loaded from {name}")
            game.moves = moves
            self._start(game)
        except ValueError as error:
            self._say(f"Could not load {name}: {error}. The game on the board is unchanged.", error=True)
            return False
        assert self.board is not None
        if self.board.finished:
            result = self.board.result_text() or "it is over."
            self._say(f"Loaded {name}: the game is over, after {moves} moves. {result} Press New game to play again.")
        else:
            self._say(f"Loaded {name}: the game continues after move {moves}.")
        return True

    def _uploaded(self, name: str, data: bytes | None, why: str = "") -> None:
        """A file chosen with Load: loaded, or (one the browser did not send) why not told."""
        if data is None:
            self._say(f"Could not load {name}: {why}. The game on the board is unchanged.", error=True)
            return
        self.load(name, data)

    def _say(self, text: str, error: bool = False) -> None:
        """Tell what the last action did (or, with ``error``, why it was refused) above the board; a refusal is told
        under the set-up too. The text is plain: file names and seeds in it are escaped."""
        self.notice.value = markup.render("notice.html", kind="error" if error else "info", text=text) if text else ""
        self.setup_message.value = self.notice.value if error else ""

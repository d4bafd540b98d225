"""The tabs beside the board: Set-up, Rules, Exercises, Who is winning?, Learn (a game with a tutorial), My progress
and the game's explorer (Odds, or what the game names it). Every tab but the set-up is filled when first shown: the
page opens faster, and a tab nobody opens costs nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from rulebook.app.base import PANEL_WIDTH, Part
from rulebook.app.exercise_panel import ExercisePanel
from rulebook.view.table import Table, build

# The side panel as a bar of buttons (style.css, where the page is narrow: the panel under the board, shown only with
# the class rb-panel-open): a tap on a tab opens its panel, a tap on the open tab closes it again, and a tab the
# kernel chooses (a rule link, a set-up to correct, a lesson's step) opens its panel too. The page's state only: the
# kernel keeps the tab chosen, the page whether its panel is open.
PANEL_BAR_ESM = Path(__file__).with_name("panel_bar.js")


class PanelBar(anywidget.AnyWidget):
    """The side tabs as a bar of buttons on a narrow page: a tap opens one panel, a second tap closes it; ``opened``
    counts the tabs the kernel chose, each of which opens its panel; ``board_shown`` the boards put in the board's
    place from a panel, each of which (on a phone) closes the panel and brings the board into sight. Takes no
    room."""

    _esm = PANEL_BAR_ESM
    opened = traitlets.Int(0).tag(sync=True)
    board_shown = traitlets.Int(0).tag(sync=True)


class SidePanel(widgets.Tab):
    """The side tabs: a tab the kernel selects (even the one already selected) opens its panel on a narrow page."""

    def __init__(self, bar: PanelBar, **kwargs: Any) -> None:
        self.bar = bar
        super().__init__(**kwargs)
        self.add_class("rulebook-side")

    @traitlets.validate("selected_index")
    def _validated_index(self, proposal: Any) -> Any:
        value = super()._validated_index(proposal)
        bar = getattr(self, "bar", None)
        if bar is not None and value is not None and "selected_index" not in self._property_lock:
            bar.opened += 1  # chosen here, not tapped in the page
        return value


class SideTabsPart(Part):
    """Builds the tab bar; the parts give its panels (set-up, rules, learn) and the explorer is built here."""

    def _build_side_panel(self) -> widgets.Tab:
        """The tabs beside the board: set-up, rules, exercises and the game's explorer (if it has one); every tab but
        the set-up is filled when first shown (:meth:`_fill_tab`)."""
        self.setup_panel = self._build_setup()
        rules_box = self._build_rules_tab()
        self.explorer_class = self.setup.explorer_class()  # the game's odds explorer, if it has one
        self.odds_box = widgets.Box(layout=widgets.Layout(width="100%"))
        self._exercises: ExercisePanel | None = None  # built when its tab is first shown (see `exercises`)
        self.exercises_box = widgets.Box(layout=widgets.Layout(width="100%"))
        panels, titles = [self.setup_panel, rules_box, self.exercises_box], ["Set-up", "Rules", "Exercises"]
        self._add_estimate_tab(panels, titles)
        self._add_learn_tab(panels, titles)  # a game with a tutorial: its Learn tab (issue 27)
        self._add_progress_tab(panels, titles)  # My progress (issue 49)
        if self.explorer_class is not None:
            panels.append(self.odds_box)
            titles.append(getattr(self.explorer_class, "title", "Odds"))  # a game without chance names it its way
        tabs = SidePanel(self.panel_bar, children=panels, titles=tuple(titles))
        tabs.layout.width = PANEL_WIDTH
        tabs.layout.min_width = PANEL_WIDTH
        tabs.observe(self._fill_tab, "selected_index")
        return tabs

    @property
    def panel_bar(self) -> PanelBar:
        """What makes the side tabs a bar of buttons on a narrow page; the toolbar holds it (it takes no room)."""
        if getattr(self, "_panel_bar", None) is None:
            self._panel_bar = PanelBar(layout=widgets.Layout(width="0px", height="0px", margin="0px"))
        return self._panel_bar

    def _add_estimate_tab(self, panels: list[widgets.Widget], titles: list[str]) -> None:
        """The "Who is winning?" tab (:mod:`.estimate_panel`), placed before the explorer's (which stays last): the
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
        if index == self.RULES_TAB:
            self._fill_rules()
        elif index == self.EXERCISES_TAB:
            self.exercises  # noqa: B018 - builds the panel
        elif index == self.progress_tab:
            self.progress_panel  # noqa: B018 - builds the panel
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

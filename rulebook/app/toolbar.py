"""The app's toolbar (title, New game, Restart, Save, Load, Hint, the computer's pace, the line about the game) and
the game-over banner under it."""

from __future__ import annotations

from typing import Any

import anywidget
import ipywidgets as widgets

from rulebook.app.base import Part
from rulebook.app.files import LoadButton, SaveButton
from rulebook.view import FILES as VIEW
from rulebook.view import markup, table


class SkipLink(anywidget.AnyWidget):
    """ "Skip to the board": the app's first stop for the Tab key, seen only when the keyboard is on it; Enter puts
    the focus on the board (the page's keyboard users reached it after 11 Tabs)."""

    _esm = VIEW / "skip_link.js"
    _css = markup.STYLESHEET


class ToolbarPart(Part):
    """Builds the toolbar and the banner; their buttons call App's new_game, restart, save and load."""

    def _build_toolbar(self) -> widgets.HBox:
        """The title, New game, Restart, Save, Load, Hint and the line about the game on the board."""
        title = widgets.HTML(markup.render("app_title.html", title=self.setup.title))
        title.add_class("rulebook-title")
        # the line about the game takes the toolbar's room left, in two lines at most (the whole line in its tooltip):
        # a long file name after Load wrapped the toolbar onto a second row and moved the board down (issue 48.9)
        self.about = widgets.HTML(layout=widgets.Layout(flex="1 1 0px", min_width="0"))
        self.about.add_class("rulebook-about")
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
        self.pace_menu = self._build_pace_menu()
        self.menu_button = widgets.ToggleButton(
            description="Menu", icon="bars", tooltip="New game, Restart, Save, Load and the computer's moves"
        )
        self.menu_button.add_class("rulebook-menu-button")
        toolbar = widgets.HBox(
            [title, self.menu_button, self.new_button, self.restart_button, self.save_button, self.upload]
            + [self.hint_button, self.pace_menu, self.about, self.panel_bar],
            layout=widgets.Layout(align_items="center", flex_flow="row wrap", grid_gap="8px"),
        )
        toolbar.add_class("rulebook-toolbar")
        # on a narrow page (style.css) the toolbar is the title, Hint and Menu, which shows the rest or hides it again
        self.menu_button.observe(
            lambda change: (toolbar.add_class if change["new"] else toolbar.remove_class)("rb-menu-open"), "value"
        )
        return toolbar

    def _build_skip_link(self) -> SkipLink:
        """The "Skip to the board" link, first in the page's tab order; it takes no room in the page."""
        self.skip_link = SkipLink(layout=widgets.Layout(height="0px", margin="0px", overflow="visible"))
        return self.skip_link

    def _build_pace_menu(self) -> widgets.Dropdown:
        """The computer's moves: played out one at a time (told and marked) or at once; the board follows at once."""
        menu = widgets.Dropdown(
            description="Computer moves",
            options=[("one by one", "normal"), ("one by one, fast", "fast"), ("all at once (off)", "off")],
            value=table.default_pace(),
            style={"description_width": "initial"},  # its whole label: at 110 px it read "Computer mo..."
            layout=widgets.Layout(width="285px"),
            tooltip="How the computer players' moves are shown: one at a time, told and marked, or all at once",
        )
        menu.add_class("rulebook-pace")

        def paced(change: dict[str, Any]) -> None:
            table.choose_pace(change["new"])
            if self.board is not None and self.board.pace != change["new"]:
                self.board.pace = change["new"]

        menu.observe(paced, names="value")
        return menu

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

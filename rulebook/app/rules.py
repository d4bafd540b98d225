"""The Rules tab: the whole rules text (read by id from the game's notebook, the one source) scrolled to a paragraph,
and the "Go to" menu of its paragraphs. Every rule id the board, the log, an exercise or the lesson shows opens it."""

from __future__ import annotations

import anywidget
import ipywidgets as widgets
import traitlets

from rulebook.app.base import Part
from rulebook.teach import rules_text
from rulebook.view import FILES as VIEW
from rulebook.view import markup
from rulebook.view.markup import Markup


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


class RulesPart(Part):
    """The Rules tab's panel and menu, and :meth:`open_rule`, which every rule link of the page calls."""

    def _build_rules_tab(self) -> widgets.VBox:
        self.rules = RulesPanel()  # the text is sent when the tab is first shown (_fill_tab): the page opens faster
        self.rules.layout.width = "100%"
        self.rule_picker = widgets.Dropdown(
            description="Go to",
            options=[("-", "")] + [(self._rule_label(rule), rule) for rule in rules_text.paragraphs(self.game)],
            layout=widgets.Layout(width="100%", max_width="340px"),  # never wider than the panel (328 px)
            style={"description_width": "40px"},
        )
        self.rule_picker.observe(lambda change: self.open_rule(change["new"]) if change["new"] else None, "value")
        return widgets.VBox([self.rule_picker, self.rules])

    def _fill_rules(self) -> None:
        """The rules text, sent the first time the tab is shown."""
        if not self.rules.value:
            self.rules.value = rules_html(self.game)

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

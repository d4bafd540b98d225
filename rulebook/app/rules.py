"""The Rules tab: the whole rules text (read by id from the game's notebook, the one source) scrolled to a paragraph,
the "Go to" menu of its paragraphs and a search box that answers a question (:func:`rulebook.search.find`). Every rule
id the board, the log, an exercise or the lesson shows opens it, and lists the paragraphs related to it under the
search box: a refusal's rule id opens its paragraph with the rules around it ("why?")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import anywidget
import ipywidgets as widgets
import traitlets

from rulebook.app.base import Part
from rulebook.teach import rules_text
from rulebook.view import FILES as VIEW
from rulebook.view import markup
from rulebook.view.markup import Markup

if TYPE_CHECKING:  # the search (and lunr) is imported at the first question or related list, not on the first screen
    from rulebook import search
from rulebook.view.table import RuleText

SEARCH_LIMIT = 5  # results shown: the tab is narrow, and the best come first
EXCERPT = 160  # characters of a result's text shown around its first matching word


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


def marked(text: str, matched: Iterable[str]) -> Markup:
    """``text`` escaped, its words that are in ``matched`` (a hit's matching words) in <mark>."""
    wanted = {word.lower() for word in matched}
    parts = re.split(r"(\w+)", text)
    return Markup("").join(
        Markup("<mark>{}</mark>").format(part) if part.lower() in wanted else markup.escape(part) for part in parts
    )


def excerpt(text: str, matched: Iterable[str], size: int = EXCERPT) -> str:
    """About ``size`` characters of ``text`` from a little before its first matching word, cut with "…"."""
    if len(text) <= size:
        return text
    wanted = {word.lower() for word in matched}
    first = next((m.start() for m in re.finditer(r"\w+", text) if m.group(0).lower() in wanted), 0)
    start = max(0, min(first - size // 3, len(text) - size))
    end = min(len(text), start + size)
    if start:  # whole words only
        start = min(first, text.find(" ", start) + 1 or start)
    if end < len(text):
        end = max(text.rfind(" ", 0, end), first + 1)
    return ("… " if start else "") + text[start:end] + (" …" if end < len(text) else "")


def results_html(game: str, hits: list[search.Hit], heading: str = "", empty: str = "") -> Markup:
    """The search results (or a paragraph's related ones) as the tab shows them: id and related ids as rule links."""
    known = rules_text.paragraphs(game)
    rows = []
    for rank, hit in enumerate(hits):
        related = ", ".join(rule for rule in hit.related if rule in known) if rank == 0 else ""
        rows.append(
            {
                "link": rules_text.rule_links(str(markup.escape(hit.id)), known),
                "title": hit.title,
                "text": marked(excerpt(hit.text, hit.matched), hit.matched),
                "related": rules_text.rule_links(str(markup.escape(related)), known) if related else "",
            }
        )
    return markup.render("search_results.html", heading=heading, hits=rows, empty=empty)


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
        # a rule the tab opened itself moves the menu too: that is no new choice (focus is already on it)
        self.rule_picker.observe(
            lambda change: self.open_rule(change["new"]) if change["new"] not in ("", self.rules.focus) else None,
            "value",
        )
        self.search_box = widgets.Text(
            placeholder="Ask: can I attack across the water?",
            description="Search",
            continuous_update=False,  # searched on Enter (or leaving the box), not on every key
            layout=widgets.Layout(width="100%", max_width="340px"),
            style={"description_width": "50px"},
        )
        self.search_box.observe(lambda change: self.search_rules(change["new"]), "value")
        self.search_results = RuleText(self.game)  # its rule ids open their paragraph, as every rule link does
        self.search_results.add_class("rulebook-search-results")
        self.search_results.handlers.append(lambda rule: self.open_rule(rule, related=False))
        return widgets.VBox([self.search_box, self.search_results, self.rule_picker, self.rules])

    def search_rules(self, query: str) -> list[search.Hit]:
        """Show the paragraphs that answer ``query`` under the search box, best first (nothing for an empty one)."""
        from rulebook import search

        hits = search.find(query, game=self.game, limit=SEARCH_LIMIT) if query.strip() else []
        empty = "No paragraph matches; try other words." if query.strip() else ""
        self.search_results.value = str(results_html(self.game, hits, empty=empty))
        return hits

    def show_related(self, rule: str) -> None:
        """List the paragraphs related to ``rule`` under the search box (those it cites, those citing it, ...)."""
        from rulebook import search

        documents = search.documents()
        hits = [
            search.Hit(other, documents[other]["title"], documents[other]["text"], self.game, 0.0, (), ())
            for other in search.related(rule)
        ]
        self.search_results.value = str(results_html(self.game, hits, heading=f"Related to {rule}:"))

    def _fill_rules(self) -> None:
        """The rules text, sent the first time the tab is shown."""
        if not self.rules.value:
            self.rules.value = rules_html(self.game)

    def open_rule(self, rule: str, related: bool = True) -> None:
        """Show a paragraph of the rules beside the board, and (unless a search result asked) its related ones."""
        if rule not in rules_text.paragraphs(self.game):
            return
        if related:
            self.show_related(rule)
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

"""Every public name keeps its old import path (issue 44): saved notebooks, outside games and teachers' cells import
``rulebook.app.App``, ``rulebook.session.Session``, ``rulebook.ui``, ``rulebook.views`` and the rest by the paths they
had before the package was grouped into layer subpackages. The names below were read from the modules as they were
before the move (commit dd3869a), not from the code under test."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

# the shell's modules before the move, each with its public names (top-level classes, functions, constants)
OLD_MODULES = {
    "rulebook.app": "RulesPanel rules_html SaveButton LoadButton moves_played App",
    "rulebook.session": "CHANCE_WORDS chance_words game_name computer_players Step LogLine LogGroup Names Session",
    "rulebook.rules_text": "RULE_ID Paragraph notebooks_dir notebook_path parse paragraphs outline paragraph to_html "
    "rule_links",
    "rulebook.ui": "RuleText PACES PACE_SECONDS SKIP PacePreference PREFERENCE checked_pace default_pace choose_pace "
    "event_loop_timer MotionQuery close_widgets live_widgets send_again W build Table",
    "rulebook.views": "plotly_json trace point_ids FigureView BoardView plotly_file serve_plotly_from plotly_file_name "
    "ChartView",
    "rulebook.exercises": "KINDS FIELDS REQUIRED Choice Exercise allowed value_functions data_dir data_path parse "
    "exercises exercise computed_answer cited labels mark feedback_html ExercisePanel SHOW GAMES",
    "rulebook.study": "Z95 wilson GameResult play_game MAX_GAMES check plan schedule Study run progress_bar",
    "rulebook.estimate": "CPU PLAYOUTS MAX_MOVES HORIZON PROBE EVERYONE SLOW_DECISION MAX_REMEMBERED Policy "
    "SeatEstimate Estimate assumption estimate history",
    "rulebook.tutorial": "FILE TOP_FIELDS STEP_FIELDS ACCEPT NEW_GAME_FIELDS MAX_STEPS TutorialStep Tutorial "
    "same_position path games load parse Verdict Lesson",
    "rulebook.markup": "STYLESHEET render",
    "rulebook.charts": "WIDTH HEIGHT finish",
    "rulebook.learn": "LearnPanel",
    "rulebook.estimate_panel": "CHART_CPU CHART_PLAYOUTS CHART_POSITIONS QUIET PAUSE DASHES SEED viewer_of "
    "estimate_html history_figure EstimatePanel",
    "rulebook.bench": "ROOT TARGETS widget_clicks legal_move_times cold_random_play import_time main",
    "rulebook.loadtest": "CHROMIUM FLAGS BOARD SIZES MAX_PAGES unavailable one_size figures",
    "rulebook.serve": "LOOPBACK PORT_TRIES is_loopback check_ip choose_port address fresh_token lab_command "
    "voila_command supervise main",
    "rulebook.voila_app": "TEMPLATES RulebookKernelManager PageHandler RulebookVoila",
    "rulebook.kernel_manager": "KernelManager",
    "rulebook.working_copy": "default_folder shipped_folder protected_folders fingerprint check_folder prepare",
    "rulebook.registry": "Game Level Option Bench game games refresh",
    "rulebook.core": "IllegalMove Outcome",
}

# each game's public names (its package's __all__ before the move): verbs, move classes, Config, from_diagram
GAMES = {
    "meetjesland": "Attack BREWERY Board CardDrawn Config Dice EndTurn Fortify MISSIONS MOVE_CLASSES Map Mission "
    "PLAYER_COLOURS Place RULES_VERSION Reinforce Retreat Roll State TradeCards apply arrange auto_setup "
    "chance_outcomes check colour_bonus deck effective_mission examples from_json legal_moves load_board "
    "mission_done narrate new_game news_for outcome reinforcements replay resolve_roll set_value to_json "
    "whole_regions",
    "kingdom_builder": "Build CARDS_PER_TERRAIN CardDrawn Config EndTurn FIRST_GAME_CARDS FIRST_GAME_SECTIONS "
    "KINGDOM_BUILDER_CARDS LOCATIONS RULES_VERSION SECTIONS SETTLEMENTS State TERRAINS UseTile apply board_graph "
    "card_scores castle_scores chance_outcomes check from_diagram from_json legal_moves marks move_words narrate "
    "new_game outcome position score scoring_hexes terrain_diagram to_diagram to_json view",
    "claim": "Config FIGURE_NUMBERS IllegalMove Island Jump Pass Place PlaceTower Placement RULES_VERSION Remove "
    "State Step Stop apply assemble captures_of chance_outcomes check conquerable figure fixed_layout from_diagram "
    "from_json island legal_moves load_sections moves_from narrate new_game outcome play_figure points_graph "
    "random_layout territory_summary to_diagram to_json",
    "ab_die_post": "COLOURS CardDrawn Config DrawCard FULL_DECK Fly KeepCard LANES MarbleShaken Move RULES_VERSION "
    "Repair State Stay Stop apply chance_outcomes check from_json hand_points legal_moves load_track narrate "
    "new_game outcome placings to_json",
}


@pytest.mark.parametrize("module", sorted(OLD_MODULES))
def test_every_public_name_imports_through_its_old_path(module):
    loaded = importlib.import_module(module)
    missing = [name for name in OLD_MODULES[module].split() if not hasattr(loaded, name)]
    assert not missing, f"{module} lost {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_verbs_move_classes_bots_and_board_import_through_their_old_paths(game):
    package = importlib.import_module(f"rulebook.{game}")
    missing = [name for name in GAMES[game].split() if not hasattr(package, name)]
    assert not missing, f"rulebook.{game} lost {missing}"
    assert importlib.import_module(f"rulebook.{game}.bots").BOTS
    assert isinstance(importlib.import_module(f"rulebook.{game}.widget").Board, type)


def test_an_old_path_is_the_moved_module_itself_so_a_patch_of_it_reaches_the_code():
    from rulebook import session, ui, views
    from rulebook.play import session as moved_session
    from rulebook.view import figures, table

    assert session is moved_session and ui is table and views is figures
    from rulebook.app import App as NewApp
    from rulebook.app.shell import App

    assert App is NewApp


def test_python_m_rulebook_serve_still_runs():
    """``rulebook lab`` and ``rulebook app`` start ``python -m rulebook.serve``, now a package with a __main__."""
    result = subprocess.run([sys.executable, "-m", "rulebook.serve"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout.startswith("usage: python -m rulebook.serve lab|voila"), result


def test_the_top_of_the_package_keeps_at_most_eight_modules_and_the_façades_stay_short():
    from pathlib import Path

    top = Path(__file__).resolve().parents[1] / "rulebook"
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in top.glob("*.py")}
    modules = sorted(name for name, count in lines.items() if count > 30)
    assert len(modules) <= 8, modules
    façades = [
        f"{name[:-3]}"
        for name in lines
        if f"rulebook.{name[:-3]}" in OLD_MODULES and name[:-3] not in ("registry", "core")
    ]
    assert len(façades) >= 15 and all(lines[f"{name}.py"] <= 15 for name in façades), façades

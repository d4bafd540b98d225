"""Every board's colours stay apart for the common colour-vision deficiencies.

Each game's widget lists in ``PALETTES`` the sets of colours a player must tell apart (players, regions or
terrains, highlights). Each set is checked as seen with normal vision and with full protan, deutan and tritan
deficiencies (Machado, Oliveira and Fernandes 2009, as simulated by colorspacious), by colour difference in
CAM02-UCS (about 1 is the smallest visible difference; 15 is clearly different at a glance)."""

from __future__ import annotations

import itertools
import sys

import colorspacious
import numpy as np
import pytest

from rulebook import registry

GAMES = list(registry.games())
VISION = (None, "protanomaly", "deuteranomaly", "tritanomaly")
MINIMUM = 15.0


def _rgb(colour: str) -> np.ndarray:
    if not (isinstance(colour, str) and len(colour) == 7 and colour.startswith("#")):
        raise AssertionError(f"colours are written #rrggbb, not {colour!r}")
    return np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])


def seen(colour: str, vision: str | None) -> np.ndarray:
    rgb = _rgb(colour)
    if vision is None:
        return rgb
    space = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(colorspacious.cspace_convert(rgb, space, "sRGB1"), 0, 1)


def closest_pair(colours: list[str], vision: str | None) -> tuple[float, str, str]:
    return min(
        (float(colorspacious.deltaE(seen(a, vision), seen(b, vision), input_space="sRGB1")), a, b)
        for a, b in itertools.combinations(colours, 2)
    )


def test_the_check_tells_apart_what_it_should():
    # red and green are far apart for normal vision and close for a deutan: the classic confusion
    assert closest_pair(["#d62728", "#2ca02c"], None)[0] > 40
    assert closest_pair(["#d62728", "#2ca02c"], "deuteranomaly")[0] < MINIMUM
    # blue and orange (the safe pair of most colour-blind palettes) stay apart for everyone
    assert all(closest_pair(["#0072b2", "#e69f00"], vision)[0] > 30 for vision in VISION)


@pytest.mark.parametrize("game", GAMES)
def test_every_palette_of_the_board_is_colour_vision_safe(game):
    board = registry.game(game).board_class()
    palettes = sys.modules[board.__module__].PALETTES  # beside the board, in its module
    assert palettes, f"{game}: no palettes listed"
    failures = []
    for name, colours in palettes.items():
        assert len(colours) >= 2 and len(set(colours)) == len(colours), (name, colours)
        for vision in VISION:
            distance, a, b = closest_pair(list(colours), vision)
            if distance < MINIMUM:
                failures.append(f"{name}: {a} and {b} are {distance:.1f} apart for {vision or 'normal vision'}")
    assert not failures, "\n".join(failures)

"""numpy only where it exists (issue 23.2): the browser's Python (Pyodide) has no numpy, so Meetjesland's odds and
charts and the views' typed-array reading have plain-Python paths. They give the same numbers: every float equal to
the last bit (the loops do numpy's products and sums in numpy's order), every Fraction equal; and with numpy refused
every notebook, game, computer player, board, explorer and app shows exactly what it shows with numpy."""

from __future__ import annotations

import base64
import json
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import hypothesis
import numpy as np
import plotly.graph_objects as go
import pytest
import tomllib
from hypothesis import strategies as st
from packaging.requirements import Requirement

from rulebook import views
from rulebook.meetjesland import charts, odds
from tests.soak import SOAK

ROOT = Path(__file__).resolve().parent.parent
FEW = hypothesis.settings(max_examples=150, deadline=None)


def bits(value: Any) -> Any:
    """``value`` with every float as its exact hex form, so that == compares floats to the last bit (and keys and
    their order are kept: dicts become lists of pairs)."""
    if isinstance(value, float):
        return float.hex(value)
    if isinstance(value, dict):
        return [(bits(key), bits(item)) for key, item in value.items()]
    if isinstance(value, (list, tuple)):
        return [bits(item) for item in value]
    if hasattr(value, "tolist"):
        return bits(value.tolist())
    if hasattr(value, "__dataclass_fields__"):
        return [(name, bits(getattr(value, name))) for name in value.__dataclass_fields__]
    return value


def both(monkeypatch: pytest.MonkeyPatch, compute: Any) -> tuple[Any, Any]:
    """``compute()`` on the numpy path and on the plain-Python path."""
    with monkeypatch.context() as patch:
        patch.setattr(odds, "USE_NUMPY", True)
        with_numpy = compute()
        patch.setattr(odds, "USE_NUMPY", False)
        without = compute()
    return with_numpy, without


def test_numpy_is_the_default_path_where_it_imports():
    assert odds.USE_NUMPY is True
    assert isinstance(odds.win_table(3, 3), np.ndarray)


def test_numpy_is_left_out_of_the_browser_build_and_only_there():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (numpy,) = [Requirement(text) for text in project["dependencies"] if Requirement(text).name == "numpy"]
    assert numpy.marker is not None
    assert not numpy.marker.evaluate({"sys_platform": "emscripten"})
    for platform in ("linux", "darwin", "win32"):
        assert numpy.marker.evaluate({"sys_platform": platform})


# --- Meetjesland's odds: the two paths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "size", [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2), (3, 1), (1, 6), (6, 1), (2, 9), (12, 9), (40, 40), (250, 17)]
)
def test_win_tables_agree_to_the_last_bit(monkeypatch, size):
    with_numpy, without = both(monkeypatch, lambda: odds.win_table(*size))
    assert isinstance(without, odds.Table)
    assert without.shape == with_numpy.shape == (size[0] + 1, size[1] + 1)
    assert bits(without.tolist()) == bits(with_numpy.tolist())


@pytest.mark.parametrize("size", [(0, 0), (1, 3), (5, 4), (8, 8)])
def test_exact_win_tables_are_the_same_fractions(monkeypatch, size):
    with_numpy, without = both(monkeypatch, lambda: odds.win_table(*size, exact=True))
    assert with_numpy.dtype == object and isinstance(without, odds.Table)
    assert without.tolist() == with_numpy.tolist()
    assert all(isinstance(cell, Fraction) for row in without for cell in row)


@FEW
@hypothesis.given(st.integers(0, 45), st.integers(0, 45), st.integers(0, 12))
def test_one_battle_agrees_to_the_last_bit(stake, defenders, stop_at):
    with pytest.MonkeyPatch.context() as monkeypatch:
        for compute in (
            lambda: odds.win_probability(stake, defenders, stop_at),
            lambda: odds.battle_outcomes(stake, defenders, stop_at),
            lambda: odds.expected_left(stake, defenders, stop_at),
            lambda: odds.attack_odds(stake, defenders, stop_at),
        ):
            with_numpy, without = both(monkeypatch, compute)
            assert bits(without) == bits(with_numpy)


@FEW
@hypothesis.given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 4))
def test_exact_battles_are_the_same_fractions(stake, defenders, stop_at):
    with pytest.MonkeyPatch.context() as monkeypatch:
        for compute in (
            lambda: odds.win_probability(stake, defenders, stop_at, exact=True),
            lambda: odds.battle_outcomes(stake, defenders, stop_at, exact=True),
            lambda: odds.attack_odds(stake, defenders, stop_at, exact=True),
        ):
            with_numpy, without = both(monkeypatch, compute)
            assert without == with_numpy and bits(without) == bits(with_numpy)


@FEW
@hypothesis.given(st.integers(0, 30), st.lists(st.integers(1, 9), max_size=5))
def test_chains_of_attacks_agree_to_the_last_bit(stake, path):
    with pytest.MonkeyPatch.context() as monkeypatch:
        for compute in (
            lambda: odds.chain_outcomes(stake, path),
            lambda: odds.chain_win_probability(stake, path),
            lambda: odds.chain_odds(stake, path, targets=(0.3, 0.9)),
        ):
            with_numpy, without = both(monkeypatch, compute)
            assert bits(without) == bits(with_numpy)
        small = path[:3]
        with_numpy, without = both(monkeypatch, lambda: odds.chain_outcomes(min(stake, 8), small, exact=True))
        assert bits(without) == bits(with_numpy)


@FEW
@hypothesis.given(
    st.one_of(st.integers(0, 30), st.lists(st.integers(1, 6), min_size=1, max_size=3)),
    st.floats(0.01, 0.99),
    st.integers(0, 5),
)
def test_smallest_stakes_agree(defenders, target, stop_at):
    stop_at = stop_at if isinstance(defenders, int) else 0
    with pytest.MonkeyPatch.context() as monkeypatch:
        with_numpy, without = both(monkeypatch, lambda: odds.smallest_stake(defenders, target, stop_at))
    assert without == with_numpy and isinstance(without, int)


def test_numpy_integers_are_whole_numbers_on_both_paths(monkeypatch):
    with_numpy, without = both(monkeypatch, lambda: odds.win_probability(np.int64(7), np.int32(4)))
    assert bits(without) == bits(with_numpy)
    monkeypatch.setattr(odds, "USE_NUMPY", False)
    assert odds.chain_outcomes(np.int64(6), [np.int64(2), 3]) == odds.chain_outcomes(6, [2, 3])
    for bad in (-1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="whole number"):
            odds.win_probability(bad, 2)


def test_a_table_reads_like_the_array(monkeypatch):
    array = odds.win_table(6, 4)
    monkeypatch.setattr(odds, "USE_NUMPY", False)
    table = odds.win_table(6, 4)
    assert table.shape == array.shape and len(table) == len(array)
    assert table[3, 2] == array[3, 2] and table[-1, -1] == array[-1, -1]
    assert table[3] == tuple(array[3].tolist())
    assert table[:, 2] == tuple(array[:, 2].tolist())
    assert table[1:, 1:].tolist() == array[1:, 1:].tolist()
    assert isinstance(table[2:], odds.Table) and table[2:].tolist() == array[2:].tolist()
    assert [list(row) for row in table] == array.tolist()
    assert np.array_equal(np.asarray(table), array) and np.asarray(table, dtype=float).dtype == float
    assert table == odds.Table(array.tolist()) and table != array.tolist()
    assert repr(table).startswith("Table([[0.0,")
    with pytest.raises(IndexError):
        table[1, 2, 3]
    with pytest.raises(IndexError):
        table[7, 0]
    with pytest.raises(TypeError):
        hash(table)


# --- Meetjesland's charts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(12, 9), (20, 20), (1, 1), (3, 0)])
def test_the_heatmap_shows_the_same_numbers_on_both_paths(monkeypatch, size):
    with_numpy, without = both(monkeypatch, lambda: views.plotly_json(charts.win_heatmap(odds.win_table(*size))))
    assert bits(without) == bits(with_numpy)
    assert with_numpy["data"][0]["x"] == list(range(1, size[1] + 1))
    assert with_numpy["data"][0]["y"] == list(range(1, size[0] + 1))


def test_the_heatmap_takes_an_array_a_table_or_lists_on_either_path(monkeypatch):
    array = odds.win_table(5, 4)
    expected = bits(views.plotly_json(charts.win_heatmap(array)))
    for use_numpy in (True, False):
        monkeypatch.setattr(odds, "USE_NUMPY", use_numpy)
        for table in (array, odds.Table(array.tolist()), array.tolist()):
            assert bits(views.plotly_json(charts.win_heatmap(table))) == expected


# --- the views' typed arrays -------------------------------------------------------------------------------------

ARRAYS = [
    np.arange(-5, 7, dtype=np.int8),
    np.array([0, 1, 255], dtype=np.uint8),
    np.array([-32768, 0, 32767], dtype=np.int16).reshape(3, 1),
    np.array([[0, 65535], [7, 8]], dtype=np.uint16),
    np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 12,
    np.array([4_000_000_000, 0], dtype=np.uint32),
    np.array([0.1, -2.5, np.nan, np.inf, 1e-40], dtype=np.float32),
    np.array([[math.pi, -0.0], [5e-324, np.nan], [1e308, -np.inf]]),
    np.arange(6, dtype=np.int64).reshape(3, 2) * 1000,  # plotly makes these int16
    np.array([2**40, -(2**40)], dtype=np.int64),  # too big for plotly's typed arrays: kept a list
    np.linspace(0, 1, 101),
]


@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_typed_arrays_read_the_same_without_numpy(array):
    spec = go.Figure(go.Scatter(customdata=array)).to_plotly_json()["data"][0]["customdata"]
    if not isinstance(spec, dict):  # plotly sends it as it is: _plain makes it a list, with or without numpy
        assert array.dtype == np.int64 and np.abs(array).max() > 2**31
        return
    plain = views._typed_array_python(spec)
    assert bits(plain) == bits(views._typed_array(spec))
    expected = [None if isinstance(v, float) and not math.isfinite(v) else v for v in array.ravel().tolist()]
    assert bits(np.asarray(plain, dtype=object).ravel().tolist()) == bits(expected)


@pytest.mark.parametrize("dtype", ["<i8", "<u8", "|b1", ">f8", "<f8"])
def test_typed_array_dtypes_beyond_plotlys_read_as_numpy_reads_them(dtype):
    values = np.array([[1, 0], [3, 2**33 if "8" in dtype else 1]]).astype(dtype.replace(">", "<"))
    spec = {"dtype": dtype, "bdata": base64.b64encode(values.tobytes()).decode(), "shape": "2, 2"}
    assert bits(views._typed_array_python(spec)) == bits(views._typed_array(spec))


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ({"dtype": "c16", "bdata": ""}, "dtype 'c16'"),
        ({"dtype": "f8", "bdata": base64.b64encode(b"1234567").decode()}, "7 bytes"),
        ({"dtype": "i1", "bdata": base64.b64encode(b"123456").decode(), "shape": "4, 2"}, "shape '4, 2'"),
    ],
)
def test_a_malformed_typed_array_says_what_is_wrong(spec, problem):
    with pytest.raises(ValueError, match=problem):
        views._typed_array_python(spec)


def test_an_empty_axis_keeps_its_shape():
    spec = {"dtype": "i1", "bdata": "", "shape": "2, 0"}
    assert views._typed_array_python(spec) == [[], []] == np.zeros((2, 0)).tolist()


# --- everything, in a process where numpy cannot be imported -----------------------------------------------------


# The notebooks the two runs record: every one in `make soak`; in `make test` the front page only. Every game, computer
# player, board, explorer and app is still played and built without numpy in `make test`; Meetjesland's odds, the one
# plain-Python path of the numbers, are compared to the last bit above (win tables, battles, chains, the heatmap), and
# the views' typed arrays too. The notebooks' charts are compared figure by figure in `make soak`, and every notebook
# runs in the browser's Python, which has no numpy, in tests/e2e/test_site_lab.py. A notebook left out is one run
# twice less: 33 s of CPU with all of them, 21 s with Meetjesland's and the front page, 8 s with the front page.
COMPARED = None if SOAK else ["index.ipynb"]


def _records() -> tuple[dict[str, Any], dict[str, Any]]:
    """The record without numpy and the record with it, from two processes run side by side (each runs every game and
    every notebook, or those of :data:`COMPARED`); their output goes to files, so neither waits on a full pipe."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("COVERAGE_")}
    runs = []
    for refuse in (True, False):
        preamble = "from tests import numpy_free; " + ("numpy_free.refuse_numpy(); " if refuse else "")
        out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
        command = [sys.executable, "-c", preamble + f"numpy_free.main({COMPARED!r})"]
        runs.append((subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err, text=True), out, err))
    records = []
    try:
        for process, out, err in runs:
            returncode = process.wait(timeout=600)
            err.seek(0)
            assert returncode == 0, err.read()[-4000:]
            out.seek(0)
            records.append(json.loads(out.read().strip().splitlines()[-1]))
    finally:
        for process, out, err in runs:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=15)
            out.close()
            err.close()
    return records[0], records[1]


def test_without_numpy_every_notebook_game_board_and_app_shows_the_same():
    without, with_numpy = _records()
    assert without["numpy_imported"] is False and without["use_numpy"] is False
    assert "numpy" in without["refused"]  # the refusal was in place (odds.py asked first)
    assert with_numpy["numpy_imported"] is True and with_numpy["use_numpy"] is True
    games = without["record"]["games"]
    assert set(games) >= {"meetjesland", "kingdom_builder", "ab_die_post", "claim"}
    assert all(game["board"] == "Board" and game["app"] == "App" for game in games.values())
    if not COMPARED:  # every notebook: their charts were drawn (Meetjesland's 9, 30 in all)
        figures = [cell for cells in without["record"]["notebooks"].values() for cell in cells if "figure" in cell]
        assert len(figures) >= 30
    assert without["record"]["games"] == with_numpy["record"]["games"]
    compared = with_numpy["record"]["notebooks"]
    every = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(compared) == sorted(without["record"]["notebooks"]) == sorted(COMPARED or every)
    for notebook, expected_cells in compared.items():
        cells = without["record"]["notebooks"][notebook]
        assert len(cells) == len(expected_cells), notebook
        for index, (shown, expected) in enumerate(zip(cells, expected_cells)):
            if shown != expected:
                mine, theirs = json.dumps(shown)[:400], json.dumps(expected)[:400]
                pytest.fail(f"{notebook}, code cell {index + 1}, without numpy:\n{mine}\nwith numpy:\n{theirs}")

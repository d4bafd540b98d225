"""The website's lighter first visit (issue 47.4), without a browser: what the build leaves out of the browser's
wheels, the apps' own lock, the .gz siblings, the page code and the board's first position made at build time; and,
where `make site` has built site/, the first visit that build records (build.json) against the goal."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest

from rulebook import registry
from rulebook.site import build, pages

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
GOAL = 20_000_000  # bytes: a first visit to a game's page, as a host that sends the .gz siblings sends it


def make_wheel(path: Path, files: dict[str, bytes]) -> Path:
    """A wheel of ``files`` with a RECORD naming each of them (the hash is not checked here)."""
    record = "pkg-1.0.dist-info/RECORD"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr(record, "".join(f"{name},sha256=x,{len(data)}\n" for name, data in files.items()))
    return path


def record_of(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        text = archive.read("pkg-1.0.dist-info/RECORD").decode()
    return [line.split(",")[0] for line in text.splitlines()]


@pytest.mark.parametrize(
    ("name", "out"),
    [
        ("networkx/algorithms/tests/test_cycles.py", True),
        ("ipywidgets/widgets/tests/__init__.py", True),
        ("plotly/package_data/plotly.min.js", False),  # JupyterLab's charts ask the kernel for it
        ("plotly/labextension/static/remoteEntry.js", True),
        ("plotly/package_data/datasets/iris.csv.gz", True),
        ("anywidget-0.11.0.data/data/share/jupyter/labextensions/anywidget/package.json", True),
        ("plotly/package_data/templates/simple_white.json", False),  # the charts' template
        ("networkx/algorithms/cycles.py", False),
        ("tests/conftest.py", False),  # a top-level package named tests is a package, not a package's tests
        ("rulebook/tests_of_mine.py", False),
    ],
)
def test_what_the_browser_never_reads(name, out):
    assert build.left_out(name) is out


def test_slim_wheel_leaves_out_tests_and_lab_extensions(tmp_path):
    files = {
        "plotly/__init__.py": b"x = 1\n",
        "plotly/labextension/static/remoteEntry.js": b"var Plotly;" * 500,
        "plotly/package_data/templates/plotly.json": b"{}",
        "plotly/tests/test_a.py": b"assert True\n",
    }
    source = make_wheel(tmp_path / "pkg-1.0-py3-none-any.whl", files)
    target = tmp_path / "out.whl"
    saved = build.slim_wheel(source, target)
    assert saved == source.stat().st_size - target.stat().st_size > 0
    kept = ["plotly/__init__.py", "plotly/package_data/templates/plotly.json"]
    with zipfile.ZipFile(target) as archive:
        assert sorted(archive.namelist()) == sorted([*kept, "pkg-1.0.dist-info/RECORD"])
    assert record_of(target) == kept


def test_apps_wheel_keeps_only_imported_lexers_and_no_typeshed(tmp_path):
    files = {
        "pygments/lexers/__init__.py": b"",
        "pygments/lexers/__pycache__/__init__.cpython-314.pyc": b"\0",
        "pygments/lexers/python.py": b"class PythonLexer: pass\n",
        "pygments/lexers/__pycache__/python.cpython-314.pyc": b"\0",
        "pygments/lexers/ruby.py": b"class RubyLexer: pass\n",  # no bytecode: no app's start imports it
        "pygments/lexer.py": b"",
        "jedi/third_party/typeshed/stdlib/os.pyi": b"def f(): ...\n",
        "jedi/api/__init__.py": b"",
        "plotly/package_data/plotly.min.js": b"var Plotly;",  # the site's own copy serves the apps
    }
    source = make_wheel(tmp_path / "pkg-1.0-py3-none-any.whl", files)
    target = tmp_path / "apps" / "pkg-1.0-py3-none-any.whl"
    assert build.apps_wheel(source, target) > 0
    gone = {"pygments/lexers/ruby.py", "jedi/third_party/typeshed/stdlib/os.pyi", "plotly/package_data/plotly.min.js"}
    with zipfile.ZipFile(target) as archive:
        assert set(archive.namelist()) == (set(files) - gone) | {"pkg-1.0.dist-info/RECORD"}
    assert set(record_of(target)) == set(files) - gone
    plain = make_wheel(tmp_path / "plain-1.0-py3-none-any.whl", {"plain/__init__.py": b""})
    assert build.apps_wheel(plain, tmp_path / "apps" / "plain.whl") == 0  # nothing left out: the shared file serves
    assert not (tmp_path / "apps" / "plain.whl").exists()


def test_precompress_writes_gz_siblings_a_static_host_can_send(tmp_path):
    text = b"function board() { return 1; }\n" * 200  # 6,200 bytes that compress well
    (tmp_path / "a.js").write_bytes(text)
    (tmp_path / "small.css").write_bytes(b"body{}")  # under 1 KB: not worth a file
    (tmp_path / "w.whl").write_bytes(text)  # a wheel is compressed already
    count, saved = build.precompress(tmp_path)
    assert count == 1
    packed = (tmp_path / "a.js.gz").read_bytes()
    assert gzip.decompress(packed) == text
    assert saved == len(text) - len(packed)
    assert not (tmp_path / "small.css.gz").exists() and not (tmp_path / "w.whl.gz").exists()
    assert build.precompress(tmp_path) == (0, 0)  # a second pass leaves the siblings as they are


def test_page_code_names_plotly_js_and_the_first_game():
    code = pages.app_code("claim", ("plotly-0123456789abcdef-script.js", "0123456789abcdef"))
    lines = code.splitlines()
    assert lines[2] == (
        "figures.serve_plotly_from('../static/rulebook/plotly-0123456789abcdef-script.js', '0123456789abcdef')"
    )
    # the first game is seed 1's (the position the page drew), then the seed box is left blank for New game
    assert lines[-3:] == ["app = App('claim', seed=1)", "app.seed_text.value = ''", "app"]
    assert (
        pages.app_code("claim")
        == "from rulebook.app import App\n\napp = App('claim', seed=1)\napp.seed_text.value = ''\napp"
    )


def test_claims_first_position_is_an_empty_island_of_five_territories():
    """Claim's first position, made without a browser: the island's five territories a-e (counted on the board's
    picture in the rules), and no piece on it yet."""
    position = pages.first_position("claim")
    traces = {trace.get("name"): trace for trace in position["figure"]["data"]}
    labels = sorted(text for trace in traces.values() for text in trace.get("text") or () if str(text) in "abcde")
    assert labels == ["a", "b", "c", "d", "e"]
    assert not traces["pieces"].get("x")
    assert position["revision"] >= 1 and "pieces" in position["clickable"]


@pytest.mark.parametrize("game", list(registry.names()))
def test_every_games_first_position_is_scatter_traces_board_js_can_draw(game):
    position = pages.first_position(game)
    data = position["figure"]["data"]
    assert data and {trace.get("type", "scatter") for trace in data} == {"scatter"}
    assert set(position["clickable"]) <= {trace.get("name") for trace in data}
    json.dumps(position)  # plain JSON: the page carries it as it is


built = pytest.mark.skipif(not (SITE / "build.json").is_file(), reason="no site/ built (make site)")


@built
def test_the_built_sites_first_visit_is_under_the_goal():
    record = json.loads((SITE / "build.json").read_text())
    first = record["first_visit"]
    parts = [*first["runtime"].values(), *first["wheels"].values()]
    assert first["sent"] == sum(part["sent"] for part in parts)
    assert "plotly" not in first["preload"] and "numpy" not in first["wheels"]
    assert first["sent"] < GOAL, f"{first['sent'] / 1e6:.1f} MB"


@built
def test_the_built_sites_game_pages_carry_their_first_position():
    config = json.loads((SITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert "jupyterlab-plotly" not in [entry["name"] for entry in config["federated_extensions"]]
    for game in registry.names():
        text = (SITE / game / "index.html").read_text()
        assert 'id="first-position"' in text and 'id="progress"' in text
        assert (SITE / game / "index.html.gz").is_file()
    scripts = [path.name for path in (SITE / "static" / "rulebook").iterdir()]
    assert any(name.startswith("board-") and name.endswith(".js") for name in scripts)
    assert any(name.startswith("plotly-") and name.endswith("-script.js") for name in scripts)


def test_apps_wheel_without_sources_imports_from_the_bytecode_alone(tmp_path):
    """A module with bytecode comes as ``mod.pyc`` where ``mod.py`` was, which Python imports without its source."""
    import compileall
    import importlib
    import importlib.util
    import py_compile
    import sys

    package = tmp_path / "src" / "sourceless_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .mod import VALUE\n")
    (package / "mod.py").write_text("VALUE = 6 * 7\n")
    (package / "late.py").write_text("LATE = 1\n")  # never imported: no bytecode, its source stays
    for name in ("__init__.py", "mod.py"):
        compileall.compile_file(
            str(package / name), quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
        )
    files = {}
    for path in sorted(package.rglob("*")):
        if path.is_file():
            files[path.relative_to(tmp_path / "src").as_posix()] = path.read_bytes()
    source = make_wheel(tmp_path / "pkg-1.0-py3-none-any.whl", files)
    target = tmp_path / "apps" / "pkg-1.0-py3-none-any.whl"
    assert build.apps_wheel(source, target, sources=False) > 0
    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
        assert {"sourceless_pkg/__init__.pyc", "sourceless_pkg/mod.pyc", "sourceless_pkg/late.py"} <= names
        assert not {"sourceless_pkg/mod.py", "sourceless_pkg/__init__.py"} & names
        assert not any("__pycache__" in name for name in names)
        archive.extractall(tmp_path / "site")
    assert "sourceless_pkg/mod.pyc" in record_of(target)
    sys.path.insert(0, str(tmp_path / "site"))
    try:
        importlib.invalidate_caches()
        module = importlib.import_module("sourceless_pkg")
        assert module.VALUE == 42 and module.__file__.endswith("__init__.pyc")
    finally:
        sys.path.remove(str(tmp_path / "site"))
        sys.modules.pop("sourceless_pkg", None)
        sys.modules.pop("sourceless_pkg.mod", None)


def test_defer_splits_the_modules_no_first_screen_imports(tmp_path):
    files = {
        "plotly/__init__.py": b"",
        "plotly/basedatatypes.pyc": b"\0",  # imported at the first screen: its bytecode stays
        "plotly/graph_objs/__init__.py": b"",
        "plotly/graph_objs/_bar.py": b"class Bar: pass\n",
        "plotly/package_data/templates/plotly.json": b"{}",
    }
    source = make_wheel(tmp_path / "pkg-1.0-py3-none-any.whl", files)
    kept, rest = build.defer(source, tmp_path / "kept.whl", tmp_path / "rest.zip", ("plotly",))
    with zipfile.ZipFile(tmp_path / "kept.whl") as archive:
        assert set(archive.namelist()) == set(files) - {"plotly/graph_objs/_bar.py"} | {"pkg-1.0.dist-info/RECORD"}
    with zipfile.ZipFile(tmp_path / "rest.zip") as archive:
        assert archive.namelist() == ["plotly/graph_objs/_bar.py"]
    assert (kept, rest) == ((tmp_path / "kept.whl").stat().st_size, (tmp_path / "rest.zip").stat().st_size)
    assert "plotly/graph_objs/_bar.py" not in record_of(tmp_path / "kept.whl")


def test_a_deferred_module_is_fetched_once_at_its_first_import(tmp_path):
    """The Deferred finder: the first import of a missing module of its packages unpacks the zip, once."""
    import importlib
    import io
    import sys

    from rulebook.site import deferred

    site = tmp_path / "site-packages"
    (site / "later_pkg").mkdir(parents=True)
    (site / "later_pkg" / "__init__.py").write_text("")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("later_pkg/extra.py", "ANSWER = 42\n")
    fetched = []

    def fetch(address):
        fetched.append(address)
        return packed.getvalue()

    finder = deferred.Deferred("http://host/rest.zip", ["later_pkg"], folder=site, fetch=fetch)
    sys.path.insert(0, str(site))
    sys.meta_path.append(finder)
    try:
        importlib.invalidate_caches()
        assert finder.find_spec("other_pkg.x") is None and not fetched  # not one of its packages
        assert importlib.import_module("later_pkg.extra").ANSWER == 42
        assert fetched == ["http://host/rest.zip"]
        with pytest.raises(ImportError):
            importlib.import_module("later_pkg.missing")  # unpacked already: a module it lacks is missing
        assert len(fetched) == 1
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(site))
        for name in ("later_pkg", "later_pkg.extra"):
            sys.modules.pop(name, None)


# What a game's first screen may import beyond the app (issue 47.4: each import costs several times its CPython time
# in the browser's Python). The other games' engines, the search and the hidden panels' makings come when asked for;
# networkx only for a game whose engine reads its board as a graph (Ab die Post!'s track).
FIRST_SCREEN_WITHOUT = {
    "claim": ("networkx",),
    "kingdom_builder": ("networkx",),
    "meetjesland": ("networkx",),
    "ab_die_post": (),
}


@pytest.mark.parametrize("game", sorted(FIRST_SCREEN_WITHOUT))
def test_a_games_first_screen_imports_neither_the_other_games_nor_what_its_hidden_tabs_need(game):
    import subprocess
    import sys

    others = [f"rulebook.{name}" for name in registry.names() if name != game]
    never = [*others, "rulebook.search", "lunr", *FIRST_SCREEN_WITHOUT[game]]
    code = (
        "import json, sys\nfrom rulebook.app import App\n"
        f"App({game!r}, seed=1)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    found = [name for name in loaded if any(name == bad or name.startswith(bad + ".") for bad in never)]
    assert found == [], f"{game}'s first screen imported {found[:8]}"
    assert f"rulebook.{game}" in loaded  # its own engine, of course

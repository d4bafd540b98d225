"""The network-free parts of ``make site`` (rulebook/site/build.py, rulebook/site/pages.py), held against answers
worked out by hand: the pins reader, the resolver, the wheels' metadata, the cache, the lock, the lite config, the
step that replaces ``site/`` and the site's own pages. Nothing here reaches a registry, npm, Node or JupyterLite; the
build as a whole is tested in the browser (tests/e2e/test_site.py, test_site_lab.py).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import subprocess
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from rulebook import registry
from rulebook.site import build, pages
from rulebook.site.build import Solution, Wheel

ENV = build.browser_environment("3.14.2")


def write_pins(folder: Path, *lines: str) -> Path:
    path = folder / "browser.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def make_wheel(path: Path, files: dict[str, str], date: tuple[int, ...] = (2024, 1, 1, 0, 0, 0)) -> Path:
    """A zip holding ``files`` (name -> text), each stamped with ``date``."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=date), text)
    return path


def metadata(name: str, version: str, *requires: str) -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    return "\n".join(lines + [f"Requires-Dist: {line}" for line in requires]) + "\n"


def wheel(name: str, version: str, *requires: str) -> Wheel:
    return Wheel(Path(f"{name}-{version}-py3-none-any.whl"), name, Version(version), [Requirement(r) for r in requires])


# -- the pins (browser.txt) ---------------------------------------------------------------------------------------


def test_pins_are_read_by_canonical_name_past_comments_and_blank_lines(tmp_path):
    path = write_pins(tmp_path, "# the kernel", "", "Jinja2==3.1.6  # templates", "typing_extensions == 4.15.0")
    assert build.read_pins(path) == {"jinja2": "3.1.6", "typing-extensions": "4.15.0"}


@pytest.mark.parametrize(
    "line",
    [
        "x>=1",  # a range
        "x==1.*",  # a range written with ==
        "x===1",  # arbitrary equality
        "x",  # no version
        "x==1,<2",  # more than the pin
        'x==1; python_version > "3"',  # an environment marker
        "x[extra]==1",  # extras
        "x @ https://example.org/x-1-py3-none-any.whl",  # an address
        "x = 1",  # not a requirement at all
    ],
)
def test_anything_but_name_equals_version_is_refused_naming_its_line(tmp_path, line):
    path = write_pins(tmp_path, "# pins", "ok==1.0", line)
    with pytest.raises(ValueError) as refused:
        build.read_pins(path)
    assert str(refused.value).startswith("browser.txt:3: a pin is name==version")
    assert repr(line) in str(refused.value)


def test_a_name_pinned_twice_is_refused_at_its_second_line_whatever_its_spelling(tmp_path):
    path = write_pins(tmp_path, "jinja2==3.1.6", "# again", "Jinja2==3.1.5")
    with pytest.raises(ValueError, match=r"^browser\.txt:3: jinja2 is pinned twice$"):
        build.read_pins(path)


def test_the_shipped_pins_read_and_hold_the_extension_wheels_and_nothing_unavailable():
    pins = build.read_pins()
    assert set(build.EXTENSION_WHEELS) <= set(pins)  # build() takes their lab extensions from the pinned wheels
    assert not set(build.UNAVAILABLE) & set(pins)
    assert build.KERNEL_DISTRIBUTION not in pins  # its version is the installed tool's, not a pin


def test_the_rulebook_s_requirements_in_the_browser_are_pinned_within_their_ranges():
    pins = build.read_pins()
    requirements = [Requirement(line) for line in importlib.metadata.requires(build.PROJECT) or []]
    loaded = [r for r in requirements if r.marker is None or r.marker.evaluate(ENV)]
    skipped = {r.name for r in requirements if r not in loaded}
    assert "numpy" in skipped and "jupyterlab" in skipped  # sys_platform != 'emscripten'
    assert loaded and not {r.name for r in loaded} & set(build.UNAVAILABLE)
    for requirement in loaded:
        name = requirement.name.lower()
        assert name in pins, f"{requirement} is not pinned in browser.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), f"{requirement}: {name}=={pins[name]}"


# -- the browser's environment and the resolver ----------------------------------------------------------------


def test_the_browser_environment_is_pyodide_s():
    assert ENV["python_version"] == "3.14" and ENV["python_full_version"] == "3.14.2"
    assert ENV["sys_platform"] == "emscripten" and ENV["platform_machine"] == "wasm32"
    assert Requirement("a; sys_platform != 'emscripten'").marker.evaluate(ENV) is False
    assert Requirement("a; python_version >= '3.14'").marker.evaluate(ENV) is True


def test_the_resolver_follows_what_the_browser_loads_and_skips_what_it_does_not():
    available = {
        "app": wheel(
            "app",
            "1.0",
            "lib>=1,<2",
            "jupyterlab-widgets>=3",  # checked, not loaded (NOT_LOADED)
            "native>=1; sys_platform != 'emscripten'",
            "tester; extra == 'test'",
            "old; python_version < '3.10'",
            "numpy>=2; sys_platform == 'emscripten'",  # wanted, but UNAVAILABLE: a warning
        ),
        "lib": wheel("lib", "1.4", "Typing_Extensions>=4"),
        "typing-extensions": wheel("typing-extensions", "4.15.0"),
        "jupyterlab-widgets": wheel("jupyterlab-widgets", "3.0.17"),
    }
    solution = build.solve(["app"], available, set(available), ENV)
    assert sorted(solution.wheels) == ["app", "lib", "typing-extensions"]
    assert solution.depends == {"app": ["lib"], "lib": ["typing-extensions"], "typing-extensions": []}
    assert solution.warnings == [
        'app requires numpy>=2; sys_platform == "emscripten", left out: no build for the browser on PyPI or npm'
    ]


def test_a_needed_package_that_is_not_pinned_is_named():
    available = {"app": wheel("app", "1.0", "lib>=1")}
    with pytest.raises(SystemExit, match=r"app requires lib>=1: pin it"):
        build.solve(["app"], available, {"app"}, ENV)
    with pytest.raises(SystemExit, match=r"ghost is needed and not pinned"):
        build.solve(["app", "ghost"], {"app": wheel("app", "1.0")}, {"app"}, ENV)


@pytest.mark.parametrize("dependency", ["lib", "jupyterlab-widgets"])  # loaded or not, its range is checked
def test_a_pin_outside_a_required_range_is_named(dependency):
    available = {"app": wheel("app", "1.0", f"{dependency}>=2"), dependency: wheel(dependency, "1.5")}
    with pytest.raises(SystemExit, match=rf"app requires {dependency}>=2, and {dependency} 1.5 is pinned"):
        build.solve(["app"], available, set(available), ENV)


def test_a_pin_that_nothing_needs_is_named_unless_it_carries_a_lab_extension():
    available = {"app": wheel("app", "1.0"), "spare": wheel("spare", "1.0"), "plotly": wheel("plotly", "7.1.0")}
    with pytest.raises(SystemExit) as refused:
        build.solve(["app"], available, set(available), ENV)
    assert "spare is pinned and nothing needs it" in str(refused.value)
    assert "plotly" not in str(refused.value)
    available.pop("spare")
    assert sorted(build.solve(["app"], available, set(available), ENV).wheels) == ["app"]


def test_every_problem_is_listed_in_one_error():
    available = {
        "app": wheel("app", "1.0", "lib>=2", "absent"),
        "lib": wheel("lib", "1.0"),
        "spare": wheel("spare", "0"),
    }
    with pytest.raises(SystemExit) as refused:
        build.solve(["app"], available, {"app", "lib", "spare"}, ENV)
    lines = str(refused.value).splitlines()
    assert lines[0] == "site: browser.txt does not fit the site's packages:"
    assert sorted(line.strip() for line in lines[1:]) == [
        "app requires absent: pin it",
        "app requires lib>=2, and lib 1.0 is pinned",
        "spare is pinned and nothing needs it",
    ]


# -- wheels: their metadata and the download cache --------------------------------------------------------------


def test_a_wheel_s_name_version_requirements_and_imports_come_from_its_files(tmp_path):
    files = {
        "foo_bar/__init__.py": "",
        "foo_bar/sub/x.py": "",
        "single.py": "",
        "my-data/readme.txt": "",  # not an identifier: not importable
        "README.txt": "",
        "__pycache__/single.cpython-314.pyc": "",
        "foo_bar-1.0.data/scripts/tool": "",
        "foo_bar-1.0.dist-info/METADATA": metadata("Foo_Bar", "1.0", "lib>=1", "extra-thing; extra == 'x'"),
    }
    read = Wheel.read(make_wheel(tmp_path / "foo_bar-1.0-py3-none-any.whl", files))
    assert (read.name, read.version) == ("foo-bar", Version("1.0"))
    assert [str(r) for r in read.requires] == ["lib>=1", 'extra-thing; extra == "x"']
    assert read.imports == ["foo_bar", "single"]


def test_a_wheel_s_top_level_txt_names_its_imports(tmp_path):
    files = {
        "yaml/__init__.py": "",
        "_yaml/__init__.py": "",
        "pyyaml-6.0.dist-info/METADATA": metadata("PyYAML", "6.0"),
        "pyyaml-6.0.dist-info/top_level.txt": "_yaml\nyaml\n\n",
    }
    assert Wheel.read(make_wheel(tmp_path / "pyyaml-6.0-py3-none-any.whl", files)).imports == ["_yaml", "yaml"]


def test_the_cache_gives_only_a_pure_wheel_of_the_pinned_version(tmp_path):
    for name in ("Foo_Bar-1.0-py3-none-any.whl", "foo_bar-1.0-cp314-cp314-manylinux_2_17_x86_64.whl"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "foo_bar-2.0-py3-none-any.whl").write_bytes(b"")
    assert build._cached(tmp_path, "foo-bar", "1.0") == tmp_path / "Foo_Bar-1.0-py3-none-any.whl"
    assert build._cached(tmp_path, "foo-bar", "1.0.0") == tmp_path / "Foo_Bar-1.0-py3-none-any.whl"  # 1.0 == 1.0.0
    assert build._cached(tmp_path, "foo-bar", "3.0") is None
    (tmp_path / "Foo_Bar-1.0-py3-none-any.whl").unlink()
    assert build._cached(tmp_path, "foo-bar", "1.0") is None  # the compiled one is no use in the browser


def test_wheels_in_the_cache_reach_no_registry(tmp_path, monkeypatch):
    (tmp_path / "a-1.0-py3-none-any.whl").write_bytes(b"")
    (tmp_path / "b-2.0-py2.py3-none-any.whl").write_bytes(b"")

    def no_registry(*args, **kwargs):
        raise AssertionError(f"pip was asked: {args}")

    monkeypatch.setattr(build, "_pip_download", no_registry)
    monkeypatch.setattr(build, "run", no_registry)
    found = build.fetch_wheels({"a": "1.0", "b": "2.0"}, tmp_path, "3.14")
    assert found == {"a": tmp_path / "a-1.0-py3-none-any.whl", "b": tmp_path / "b-2.0-py2.py3-none-any.whl"}


def test_a_package_with_no_pure_wheel_is_built_without_a_compiler_and_refused_if_still_not_pure(tmp_path, monkeypatch):
    (tmp_path / "a-1.0-py3-none-any.whl").write_bytes(b"")
    asked, built = [], []

    def pip_download(folder, specs, python):
        asked.append((specs, python))
        return subprocess.CompletedProcess([], 1)

    def run(command, what, env=None, cwd=None):  # pip wheel from the source: it makes a compiled wheel
        built.append((command, env["CC"], env["CXX"]))
        (tmp_path / "fast-2.0-cp314-cp314-linux_x86_64.whl").write_bytes(b"")

    monkeypatch.setattr(build, "_pip_download", pip_download)
    monkeypatch.setattr(build, "run", run)
    refusal = r"^site: fast==2\.0 has no pure-Python wheel and its source needs a compiler$"
    with pytest.raises(SystemExit, match=refusal):
        build.fetch_wheels({"a": "1.0", "fast": "2.0"}, tmp_path, "3.14")
    assert asked == [(["fast==2.0"], "3.14"), (["fast==2.0"], "3.14")]  # all missing at once, then one by one
    ((command, cc, cxx),) = built
    assert (cc, cxx) == ("false", "false")
    assert command[command.index("--no-binary") + 1] == "fast" and command[-1] == "fast==2.0"


def test_a_project_wheel_without_the_rules_notebooks_is_refused_naming_the_first(tmp_path):
    wheel_path = make_wheel(tmp_path / "rulebook-0.1.0-py3-none-any.whl", {"rulebook/notebooks/claim.ipynb": "{}"})
    build.check_project_wheel(wheel_path, ["claim.ipynb"])
    with pytest.raises(SystemExit, match=r"has no rulebook/notebooks/a\.ipynb \(nor 1 more\)"):
        build.check_project_wheel(wheel_path, ["a.ipynb", "claim.ipynb", "b.ipynb"])


def test_the_kernel_s_wheels_are_taken_from_its_lab_extension_only(tmp_path):
    pypi = f"kernel-0.8.6.data/data/share/jupyter/labextensions/{build.KERNEL_EXTENSION}/static/pypi"
    kernel = make_wheel(
        tmp_path / "kernel-0.8.6-py3-none-any.whl",
        {
            f"{pypi}/piplite-0.8.6-py3-none-any.whl": "piplite",
            f"{pypi}/ipykernel-6.9.2-py3-none-any.whl": "ipykernel",
            f"{pypi}/all.json": "{}",
            "elsewhere/other-1.0-py3-none-any.whl": "other",
        },
    )
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel" / "stale-1.0-py3-none-any.whl").write_text("old")
    found = build.kernel_wheels(kernel, tmp_path / "kernel")
    assert [path.name for path in found] == ["ipykernel-6.9.2-py3-none-any.whl", "piplite-0.8.6-py3-none-any.whl"]
    assert found[1].read_text() == "piplite"
    assert sorted(path.name for path in (tmp_path / "kernel").iterdir()) == [path.name for path in found]


# -- the lock, the configs and the inputs' key --------------------------------------------------------------------


def test_the_lock_lists_exactly_the_solution_s_wheels_beside_pyodide(tmp_path):
    (tmp_path / "in").mkdir()
    own = tmp_path / "in" / "rulebook-0.1.0-py3-none-any.whl"
    own.write_bytes(b"the rulebook")
    lib = tmp_path / "in" / "lib-1.4-py3-none-any.whl"
    lib.write_bytes(b"a library")
    solution = Solution(
        {
            "rulebook": Wheel(own, "rulebook", Version("0.1.0"), imports=["rulebook"]),
            "lib": Wheel(lib, "lib", Version("1.4"), imports=["lib", "_lib"]),
        },
        {"rulebook": ["lib"], "lib": []},
        [],
    )
    out = tmp_path / "pyodide"
    out.mkdir()
    placed = build.write_lock(out, {"arch": "wasm32", "python": "3.14.2", "version": "0"}, solution)
    own_digest = hashlib.sha256(b"the rulebook").hexdigest()
    assert placed == {"lib": lib.name, "rulebook": f"rulebook-{own_digest[:12]}/{own.name}"}
    lock = json.loads((out / "pyodide-lock.json").read_text())
    assert lock["info"] == {"arch": "wasm32", "python": "3.14.2", "version": build.PYODIDE}
    assert sorted(lock["packages"]) == ["lib", "rulebook"]
    assert lock["packages"]["rulebook"]["sha256"] == own_digest
    assert lock["packages"]["rulebook"]["depends"] == ["lib"]
    assert lock["packages"]["lib"] == {
        "name": "lib",
        "version": "1.4",
        "file_name": lib.name,
        "install_dir": "site",
        "sha256": hashlib.sha256(b"a library").hexdigest(),
        "package_type": "package",
        "imports": ["lib", "_lib"],
        "depends": [],
        "unvendored_tests": False,
    }
    for package in lock["packages"].values():  # each file where the lock says, as copied
        assert hashlib.sha256((out / package["file_name"]).read_bytes()).hexdigest() == package["sha256"]


def addresses(value):
    """Every string in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from addresses(key)
            yield from addresses(item)
    elif isinstance(value, list):
        for item in value:
            yield from addresses(item)
    elif isinstance(value, str):
        yield value


def test_the_lite_config_names_only_local_addresses_and_no_package_index():
    config = build.lite_config(["micropip", "rulebook"])
    text = json.dumps(config)
    assert "http:" not in text and "https:" not in text and "//" not in text
    kernel = config["jupyter-config-data"]["litePluginSettings"][f"{build.KERNEL_EXTENSION}:kernel"]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["loadPyodideOptions"] == {"packages": ["micropip", "rulebook"], "lockFileURL": build.LOCK_URL}
    for address in (kernel["pyodideUrl"], kernel["loadPyodideOptions"]["lockFileURL"]):
        parts = urlsplit(address)
        assert not parts.scheme and not parts.netloc and parts.path.startswith("./static/pyodide/")
    assert kernel["pyodideUrl"].rsplit("/", 1)[1] in build.PYODIDE_RUNTIME  # the files build() copies there
    assert build.LOCK_URL.rsplit("/", 1)[1] == "pyodide-lock.json"  # and the lock write_lock() writes


def test_the_lab_s_preloads_are_added_to_its_own_settings_with_the_local_lock(tmp_path):
    config = tmp_path / "jupyter-lite.json"
    other = {"@jupyterlab/other:plugin": {"x": 1}}
    config.write_text(json.dumps({"jupyter-config-data": {"appName": "lab", "litePluginSettings": other}}))
    build.lab_preloads(config, ["rulebook", "nbformat"])
    settings = json.loads(config.read_text())["jupyter-config-data"]
    assert settings["appName"] == "lab"
    assert settings["litePluginSettings"] == {
        "@jupyterlab/other:plugin": {"x": 1},
        f"{build.KERNEL_EXTENSION}:kernel": {
            "loadPyodideOptions": {"packages": ["rulebook", "nbformat"], "lockFileURL": build.LOCK_URL}
        },
    }
    assert not [address for address in addresses(settings) if "//" in address]


def test_the_build_config_takes_lab_extensions_from_the_given_wheels_only(tmp_path):
    given = [tmp_path / "plotly-7.1.0-py3-none-any.whl", tmp_path / "kernel.whl"]
    config = build.build_config(given, tmp_path / "out", tmp_path / "cache")["LiteBuildConfig"]
    assert config["federated_extensions"] == [str(path) for path in given]
    assert "federated_extensions" in config["ignore_sys_prefix"]  # not the build environment's installed ones
    assert config["apps"] == ["lab", "repl"]
    assert (config["output_dir"], config["cache_dir"]) == (str(tmp_path / "out"), str(tmp_path / "cache"))


def test_the_inputs_key_follows_the_wheel_s_files_not_their_dates_nor_its_record(tmp_path):
    files = {"rulebook/__init__.py": "x = 1\n", "rulebook-0.1.0.dist-info/RECORD": "rulebook/__init__.py,sha256=a,6\n"}
    tools = {"jupyterlite-core": "0.8.6", "pyodide": build.PYODIDE}
    key = build.inputs_key(make_wheel(tmp_path / "a.whl", files), tools)
    rebuilt = dict(files, **{"rulebook-0.1.0.dist-info/RECORD": "rulebook/__init__.py,sha256=b,6\n"})
    assert build.inputs_key(make_wheel(tmp_path / "b.whl", rebuilt, date=(2026, 12, 2, 7, 0, 0)), tools) == key
    changed = dict(files, **{"rulebook/__init__.py": "x = 2\n"})
    assert build.inputs_key(make_wheel(tmp_path / "c.whl", changed), tools) != key
    assert build.inputs_key(make_wheel(tmp_path / "d.whl", files), dict(tools, pyodide="0.0.1")) != key


# -- replacing site/ ------------------------------------------------------------------------------------------------


@pytest.fixture
def new_site(tmp_path):
    new = tmp_path / "cache" / "output"
    new.mkdir(parents=True)
    (new / "index.html").write_text("new")
    (new / "build.json").write_text("{}")
    return new


def test_a_folder_with_files_and_no_build_json_is_never_replaced(tmp_path, new_site):
    out = tmp_path / "mine"
    (out / "notes").mkdir(parents=True)
    (out / "notes" / "thesis.tex").write_text("years of work")
    (out / "build.json").mkdir()  # a folder of that name is no built site's record
    with pytest.raises(SystemExit, match=r"holds files that are not a built site"):
        build.replace(out, new_site)
    assert (out / "notes" / "thesis.tex").read_text() == "years of work"
    assert (new_site / "index.html").read_text() == "new"


def test_a_file_is_never_replaced(tmp_path, new_site):
    out = tmp_path / "README.md"
    out.write_text("mine")
    with pytest.raises(SystemExit, match=r"is not a folder"):
        build.replace(out, new_site)
    assert out.read_text() == "mine"


@pytest.mark.parametrize("old", ["built", "empty", "absent"])
def test_a_built_site_an_empty_folder_or_nothing_is_replaced_by_the_new_site(tmp_path, new_site, old):
    out = tmp_path / "deep" / "site"
    if old != "absent":
        out.mkdir(parents=True)
    if old == "built":
        (out / "build.json").write_text("{}")
        (out / "stale").mkdir()
        (out / "stale" / "old.js").write_text("old")
    build.replace(out, new_site)
    assert sorted(path.name for path in out.iterdir()) == ["build.json", "index.html"]
    assert (out / "index.html").read_text() == "new" and not new_site.exists()


# -- the site's own pages ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "text"),
    [
        ((2, 3, 4), "2–4 players"),
        ((2, 4), "2 or 4 players"),
        ((2, 3, 5), "2, 3 or 5 players"),
        ((4, 2, 3), "2–4 players"),
        ((2, 2, 3), "2–3 players"),
        ((3,), "3 players"),
        ((1,), "1 player"),
        ((1, 2), "1–2 players"),
    ],
)
def test_players_text(counts, text):
    assert pages.players_text(counts) == text


def game(name, rules="", players=(2, 3, 4), title="", blurb="A game."):
    return SimpleNamespace(name=name, title=title or name.title(), blurb=blurb, players=players, rules=rules)


def test_a_game_named_like_the_minimal_page_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"a game named 'minimal' would take the minimal page's folder"):
        pages.entries([game("claim"), game(pages.MINIMAL)], tmp_path)


def test_an_entry_links_the_game_s_notebook_only_when_the_lab_has_it(tmp_path):
    (tmp_path / "claim.ipynb").write_text("{}")
    (tmp_path / "dice.md").write_text("# Dice")
    listed = pages.entries(
        [game("claim", "claim.ipynb", (2, 4)), game("dice", "dice.md"), game("lost", "lost.ipynb")], tmp_path
    )
    assert listed == [
        pages.Entry("claim", "Claim", "A game.", "2 or 4 players", "claim.ipynb"),
        pages.Entry("dice", "Dice", "A game.", "2–4 players", ""),
        pages.Entry("lost", "Lost", "A game.", "2–4 players", ""),
    ]


def test_every_registered_game_gets_an_entry_with_its_notebook():
    games = list(registry.games().values())
    listed = pages.entries(games, build.ROOT / "notebooks")
    assert [entry.name for entry in listed] == [declared.name for declared in games]
    assert all(entry.notebook == declared.rules for entry, declared in zip(listed, games))


CLEARED = "app.seed_text.value = ''\napp"  # the seed box left blank after the first game: New game deals anew


def test_a_game_s_repl_address_runs_its_app_cell_with_its_code_hidden():
    address = pages.repl_address(pages.app_code("claim"))
    parts = urlsplit(address)
    assert parts.path == "../repl/index.html" and not parts.scheme and not parts.netloc
    assert parse_qs(parts.query, strict_parsing=True) == {
        "kernel": ["python"],
        "showBanner": ["0"],
        "hideCodeInput": ["1"],
        "promptCellPosition": ["bottom"],
        "code": [f"from rulebook.app import App\n\napp = App('claim', seed={pages.FIRST_SEED})\n{CLEARED}"],
    }


class Page(HTMLParser):
    """The links, the iframe's address and the text of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.frames: list[str] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "a":
            self.links.append(attributes["href"])
        elif tag == "iframe":
            self.frames.append(attributes["src"])

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture
def built(tmp_path):
    """A built site as far as pages.write reads one: Pyodide's runtime and a lock of two wheels, JupyterLite's REPL."""
    pyodide = tmp_path / "site" / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    sizes = {"pyodide.asm.wasm": 2_000_000, "python_stdlib.zip": 400_000, "pyodide.mjs": 900_000}
    sizes |= {"pyodide.asm.mjs": 50_000, "pyodide.asm.wasm.gz": 700_000}  # a host sends the .gz sibling
    sizes |= {"a-1-py3-none-any.whl": 150_000, "rulebook-abc/rulebook-0.1.0-py3-none-any.whl": 60_000}
    sizes |= {"b-1-py3-none-any.whl": 5_000_000}  # in the lock, preloaded by nobody
    for name, size in sizes.items():
        (pyodide / name).parent.mkdir(parents=True, exist_ok=True)
        with open(pyodide / name, "wb") as file:
            file.truncate(size)
    packages = {
        "a": ("a-1-py3-none-any.whl", []),
        "b": ("b-1-py3-none-any.whl", []),
        "rulebook": ("rulebook-abc/rulebook-0.1.0-py3-none-any.whl", ["a"]),
    }
    lock = {"packages": {name: {"file_name": file, "depends": needs} for name, (file, needs) in packages.items()}}
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock))
    options = {"packages": ["rulebook"], "lockFileURL": "static/pyodide/pyodide-lock.json"}
    config = {"jupyter-config-data": {"litePluginSettings": {pages.KERNEL_SETTINGS: {"loadPyodideOptions": options}}}}
    (tmp_path / "site" / "jupyter-lite.json").write_text(json.dumps(config))
    (tmp_path / "site" / "repl").mkdir()
    (tmp_path / "site" / "repl" / "index.html").write_text("JupyterLite's REPL")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "claim game.ipynb").write_text("{}")
    return tmp_path / "site"


def test_the_first_download_is_the_runtime_and_the_locked_wheels(built):
    # the runtime (the wasm as its .gz), the preloaded rulebook and what it needs (a), not b
    assert pages.first_download(built) == 700_000 + 400_000 + 900_000 + 50_000 + 150_000 + 60_000


def test_the_front_page_lists_every_game_and_each_game_s_page_runs_its_app(built, monkeypatch):
    # the games here are made up: each page's first position is Claim's (tests/test_first_visit.py checks the real ones)
    claim_position = pages.first_position("claim")
    monkeypatch.setattr(pages, "first_position", lambda name, seed=pages.FIRST_SEED: claim_position)
    games = [game("claim", "claim game.ipynb", (2, 3, 4), "Claim", "Tom & Jerry <3"), game("dice", "dice.md", (2, 4))]
    written = pages.write(built, games, built.parent / "notebooks")
    pages_written = ["claim/index.html", "dice/index.html", "minimal/index.html"]
    assert written == [built / name for name in ["index.html", "rulebook-site.css", ".nojekyll", *pages_written]]
    assert (built / "rulebook-site.css").read_text() == (pages.TEMPLATES / "site.css").read_text()
    front_text = (built / "index.html").read_text()
    front = Page(front_text)
    assert [link for link in front.links if link.endswith("/")] == ["claim/", "claim/", "dice/", "dice/"]
    assert "lab/index.html?path=claim%20game.ipynb" in front.links
    assert "Tom &amp; Jerry &lt;3" in front_text  # escaped
    text = " ".join(" ".join(front.text).split())
    assert "The rules of 2 board games" in text and "2–4 players" in text and "2 or 4 players" in text
    assert "downloads about 2 MB" in text  # 2.26 MB
    for name, code in [("claim", pages.app_code("claim")), ("minimal", pages.MINIMAL_CODE)]:
        page = Page((built / name / "index.html").read_text())
        (frame,) = page.frames
        assert urlsplit(frame).path == "../repl/index.html"
        assert parse_qs(urlsplit(frame).query)["code"] == [code]
        if name != "minimal":  # a game's page says what its first visit downloads (the minimal page has no board)
            assert "about 2 MB" in " ".join(" ".join(page.text).split())
    dice = Page((built / "dice" / "index.html").read_text())
    assert not [link for link in dice.links if "lab/" in link]  # no notebook in the lab: no link to one
    assert (built / "repl" / "index.html").read_text() == "JupyterLite's REPL"


@pytest.mark.parametrize("name", ["repl", "static"])
def test_a_game_named_like_a_folder_of_the_built_site_is_refused_before_anything_is_written(built, name):
    with pytest.raises(ValueError, match=rf"a game named '{name}' would take the folder {name}/ of the built site"):
        pages.write(built, [game("claim"), game(name)], built.parent / "notebooks")
    assert (built / "repl" / "index.html").read_text() == "JupyterLite's REPL"
    assert not (built / "index.html").exists() and not (built / "claim").exists()

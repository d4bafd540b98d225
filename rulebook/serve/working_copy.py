"""The folder ``rulebook lab`` opens: a working copy of the notebooks shipped with the rulebook, never the installed
package's own files (nor a checkout's ``notebooks/``, which JupyterLab's autosave would fill with outputs).

The first run copies every shipped file. A later run copies what is missing, brings a notebook the person has not
edited up to the shipped version, and keeps every notebook they edited; ``fresh=True`` replaces an edited notebook
too, keeping the edited one beside it under another name. What was copied is remembered in :data:`RECORD` (a hidden
file in the folder): a notebook is *edited* when its cells' sources differ from the version copied there, so outputs
and kernel metadata written by running it are not edits.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.teach import rules_text

RECORD = ".rulebook-copy.json"
FOLDER_NAME = "rulebook-notebooks"
SKIPPED = ("__pycache__", ".ipynb_checkpoints")


def default_folder() -> Path:
    """Where ``rulebook lab`` keeps its copy unless told: ``~/rulebook-notebooks``, the same folder from whatever
    folder the command is run, so a teacher's edits are found again."""
    return Path.home() / FOLDER_NAME


def shipped_folder() -> Path:
    """The notebooks the rulebook ships: inside the installed package, or a checkout's ``notebooks/``."""
    try:
        return rules_text.notebooks_dir()
    except FileNotFoundError as error:
        raise ValueError(str(error)) from None


def protected_folders() -> list[Path]:
    """Folders the copy may never be put in: the package itself and the shipped notebooks."""
    return [Path(__file__).resolve().parents[1], shipped_folder().resolve()]


@dataclass
class Copied:
    """What :func:`prepare` did, file by file (paths relative to the folder, POSIX style)."""

    folder: Path
    copied: list[str] = field(default_factory=list)  # were missing
    updated: list[str] = field(default_factory=list)  # not edited, and the rulebook shipped a new version
    kept: list[str] = field(default_factory=list)  # edited, left as they are
    replaced: dict[str, str] = field(default_factory=dict)  # edited, replaced (fresh): file -> where the edits are
    current: list[str] = field(default_factory=list)  # already the shipped version
    seconds: float = 0.0

    def lines(self) -> list[str]:
        """What to tell the person, in a few lines."""
        said = [f"Your working copy of the notebooks: {self.folder}"]
        if not (self.copied or self.updated or self.replaced or self.kept):
            said.append(f"  the rulebook's current version of all {len(self.current)} files")
        if self.copied:
            said.append(f"  copied {len(self.copied)} from the rulebook: {', '.join(self.copied)}")
        if self.updated:
            said.append(f"  updated to the rulebook's new version (you had not edited them): {', '.join(self.updated)}")
        for name, backup in self.replaced.items():
            said.append(f"  {name}: a fresh copy; your edited version is now {backup}")
        if self.kept:
            said.append(f"  kept with your edits: {', '.join(self.kept)}")
            said.append("  (a fresh copy of them: add --fresh; your edited versions are kept beside them, renamed)")
        return said


def _shipped_files(source: Path) -> list[str]:
    files = (path for path in source.rglob("*") if path.is_file())
    return sorted(
        path.relative_to(source).as_posix()
        for path in files
        if not any(part in SKIPPED or part.startswith(".") for part in path.relative_to(source).parts)
    )


def fingerprint(path: Path) -> str:
    """A notebook's cells (type and source: what a person edits), or any other file's bytes, as a hash."""
    data = path.read_bytes()
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(data.decode("utf-8"))["cells"]
            data = json.dumps([[cell["cell_type"], "".join(cell["source"])] for cell in cells]).encode("utf-8")
        except (ValueError, KeyError, TypeError):
            pass  # not a notebook we can read: its bytes decide
    return hashlib.sha256(data).hexdigest()


def _read_record(folder: Path) -> dict[str, str]:
    try:
        files = json.loads((folder / RECORD).read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {name: value for name, value in files.items() if isinstance(name, str) and isinstance(value, str)}


def _write_atomically(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".rulebook-", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _backup_name(target: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = target.with_name(f"{target.stem}-edited-{stamp}{target.suffix}")
    number = 2
    while candidate.exists():
        candidate = target.with_name(f"{target.stem}-edited-{stamp}-{number}{target.suffix}")
        number += 1
    return candidate


def check_folder(folder: str | Path) -> Path:
    """``folder`` made absolute; ValueError if it is a file, or inside the package or the shipped notebooks."""
    folder = Path(folder).expanduser().resolve()
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--dir {folder}: that is a file, not a folder")
    for protected in protected_folders():
        if folder.is_relative_to(protected):
            raise ValueError(
                f"--dir {folder}: that is inside the rulebook's own files ({protected}); choose a folder of yours"
            )
    return folder


def prepare(folder: str | Path, *, fresh: bool = False, source: Path | None = None) -> Copied:
    """Make ``folder`` a working copy of the notebooks in ``source`` (default: the shipped ones), keeping edits
    (see the module's docstring); ValueError for a folder that cannot hold it, saying why."""
    started = time.perf_counter()
    source = (source or shipped_folder()).resolve()
    folder = check_folder(folder)
    if folder.is_relative_to(source):
        raise ValueError(f"--dir {folder}: that is inside the notebooks it would copy ({source})")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--dir {folder}: cannot make that folder ({error.strerror or error})") from None
    record = _read_record(folder)
    done = Copied(folder)
    try:
        for name in _shipped_files(source):
            _bring(source / name, folder / name, name, record, fresh, done)
        _write_atomically(folder / RECORD, json.dumps({"files": record}, indent=1, sort_keys=True).encode("utf-8"))
    except OSError as error:
        raise ValueError(f"--dir {folder}: cannot write there ({error.strerror or error})") from None
    done.seconds = time.perf_counter() - started
    return done


def _bring(shipped: Path, target: Path, name: str, record: dict[str, str], fresh: bool, done: Copied) -> None:
    """One shipped file into the copy, as :func:`prepare` says."""
    new = fingerprint(shipped)
    if not target.exists():
        _write_atomically(target, shipped.read_bytes())
        done.copied.append(name)
    elif (have := fingerprint(target)) == new:
        done.current.append(name)
    elif record.get(name) == have:  # the person has not edited it since it was copied
        _write_atomically(target, shipped.read_bytes())
        done.updated.append(name)
    elif fresh:
        backup = _backup_name(target)
        shutil.copy2(target, backup)
        _write_atomically(target, shipped.read_bytes())
        done.replaced[name] = backup.name
    else:
        done.kept.append(name)
        return  # the record keeps what was copied: the file is still "edited" next time
    record[name] = new

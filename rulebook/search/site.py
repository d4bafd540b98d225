"""The website's search: ``site/search/`` holds the index :func:`rulebook.search.build_index` writes (lunr.js reads
lunr.py's format as it is), lunr.js itself (npm's lunr 2.3.9, fetched once into the build cache and checked against
its pinned digest, never committed) and ``search.js``, the search box a page includes:

    <div class="rulebook-search" data-game="meetjesland"></div><script src="../../search/search.js" defer></script>
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

from rulebook.search import build_index

LUNR = "2.3.9"
LUNR_INTEGRITY = "sha512-zTU3DaZaF3Rt9rhN3uBMGQD3dD2/vFQqnvZCDv4dl5iOzq2IZQqTxu90r4E5J+nP70J3ilqVCrbho2eWaeW8Ow=="
SCRIPT = Path(__file__).with_name("search.js")
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / ".site-cache" / "lunr"  # where make site keeps it


def fetch_lunr(cache: Path) -> Path:
    """npm's lunr package, from the cache or the npm registry, checked against its pinned digest."""
    tarball = cache / f"lunr-{LUNR}.tgz"
    if not tarball.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        if shutil.which("npm") is None:
            raise SystemExit("site: npm is needed once, to fetch lunr.js (apt-get install npm)")
        command = ["npm", "pack", f"lunr@{LUNR}", "--silent", "--pack-destination", str(cache)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"site: npm pack lunr failed: {done.stderr.strip()[-400:]}")
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != LUNR_INTEGRITY:
        tarball.unlink()
        raise SystemExit(f"site: {tarball.name} is not npm's lunr@{LUNR} (its digest differs); run again")
    return tarball


def lunr_script(cache: Path) -> bytes:
    """The minified lunr.js of the pinned package."""
    with tarfile.open(fetch_lunr(cache)) as archive:
        member = archive.extractfile("package/lunr.min.js")
        if member is None:
            raise SystemExit(f"site: lunr-{LUNR}.tgz holds no lunr.min.js")
        return member.read()


def write(site: Path, cache: Path | None = None) -> list[Path]:
    """Write ``site/search/``: index.json, lunr.min.js and search.js; returns the files written."""
    folder = site / "search"
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / "index.json"
    index.write_text(json.dumps(build_index(), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    library = folder / "lunr.min.js"
    library.write_bytes(lunr_script(DEFAULT_CACHE if cache is None else cache))
    script = folder / "search.js"
    shutil.copyfile(SCRIPT, script)
    return [index, library, script]

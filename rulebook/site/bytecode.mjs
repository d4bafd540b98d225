// Run rulebook/site/bytecode.py in Pyodide itself (the browser's Python, here under Node), so that the bytecode it
// writes is for exactly the Python the site runs: node bytecode.mjs PYODIDE_DIR WORK_DIR SCRIPT PROJECT
// WORK_DIR/in holds the wheels; the compiled wheels are written to WORK_DIR/out (see bytecode.py).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, work, script, project] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: work }, "/work");
const namespace = pyodide.globals.get("dict")();
pyodide.runPython(readFileSync(script, "utf8"), { globals: namespace });
process.exit(namespace.get("main")("/work/in", "/work/out", project));

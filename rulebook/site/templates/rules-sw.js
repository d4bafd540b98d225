// The rules pages kept for reading offline: each rules page registers this worker with its own folder as the scope
// (rulebook/site/reader.py), so it answers for those folders only, never for JupyterLite's pages (lab/, repl/, a
// game's page), whose own service worker keeps its scope. Cache first: a page read once opens at once and offline;
// a new build changes VERSION, so the worker is replaced and the old copies are dropped.
const VERSION = __VERSION__;
// for each scope (relative to this file): the files to keep from the first visit (relative to the scope)
const FILES = __FILES__;
const ROOT = new URL("./", self.location).href;
const SCOPE = self.registration.scope;
const CACHE = "rulebook-rules-" + VERSION + "-" + SCOPE.slice(ROOT.length);

self.addEventListener("install", (event) => {
  const files = FILES[SCOPE.slice(ROOT.length)] || ["./"];
  event.waitUntil(caches.open(CACHE).then((cache) =>
    // one missing file (no search on this site, a PDF not built) must not stop the others from being kept
    Promise.allSettled(files.map((file) => cache.add(new URL(file, SCOPE).href)))
  ).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("rulebook-rules-") && name.endsWith("-" + SCOPE.slice(ROOT.length)) && name !== CACHE)
    .map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) return;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }).then((kept) => {
    if (kept) return kept;
    return fetch(request).then((response) => {
      if (response.ok && response.type === "basic") cache.put(request, response.clone());
      return response;
    });
  })));
});

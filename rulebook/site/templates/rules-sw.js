// The rules pages kept for reading offline: each rules page registers this worker with its own folder as the scope
// (rulebook/site/reader.py), so it answers for those folders only, never for JupyterLite's pages (lab/, repl/, a
// game's page), whose own service worker keeps its scope. Cache first for the rules pages' own files: a page read once
// opens at once and offline; a new build of them changes VERSION, so the worker is replaced and the old copies are
// dropped.
const VERSION = __VERSION__;
// for each scope (relative to this file): the files to keep from the first visit (relative to the scope)
const FILES = __FILES__;
const ROOT = new URL("./", self.location).href;
const SCOPE = self.registration.scope;
const CACHE = "rulebook-rules-" + VERSION; // one for every scope: the files they share are kept once

self.addEventListener("install", (event) => {
  const files = FILES[SCOPE.slice(ROOT.length)] || ["./"];
  event.waitUntil(caches.open(CACHE).then((cache) =>
    // one missing file (no search on this site, a PDF not built) must not stop the others from being kept
    Promise.allSettled(files.map((file) => cache.add(new URL(file, SCOPE).href)))
  ).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("rulebook-rules-") && name !== CACHE)
    .map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) return;
  // a folder's index.html is the folder's page: one copy for both addresses
  const key = request.url.split("?")[0].replace(/\/index\.html$/, "/");
  const keep = (cache) => (response) => {
    if (response.ok && response.type === "basic") cache.put(key, response.clone());
    return response;
  };
  // cache first for what this build of the rules pages wrote (the folder's pages, figures and notes, the stylesheet);
  // the network first for the rest (the search's files, written by another part of the build), the copy offline
  const own = key.startsWith(SCOPE) || key.startsWith(ROOT + "rules/");
  event.respondWith(caches.open(CACHE).then((cache) => own
    ? cache.match(key).then((kept) => kept || fetch(request).then(keep(cache)))
    : fetch(request).then(keep(cache), () => cache.match(key).then((kept) => kept || Response.error()))));
});

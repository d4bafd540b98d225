// The rules search box of the website (issue 46.2). A page includes it with
//   <div class="rulebook-search" data-game="meetjesland"></div><script src="../../search/search.js" defer></script>
// (no data-game, or data-game="": every game). It loads lunr.min.js and index.json from its own folder: the one index
// `make site` builds with lunr.py (rulebook/search), which Python's `rulebook.search.find` reads too. A question is
// folded, split and expanded with the same synonyms in the same way as `rulebook.search.expand`, then lunr ranks
// the paragraphs. Results link to each paragraph on its game's rules page (../<game>/rules/#<id> from this folder).
(function () {
  "use strict";
  const here = document.currentScript ? document.currentScript.src : document.baseURI;
  const base = new URL(".", here);
  const LIMIT = 10;
  let loading = null;

  function loadLunr() {
    if (window.lunr) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const tag = document.createElement("script");
      tag.src = new URL("lunr.min.js", base).href;
      tag.onload = () => resolve();
      tag.onerror = () => reject(new Error("lunr.min.js could not be loaded"));
      document.head.appendChild(tag);
    });
  }

  function load() {
    if (!loading) {
      const data = fetch(new URL("index.json", base)).then((answer) => {
        if (!answer.ok) throw new Error(`index.json: ${answer.status}`);
        return answer.json();
      });
      loading = Promise.all([loadLunr(), data]).then(([, index]) => ({ data: index, index: lunr.Index.load(index.lunr) }));
    }
    return loading;
  }

  // --- words: the same steps as rulebook/search/__init__.py -------------------------------------------------
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/œ/g, "oe").replace(/æ/g, "ae");
  }
  function words(text) {
    return fold(text).match(/[a-z0-9]+/g) || [];
  }
  function stem(word) {
    return lunr.stemmer(new lunr.Token(word, {})).toString();
  }

  function expand(query, table, boost) {
    const tokens = words(query);
    const stems = tokens.map(stem);
    const stop = new Set(table.stop);
    const terms = new Map(); // by stem: [the word first given, the highest weight given]
    const add = (word, weight) => {
      const key = stem(word);
      const known = terms.get(key);
      terms.set(key, [known ? known[0] : word, Math.max(known ? known[1] : 0, weight)]);
    };
    const expanded = [];
    let start = 0;
    while (start < tokens.length) {
      let length = Math.min(3, tokens.length - start);
      for (; length > 0; length--) {
        const key = stems.slice(start, start + length).join(" ");
        if (Object.prototype.hasOwnProperty.call(table.phrases, key)) {
          for (const word of table.phrases[key]) expanded.push([word, boost * length]);
          break;
        }
      }
      start += Math.max(length, 1);
    }
    for (const token of tokens) if (!stop.has(token)) add(token, 1);
    for (const [word, weight] of expanded) add(word, weight);
    return [...terms.values()];
  }

  function search(loaded, query, game, limit) {
    const table = loaded.data.expansion[game || "*"];
    const terms = expand(query, table, loaded.data.boost);
    if (!terms.length) return [];
    const results = loaded.index.query((q) => {
      for (const [word, weight] of terms) q.term(word, { boost: weight });
    });
    const hits = [];
    for (const result of results) {
      const row = loaded.data.documents[result.ref];
      if (game && row.game !== game) continue;
      hits.push({ id: result.ref, score: result.score, terms: new Set(Object.keys(result.matchData.metadata)), ...row });
      if (hits.length === limit) break;
    }
    return hits;
  }

  // --- showing ---------------------------------------------------------------------------------------------
  const WORD = /[\p{L}\p{N}_]+/gu;
  function escape(text) {
    return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  function marked(text, terms) {
    let html = "";
    let last = 0;
    for (const found of text.matchAll(WORD)) {
      html += escape(text.slice(last, found.index));
      const word = found[0];
      html += terms.has(stem(fold(word))) ? `<mark>${escape(word)}</mark>` : escape(word);
      last = found.index + word.length;
    }
    return html + escape(text.slice(last));
  }
  function excerpt(text, terms, size) {
    if (text.length <= size) return text;
    let first = 0;
    for (const found of text.matchAll(WORD)) {
      if (terms.has(stem(fold(found[0])))) {
        first = found.index;
        break;
      }
    }
    let start = Math.max(0, Math.min(Math.round(first - size / 3), text.length - size));
    let end = Math.min(text.length, start + size);
    if (start > 0) start = Math.min(first, text.indexOf(" ", start) + 1 || start); // whole words only
    if (end < text.length) end = Math.max(text.lastIndexOf(" ", end), first + 1);
    return (start > 0 ? "… " : "") + text.slice(start, end) + (end < text.length ? " …" : "");
  }
  function link(game, id) {
    return new URL(`../${game}/rules/#${encodeURIComponent(id)}`, base).href;
  }

  const STYLE = `
.rulebook-search { margin: 1em 0; }
.rulebook-search input[type=search] { width: 100%; max-width: 36em; font: inherit; padding: .4em .5em; box-sizing: border-box; }
.rulebook-search .rs-status { color: #555; margin: .4em 0; min-height: 1.2em; }
.rulebook-search ol { list-style: none; padding: 0; margin: 0; }
.rulebook-search li { margin: 0 0 .8em; }
.rulebook-search li > a { font-weight: 600; }
.rulebook-search .rs-id { font-family: ui-monospace, monospace; margin-right: .4em; }
.rulebook-search .rs-text { margin: .2em 0; }
.rulebook-search mark { background: #ffe58a; color: inherit; }
.rulebook-search .rs-related { font-size: .92em; border-left: 3px solid #999; padding-left: .6em; margin: .3em 0; }
.rulebook-search .rs-related a { margin-right: .6em; }`;

  function setUp(box) {
    if (box.dataset.ready) return;
    box.dataset.ready = "1";
    const game = box.dataset.game || "";
    if (!document.getElementById("rulebook-search-style")) {
      const style = document.createElement("style");
      style.id = "rulebook-search-style";
      style.textContent = STYLE;
      document.head.appendChild(style);
    }
    box.innerHTML =
      '<form role="search"><label>Search the rules<br><input type="search" name="q" autocomplete="off" ' +
      'placeholder="Ask a question, e.g. can I attack across the water?"></label></form>' +
      '<p class="rs-status" aria-live="polite"></p><ol class="rs-results"></ol>';
    const input = box.querySelector("input");
    const status = box.querySelector(".rs-status");
    const list = box.querySelector(".rs-results");
    let timer = 0;
    let shown = [];

    function show(loaded, query) {
      shown = query.trim() ? search(loaded, query, game, LIMIT) : [];
      list.innerHTML = shown
        .map((hit, rank) => {
          const where = game ? "" : ` <span class="rs-game">(${escape(hit.game)})</span>`;
          let html =
            `<li data-id="${escape(hit.id)}"><a href="${link(hit.game, hit.id)}"><span class="rs-id">${escape(hit.id)}</span>` +
            `${escape(hit.title)}</a>${where}<p class="rs-text">${marked(excerpt(hit.text, hit.terms, 260), hit.terms)}</p>`;
          if (rank === 0 && hit.related.length) {
            const related = hit.related
              .map((id) => `<a href="${link(loaded.data.documents[id].game, id)}" title="${escape(loaded.data.documents[id].title)}">${escape(id)}</a>`)
              .join("");
            html += `<p class="rs-related">Related: ${related}</p>`;
          }
          return html + "</li>";
        })
        .join("");
      status.textContent = !query.trim() ? "" : shown.length ? `${shown.length} paragraph${shown.length > 1 ? "s" : ""}, best first` : "No paragraph matches; try other words.";
    }
    function run() {
      const query = input.value;
      load()
        .then((loaded) => show(loaded, query))
        .catch((error) => {
          status.textContent = `The search could not load (${error.message}).`;
        });
    }
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    box.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      load().then((loaded) => {
        show(loaded, input.value);
        if (shown.length) window.location.href = link(shown[0].game, shown[0].id);
      });
    });
    const asked = new URLSearchParams(window.location.search).get("q");
    if (asked) {
      input.value = asked;
      run();
    }
  }

  function start() {
    document.querySelectorAll(".rulebook-search").forEach(setUp);
  }
  window.rulebookSearch = { load, search, expand, words, fold };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// The charts: a ChartView's figure (plotly's public JSON of a go.Figure) drawn by plotly.js with Plotly.react at each
// revision.
//
// plotly.js is plotly.py's plotly.min.js, a classic script that sets window.Plotly, loaded once per page however many
// charts the page shows (globalThis.__rulebookPlotly, by a key naming the file's contents):
// - from `plotly_url` when the app serves it beside its notebook: a script element, so the browser keeps its compiled
//   code (plotly is about 5 MB of JavaScript; compiling it is most of what it costs a page);
// - else, or when that address fails, as text asked of the kernel ({event: "plotly"}, answered the same way).
// Nothing waits for plotly in initialize: anywidget gives a model's initialize 2 s, and holds every message from the
// kernel to the model until it returns. The chart is drawn when plotly is there; until then the model follows.
//
// A chart is an image to a screen reader (role "img"), with a text alternative: the synced `description` (the
// sentence the explorer states the numbers in), else what the figure says: its title, axes and values (issue 28.2);
// and it is described by the explorer's sentence beside it (aria-describedby: the nearest .rulebook-explorer-result).

const loads = (globalThis.__rulebookPlotly ??= new Map());
const KERNEL_WAIT = 120_000; // ms: a kernel busy with a long computation answers late, but answers

function fromScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => (globalThis.Plotly?.react ? resolve(globalThis.Plotly) : reject(new Error("no Plotly in " + src)));
    script.onerror = () => reject(new Error("could not load " + src));
    document.head.appendChild(script);
  });
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { model.off("msg:custom", answer); reject(new Error("the kernel did not send plotly")); }, KERNEL_WAIT);
    function answer(message) {
      if (message?.event !== "plotly" || typeof message.text !== "string") return;
      clearTimeout(timer);
      model.off("msg:custom", answer);
      const url = URL.createObjectURL(new Blob([message.text], { type: "text/javascript" }));
      fromScript(url).then(resolve, reject).finally(() => URL.revokeObjectURL(url));
    }
    model.on("msg:custom", answer);
    model.send({ event: "plotly" });
  });
}

function plotly(model) {
  const key = model.get("plotly_key");
  if (!loads.has(key)) {
    const address = model.get("plotly_url");
    const loading = address
      ? fromScript(new URL(address, document.baseURI).href).catch(() => fromKernel(model))
      : fromKernel(model);
    loading.catch(() => loads.delete(key)); // a later chart tries again
    loads.set(key, loading);
  }
  return loads.get(key);
}

const words = (text) => String(text ?? "").replace(/<br\s*\/?>/gi, ", ").replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim();
const titleOf = (part) => words(typeof part?.title === "string" ? part.title : part?.title?.text);

function number(value) {
  return typeof value === "number" ? String(Math.round(value * 1000) / 1000) : words(value);
}

function summary(figure) {
  // the figure in words: its title, its axes, then each trace's first values (a chart's numbers, said)
  const layout = figure.layout || {};
  const parts = [titleOf(layout) || "A chart"];
  const axes = [titleOf(layout.xaxis), titleOf(layout.yaxis)].filter(Boolean);
  if (axes.length) parts.push(`axes: ${axes.join(" and ")}`);
  for (const trace of figure.data || []) {
    const xs = Array.isArray(trace.x) ? trace.x : [], ys = Array.isArray(trace.y) ? trace.y : [];
    const pairs = [];
    for (let i = 0; i < Math.min(xs.length, ys.length, 12); i += 1) pairs.push(`${number(xs[i])}: ${number(ys[i])}`);
    if (pairs.length) parts.push(`${words(trace.name) || "values"}: ${pairs.join(", ")}${xs.length > 12 ? ", and more" : ""}`);
  }
  return parts.join(". ");
}

let described = 0;

function sentencesNear(el) {
  // the explorer's result sentences that share the nearest box with the chart (not another chart's)
  for (let box = el.parentElement; box; box = box.parentElement) {
    const found = [...box.querySelectorAll(".rulebook-explorer-result")];
    if (found.length || box.classList.contains("rulebook-explorer")) return found;
  }
  return [];
}

export default {
  render({ model, el }) {
    const box = document.createElement("div");
    box.className = "rulebook-chart";
    box.setAttribute("role", "img");
    el.append(box);
    const describe = () => {
      box.setAttribute("aria-label", model.get("description") || summary(model.get("figure") || {}));
      const ids = sentencesNear(el).map((sentence) => (sentence.id ||= `rulebook-sentence-${(described += 1)}`));
      if (ids.length) box.setAttribute("aria-describedby", ids.join(" "));
    };
    describe();
    requestAnimationFrame(describe); // once the chart is in the page beside its sentence
    let Plotly = null;
    let gone = false;
    const draw = () => {
      if (!Plotly || gone) return;
      const figure = model.get("figure") || {};
      // copies: plotly.js writes into the data and layout it draws, and every view of the model shares them
      Plotly.react(box, structuredClone(figure.data || []), structuredClone(figure.layout || {}), { ...model.get("config") });
    };
    plotly(model).then(
      (loaded) => { Plotly = loaded; draw(); },
      (error) => {
        if (gone) return;
        box.textContent =
          "This chart cannot be drawn: its drawing library (plotly) did not load. Reload the page; if that does " +
          "not help, restart the app. (" + error.message + ")";
      },
    );
    model.on("change:revision", draw);
    model.on("change:revision", describe);
    model.on("change:description", describe);
    model.on("change:config", draw);
    return () => {
      gone = true;
      model.off("change:revision", draw);
      model.off("change:revision", describe);
      model.off("change:description", describe);
      model.off("change:config", draw);
      if (Plotly) Plotly.purge(box);
    };
  },
};

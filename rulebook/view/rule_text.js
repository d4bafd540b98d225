// A RuleText (rulebook/view/table.py): HTML text whose rule ids are links. `value` is the text, `detail` a paragraph opened
// under it (empty: none). A click on a rule link sends {rule: <id>}, on a line of the move log {step: <index>}; the
// paragraph's close link empties `detail`. Its looks come from rulebook/view/style.css (the widget's _css).
//
// For the keyboard and screen readers (issue 28): a board's status line (class rulebook-status) is a live region
// (role "status"), so what it says after each move or refusal (with the rule's id) is read out; in the move log
// (class rulebook-log) each line is reached by Tab and replayed with Enter or Space, and the lines new since the
// last change are read out from the page's one announcer (#rulebook-announcer, a live region at the end of the
// page's body: a log folded away in its accordion is hidden, and a hidden live region says nothing).
const OFFSCREEN = "position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap;margin:-1px";

const spoken = (node) => node.textContent.replace(/\s+/g, " ").trim();

// On the website (a JupyterLite page, which names the site's root in data-jupyter-lite-root), a rule id also opens
// its paragraph on the site's rules page, in a new tab: rules/#<id> finds the game's page (rulebook/site/reader.py).
function rulesPage() {
  const root = document.getElementById("jupyter-config-data")?.dataset.jupyterLiteRoot;
  return root === undefined ? null : new URL(`${root.replace(/\/?$/, "/")}rules/`, location.href).href;
}

function addRulesPageLink(link, page) {
  if (!page || link.nextElementSibling?.classList.contains("rb-rule-page")) return;
  const out = document.createElement("a");
  out.className = "rb-rule-page";
  out.href = `${page}#${encodeURIComponent(link.dataset.rule)}`;
  out.target = "_blank";
  out.rel = "noopener";
  out.textContent = "\u2197";
  out.title = out.ariaLabel = `Open ${link.dataset.rule} on the rules page`;
  out.style.cssText = "text-decoration:none;margin-left:2px;font-size:0.85em";
  link.after(out);
}

function announcer() {
  let region = document.getElementById("rulebook-announcer");
  if (!region) {
    region = document.createElement("div");
    region.id = "rulebook-announcer";
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    region.style.cssText = OFFSCREEN;
    document.body.append(region);
  }
  return region;
}

function followLog(model) {
  // a move log's new lines, read out as they come: from the model, so a log whose view is folded away (or not
  // drawn yet) is heard too
  let seen = null; // the highest step read so far (null: nothing yet, nothing to announce)
  const read = () => {
    if (!(model.get("_dom_classes") || []).includes("rulebook-log")) return;
    const page = document.createElement("template");
    page.innerHTML = model.get("value");
    const lines = [...page.content.querySelectorAll("[data-step]")];
    const newest = Math.max(0, ...lines.map((line) => Number(line.dataset.step)));
    if (seen !== null && newest > seen) {
      // the log is newest first: the new lines read out oldest first, each with its player
      const who = (line) => spoken(line.closest(".rb-log-group")?.querySelector("b") ?? document.createElement("b"));
      const fresh = lines.filter((line) => Number(line.dataset.step) > seen).reverse();
      announcer().textContent = fresh.map((line) => `${who(line)}: ${spoken(line)}`).join(". ");
    } else if (seen === null) {
      announcer(); // there before its first words, as a live region must be
    }
    seen = newest;
  };
  read();
  model.on("change:value", read);
  model.on("change:_dom_classes", read);
}

export default {
  initialize({ model }) {
    followLog(model);
  },
  render({ model, el }) {
    const body = document.createElement("div");
    const detail = document.createElement("div");
    detail.className = "rb-rule-text-detail";
    el.append(body, detail);
    // a text in a box of fixed height (Ab die Post!'s status line keeps four lines) scrolls when it says more: then
    // the keyboard must reach it to scroll it (axe: scrollable-region-focusable), and it leaves the Tab order again
    // once it fits (a narrow page wraps the same words onto more lines: checked again when the box changes size)
    const reachable = () => {
      const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      if (scrolls && el.tabIndex !== 0) el.tabIndex = 0;
      else if (!scrolls && el.hasAttribute("tabindex")) el.removeAttribute("tabindex");
    };
    if (typeof ResizeObserver === "function") new ResizeObserver(reachable).observe(el);
    const show = () => {
      const status = (model.get("_dom_classes") || []).includes("rulebook-status"); // (el's classes come later)
      if (status && body.getAttribute("role") !== "status") body.setAttribute("role", "status");
      body.innerHTML = model.get("value");
      detail.innerHTML = model.get("detail");
      detail.hidden = !model.get("detail");
      const page = rulesPage();
      for (const link of el.querySelectorAll("a[data-rule]")) addRulesPageLink(link, page);
      for (const line of body.querySelectorAll("[data-step]")) {
        line.tabIndex = 0;
        line.setAttribute("aria-label", `${spoken(line)} (Enter shows the position after this move)`);
      }
      requestAnimationFrame(reachable);
    };
    show();
    model.on("change:value", show);
    model.on("change:detail", show);
    model.on("change:_dom_classes", show);
    el.addEventListener("click", (event) => {
      const link = event.target.closest("[data-rule]");
      const step = event.target.closest("[data-step]");
      if (link) {
        event.preventDefault();
        model.send({ rule: link.dataset.rule });
      } else if (step) {
        event.preventDefault();
        model.send({ step: Number(step.dataset.step) });
      } else if (event.target.closest("[data-close]")) {
        event.preventDefault();
        model.set("detail", "");
        model.save_changes();
      }
    });
    el.addEventListener("keydown", (event) => {
      const step = event.target.closest?.("[data-step]");
      if (step && event.target === step && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        model.send({ step: Number(step.dataset.step) });
      }
    });
  },
};

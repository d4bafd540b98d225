// The app's rules panel (rulebook/app/rules.py RulesPanel): the whole rules text (`value`), scrolled to the paragraph whose
// data-id is `focus`, which is highlighted (.rulebook-focus in rulebook/view/style.css). A click on a rule link in the
// text moves the focus there. The panel scrolls, so it is a labelled region the keyboard reaches (Tab, then the
// arrow keys and Page Up / Page Down scroll it; its rule links are links).

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

export default {
  render({ model, el }) {
    const box = document.createElement("div");
    box.className = "rulebook-rules";
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "The rules");
    el.append(box);
    // The panel may be hidden (another tab) when the focus arrives: scroll again once it has a size.
    const scroll = () => {
      const target = box.querySelector(".rulebook-focus");
      if (!target || box.clientHeight === 0) return;
      box.scrollTop += target.getBoundingClientRect().top - box.getBoundingClientRect().top - 4;
    };
    const focus = () => {
      const id = model.get("focus");
      for (const old of box.querySelectorAll(".rulebook-focus")) old.classList.remove("rulebook-focus");
      const target = id ? box.querySelector(`[data-id="${CSS.escape(id)}"]`) : null;
      if (target) {
        target.classList.add("rulebook-focus");
        scroll();
      }
    };
    new ResizeObserver(() => requestAnimationFrame(scroll)).observe(box);
    const show = () => {
      box.innerHTML = model.get("value");
      const page = rulesPage(); // each paragraph's own id gets the link (not every id it cites)
      for (const paragraph of box.querySelectorAll("[data-id]")) {
        const own = [...paragraph.querySelectorAll("a[data-rule]")].find((a) => a.dataset.rule === paragraph.dataset.id);
        if (own) addRulesPageLink(own, page);
      }
      focus();
    };
    show();
    model.on("change:value", show);
    model.on("change:focus", () => requestAnimationFrame(focus));
    box.addEventListener("click", (event) => {
      const link = event.target.closest("[data-rule]");
      if (link) {
        event.preventDefault();
        model.set("focus", link.dataset.rule);
        model.save_changes();
      }
    });
  },
};

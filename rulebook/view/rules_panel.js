// The app's rules panel (rulebook/app/rules.py RulesPanel): the whole rules text (`value`), scrolled to the paragraph whose
// data-id is `focus`, which is highlighted (.rulebook-focus in rulebook/view/style.css). A click on a rule link in the
// text moves the focus there. The panel scrolls, so it is a labelled region the keyboard reaches (Tab, then the
// arrow keys and Page Up / Page Down scroll it; its rule links are links).
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

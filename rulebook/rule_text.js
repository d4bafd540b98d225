// A RuleText (rulebook/ui.py): HTML text whose rule ids are links. `value` is the text, `detail` a paragraph opened
// under it (empty: none). A click on a rule link sends {rule: <id>}, on a line of the move log {step: <index>}; the
// paragraph's close link empties `detail`. Its looks come from rulebook/style.css (the widget's _css).
export default {
  render({ model, el }) {
    const body = document.createElement("div");
    const detail = document.createElement("div");
    detail.className = "rb-rule-text-detail";
    el.append(body, detail);
    const show = () => {
      body.innerHTML = model.get("value");
      detail.innerHTML = model.get("detail");
      detail.hidden = !model.get("detail");
    };
    show();
    model.on("change:value", show);
    model.on("change:detail", show);
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
  },
};

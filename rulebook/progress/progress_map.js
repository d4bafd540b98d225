// The progress map (rulebook/progress/widgets.py ProgressMap): `value` is the HTML of a game's paragraphs by section.
// A link with data-rule sends {rule}, one with data-practise sends {practise: n}; both are real links, so Tab reaches
// them and Enter follows them.
export default {
  render({ model, el }) {
    const body = document.createElement("div");
    el.append(body);
    const show = () => {
      body.innerHTML = model.get("value");
    };
    show();
    model.on("change:value", show);
    el.addEventListener("click", (event) => {
      const rule = event.target.closest("[data-rule]");
      const practise = event.target.closest("[data-practise]");
      if (rule) {
        event.preventDefault();
        model.send({ rule: rule.dataset.rule });
      } else if (practise) {
        event.preventDefault();
        model.send({ practise: Number(practise.dataset.practise) });
      }
    });
  },
};

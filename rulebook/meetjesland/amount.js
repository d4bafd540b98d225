// An Amount (rulebook/meetjesland/widget.py): a whole number chosen on a slider, as the board's "Points" and "Stake".
// It is the browser's own range input, so a click gives it the keyboard and it answers the arrow keys, Page Up and
// Page Down, Home (the least) and End (the most) as every slider of the page does; ipywidgets' slider kept the
// keyboard from the handle a click had just moved. Synced: value, min, max, description, disabled; a move also sends
// {value} as a message. On a touch screen or a narrow page (style.css) a − and a + button beside it (44 px each) take
// one off or add one, for a finger that finds the handle small.
export default {
  render({ model, el }) {
    el.classList.add("rb-mj-amount");
    const label = document.createElement("label");
    label.className = "rb-mj-amount-label";
    const slider = document.createElement("input");
    slider.type = "range";
    slider.step = "1";
    slider.className = "rb-mj-amount-slider";
    const readout = document.createElement("output");
    readout.className = "rb-mj-amount-value";
    const step = (sign, words) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "rb-mj-amount-step";
      button.textContent = sign < 0 ? "\u2212" : "+";
      button.addEventListener("click", () => choose(Number(slider.value) + sign));
      button.words = words;
      return button;
    };
    const less = step(-1, "one less"), more = step(1, "one more");
    label.append(slider);
    el.append(less, label, readout, more);
    const caption = document.createElement("span");
    caption.className = "rb-mj-amount-caption";
    label.prepend(caption);
    const show = () => {
      caption.textContent = model.get("description");
      slider.min = String(model.get("min"));
      slider.max = String(model.get("max"));
      slider.value = String(model.get("value"));
      slider.disabled = model.get("disabled");
      slider.setAttribute("aria-label", model.get("description"));
      readout.textContent = String(model.get("value"));
      for (const button of [less, more]) button.setAttribute("aria-label", `${button.words}: ${model.get("description")}`);
      less.disabled = slider.disabled || model.get("value") <= model.get("min");
      more.disabled = slider.disabled || model.get("value") >= model.get("max");
    };
    show();
    for (const name of ["value", "min", "max", "description", "disabled"]) model.on(`change:${name}`, show);
    const choose = (wanted) => {
      const value = Math.min(Math.max(wanted, model.get("min")), model.get("max"));
      slider.value = String(value);
      readout.textContent = String(value);
      if (value !== model.get("value")) {
        model.set("value", value);
        model.save_changes();
        // ipywidgets holds a model's next change until the kernel has answered the one before, but not a button's
        // click: moved twice and then Place pressed at once (a busy kernel), the kernel would place the first
        // value. So the value also goes as a message of its own, which nothing holds back (Amount._message).
        model.send({ value });
      }
      less.disabled = slider.disabled || value <= model.get("min");
      more.disabled = slider.disabled || value >= model.get("max");
    };
    slider.addEventListener("input", () => choose(Number(slider.value)));
  },
};

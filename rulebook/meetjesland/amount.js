// An Amount (rulebook/meetjesland/widget.py): a whole number chosen on a slider, as the board's "Points" and "Stake".
// It is the browser's own range input, so a click gives it the keyboard and it answers the arrow keys, Page Up and
// Page Down, Home (the least) and End (the most) as every slider of the page does; ipywidgets' slider kept the
// keyboard from the handle a click had just moved. Synced: value, min, max, description, disabled; a move also sends
// {value} as a message.
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
    label.append(slider);
    el.append(label, readout);
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
    };
    show();
    for (const name of ["value", "min", "max", "description", "disabled"]) model.on(`change:${name}`, show);
    slider.addEventListener("input", () => {
      const value = Number(slider.value);
      readout.textContent = String(value);
      if (value !== model.get("value")) {
        model.set("value", value);
        model.save_changes();
        // ipywidgets holds a model's next change until the kernel has answered the one before, but not a button's
        // click: moved twice and then Place pressed at once (a busy kernel), the kernel would place the first
        // value. So the value also goes as a message of its own, which nothing holds back (Amount._message).
        model.send({ value });
      }
    });
  },
};

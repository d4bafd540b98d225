// The app's Load button (rulebook/app/files.py LoadButton): a click opens the browser's file chooser; the chosen file is
// sent to the kernel as one buffer with its name ({load, size}). It says "Load" only: ipywidgets' FileUpload showed
// a count of files ("Load (0)"). A file larger than the model's `limit` is not read: its name and size go alone.
export default {
  render({ model, el }) {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = ".json,application/json";
    input.hidden = true;
    const button = document.createElement("button");
    button.className = "lm-Widget jupyter-widgets jupyter-button widget-button rulebook-load";
    button.textContent = "Load";
    button.title = "Continue a saved game from a file";
    button.style.width = "80px"; // as wide as Save beside it (style.css), not ipywidgets' 148 px of a button
    button.addEventListener("click", () => input.click());
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      input.value = ""; // the same file chosen again is a new choice
      if (!file) return;
      if (file.size > model.get("limit")) {
        model.send({ load: file.name, size: file.size });
        return;
      }
      try {
        const data = await file.arrayBuffer();
        model.send({ load: file.name, size: file.size }, undefined, [data]);
      } catch (error) {
        model.send({ load: file.name, size: file.size, unreadable: true });
      }
    });
    el.append(button, input);
  },
};

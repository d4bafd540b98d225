// Export and Import of a learner's progress (rulebook/progress/widgets.py ProgressFiles). Export asks Python for the
// record ({export: true}) and downloads the {file, text} it answers; Import sends a chosen file's bytes ({import,
// size} and one buffer), or its size only when it is larger than `limit`.
export default {
  render({ model, el }) {
    const button = (label, title) => {
      const made = document.createElement("button");
      made.className = "lm-Widget jupyter-widgets jupyter-button widget-button rbp-file-button";
      made.textContent = label;
      made.title = title;
      return made;
    };
    const exporting = button("Export", "Download your progress as a file (to keep it, or take it to another computer)");
    const importing = button("Import", "Add the progress of a file you exported");
    exporting.classList.add("rulebook-progress-export");
    importing.classList.add("rulebook-progress-import");
    const input = document.createElement("input");
    input.type = "file";
    input.accept = ".json,application/json";
    input.hidden = true;
    exporting.addEventListener("click", () => model.send({ export: true }));
    importing.addEventListener("click", () => input.click());
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      input.value = "";
      if (!file) return;
      if (file.size > model.get("limit")) {
        model.send({ import: file.name, size: file.size });
        return;
      }
      const data = await file.arrayBuffer();
      model.send({ import: file.name, size: file.size }, undefined, [data]);
    });
    model.on("msg:custom", (message) => {
      if (!message || !message.file) return;
      const url = URL.createObjectURL(new Blob([message.text], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = message.file;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
    el.style.display = "flex";
    el.style.gap = "8px";
    el.append(exporting, importing, input);
  },
};

// The app's Save button (rulebook/app/files.py SaveButton): a click asks the kernel for the game ({save: true}); the
// kernel answers {file, text}, which the browser downloads as a file.
export default {
  render({ model, el }) {
    const button = document.createElement("button");
    button.className = "lm-Widget jupyter-widgets jupyter-button widget-button rulebook-save";
    button.textContent = "Save";
    button.title = "Download this game as a file you can load later";
    button.addEventListener("click", () => model.send({ save: true }));
    model.on("msg:custom", (message) => {
      if (!message || !message.file) return;
      const blob = new Blob([message.text], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = message.file;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
    el.append(button);
  },
};

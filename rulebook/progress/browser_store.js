// The page's side of a BrowserStore (rulebook/progress/storage.py): the learner's progress record kept in the
// browser's localStorage under `key`. Python (in the website a web worker, which has no localStorage) and the page
// share `text`: the page sets it from storage once, sets `ready`, then stores every text Python sends.
function start(model) {
  if (model.get("ready")) return;
  const key = model.get("key");
  let kept = "";
  try {
    kept = window.localStorage.getItem(key) || "";
  } catch (error) {
    model.set("problem", `this browser keeps no storage for this page (${error.name})`);
  }
  model.set("text", kept);
  model.set("ready", true);
  model.save_changes();
  model.on("change:text", () => {
    const text = model.get("text");
    try {
      if (text) window.localStorage.setItem(key, text);
      if (model.get("problem")) {
        model.set("problem", "");
        model.save_changes();
      }
    } catch (error) {
      model.set("problem", `this browser did not keep the progress (${error.name})`);
      model.save_changes();
    }
  });
}

export default {
  initialize({ model }) {
    start(model);
  },
  render({ model }) {
    start(model); // (a model made before its page had the module: started when first drawn)
  },
};

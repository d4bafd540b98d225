// The side tabs' bar of buttons on a narrow page (rulebook/app/side_tabs.py's PanelBar).
function follow(model, el, side) {
  // the side tabs' bar of buttons; returns what undoes it
  const view = el.ownerDocument.defaultView || window;
  const tabs = () => [...side.querySelectorAll(".lm-TabBar-tab")];
  const setOpen = (open) => {
    side.classList.toggle("rb-panel-open", open);
    for (const tab of tabs()) {
      tab.setAttribute("aria-expanded", String(open && tab.classList.contains("lm-mod-current")));
    }
  };
  let wasCurrent = null; // the tab pressed was the open one: the tap closes it (or opens it again)
  const pressed = (event) => {
    const tab = event.target.closest?.(".lm-TabBar-tab");
    wasCurrent = tab && side.contains(tab) ? tab.classList.contains("lm-mod-current") : null;
  };
  const released = () => {
    if (wasCurrent === null) return;
    setOpen(wasCurrent ? !side.classList.contains("rb-panel-open") : true);
    wasCurrent = null;
  };
  const keyed = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    pressed(event);
    released();
  };
  side.addEventListener("pointerdown", pressed, true);
  side.addEventListener("click", released, true);
  side.addEventListener("keydown", keyed, true);
  const watch = new MutationObserver((changes) => {
    if (changes.some((change) => change.target.classList?.contains("lm-TabBar-tab"))) setOpen(true);
  });
  const bar = side.querySelector(".lm-TabBar-content");
  if (bar) watch.observe(bar, { attributes: true, attributeFilter: ["class"], subtree: true });
  // a host that keeps its newest output in sight (the website's REPL scrolls to the end of the app as it grows)
  // left the board's top out of the first screen on a phone: while the page opens, the app's top is kept in sight,
  // until the reader scrolls or touches the page
  const app = el.closest(".rulebook-app");
  let settling = true;
  const settle = () => {
    if (settling && app.getBoundingClientRect().top < 0) app.scrollIntoView({ block: "start" });
  };
  const sized = new ResizeObserver(settle);
  sized.observe(app);
  view.document.addEventListener("scroll", settle, true); // the host scrolled by itself (the reader's stops it)
  const stop = () => {
    settling = false;
    sized.disconnect();
    view.document.removeEventListener("scroll", settle, true);
  };
  for (const kind of ["wheel", "touchstart", "keydown", "pointerdown"]) {
    view.addEventListener(kind, stop, { once: true, capture: true });
  }
  view.setTimeout(stop, 8000);
  settle();
  const opened = () => {
    setOpen(true);
    // under the board (a narrow page) and out of sight: a rule link's paragraph, a set-up to correct, is shown
    if (side.getBoundingClientRect().top > view.innerHeight) side.scrollIntoView({ block: "start" });
  };
  model.on("change:opened", opened);
  // a board put in the board's place from a panel (the guided first game, started in the Learn panel): on a phone,
  // where the lesson's step is under its board, the panel closes and the board comes into sight
  const boardShown = () => {
    if (!view.matchMedia("(max-width: 700px)").matches) return;
    stop();
    setOpen(false);
    view.requestAnimationFrame(() => app.scrollIntoView({ block: "start" }));
  };
  model.on("change:board_shown", boardShown);
  setOpen(false);
  return () => {
    stop();
    model.off("change:opened", opened);
    model.off("change:board_shown", boardShown);
    watch.disconnect();
    side.removeEventListener("pointerdown", pressed, true);
    side.removeEventListener("click", released, true);
    side.removeEventListener("keydown", keyed, true);
  };
}

export default {
  render({ model, el }) {
    // the view is put in the page after it is made (at once in Voila, a moment later in the website's REPL): its
    // app is looked for at each frame until it is there
    let undo = null, frames = 0, gone = false;
    const find = () => {
      if (gone) return;
      const side = el.isConnected ? el.closest(".rulebook-app")?.querySelector(".rulebook-side") : null;
      if (side) undo = follow(model, el, side);
      else if (frames++ < 1200) requestAnimationFrame(find);
    };
    find();
    return () => {
      gone = true;
      undo?.();
    };
  },
};

// An EscapeKey (rulebook/kingdom_builder/widget.py): tells the board when the person presses Escape, so that a
// location tile chosen by clicking it on the board is put back (as Board Game Arena cancels a chosen action). Only
// the board last clicked hears it: a page with several boards (a notebook) cancels on the one in use. Nothing drawn.
export default {
  render({ model, el }) {
    el.classList.add("rb-kb-escape");
    let inside = false;
    const pointer = (event) => {
      const board = el.closest(".rulebook-board");
      inside = Boolean(board && board.contains(event.target));
    };
    const key = (event) => {
      // one the board's keyboard places answered already (board.js: BoardView.on_cancel) is not told twice
      if (event.key !== "Escape" || !inside || event.repeat || event.defaultPrevented) return;
      model.send({ event: "escape" });
    };
    document.addEventListener("pointerdown", pointer, true);
    document.addEventListener("keydown", key);
    return () => {
      document.removeEventListener("pointerdown", pointer, true);
      document.removeEventListener("keydown", key);
    };
  },
};

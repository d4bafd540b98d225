// The app's "Skip to the board" link (rulebook/app/toolbar.py SkipLink): first in the page's tab order, out of sight
// until the keyboard reaches it (style.css); Enter (or a click) puts the focus on the board: on the place the board's
// keyboard is on (board.js's roving tabindex), else on the board's first control that takes the focus. Without it a
// keyboard user pressed Tab 11 times to reach the board (issue 48.9).
const FOCUSABLE = "button:not([disabled]), select:not([disabled]), input:not([disabled]), [tabindex='0']";

function boardFocus(from) {
  const app = from.closest(".rulebook-app") || document;
  const boards = [...app.querySelectorAll(".rulebook-board")].filter((board) => board.offsetParent !== null);
  for (const board of boards) {
    const place = board.querySelector(".rulebook-figure-place[tabindex='0']");
    if (place) return place;
    const first = [...board.querySelectorAll(FOCUSABLE)].find((element) => element.offsetParent !== null);
    if (first) return first;
  }
  return null;
}

export default {
  render({ el }) {
    const link = document.createElement("a");
    link.href = "#";
    link.className = "rulebook-skip-link";
    link.textContent = "Skip to the board";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const target = boardFocus(el);
      if (target) target.focus();
    });
    el.append(link);
  },
};

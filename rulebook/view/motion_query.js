// A MotionQuery (rulebook/view/table.py): tells the kernel whether the page's user prefers reduced motion, as soon as the
// widget's model is made in the page (shown or not) and whenever the preference changes; the boards' default pace
// of the computer's moves is then "off" (issue 28.3).
export default {
  initialize({ model }) {
    const query = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    const report = () => {
      const reduced = Boolean(query && query.matches);
      if (model.get("reduced") !== reduced) { model.set("reduced", reduced); model.save_changes(); }
    };
    report();
    if (query && query.addEventListener) {
      query.addEventListener("change", report);
      return () => query.removeEventListener("change", report);
    }
  },
};

// The boards' drawing: a BoardView's figure (plotly's public JSON of a go.Figure, scatter traces only) drawn as one
// SVG, without plotly.js.
//
// The page reads two synced values, `figure` ({data, layout}) and `revision`, and redraws at each revision; a click on
// a point sends {event: "click", trace: <the trace's name>, point: <the point's id>, revision}, the id being the
// trace's ids[i], else its customdata[i], else i. A click on a legend entry hides its trace or shows it again in this
// page only (remembered by the trace's name across redraws). It draws what the boards use: markers (plotly's symbols,
// open or filled), lines (with dashes and gaps), text, annotations, a title and a legend, on axes that are hidden and
// may keep one scale. Loading plotly's 5 MB bundle was about a second of a page's main thread; this is a few
// milliseconds.
//
// The keyboard and screen readers (issue 28): the clickable points (those of the traces named in the synced
// `clickable`, else every trace that answers hover) are also an offscreen group of buttons, one per place on the
// board, labelled with what the hover texts there say (or a trace's meta.labels[i], where the board gives one).
// Tab reaches the group; the arrow keys move a ring (drawn over the picture) to the nearest place in the arrow's
// direction, Home and End to the first and last; Enter or Space sends the click a mouse would; Escape sends
// {event: "cancel", revision}, which lets go of a choice (BoardView.on_cancel). Each view, once made, sends
// {event: "shown", revision} (BoardView.on_shown).
//
// Phones and tablets (issue 47): the figure scales down to the width it is given (never cropped) and a tap is a click
// at the finger, wherever the page is zoomed; a place answers a tap within 22 CSS px of it (a 44 px target, shared
// with its neighbours where they are closer); a long press shows what the keyboard hears there instead of playing.
// Scaled down, no text is drawn under 12 CSS px; a text trace with meta.declutter (a list of traces' names) then
// draws only the labels that cover none of those traces' markers nor each other (its lines trace: none).

const SVG = "http://www.w3.org/2000/svg";
const FONT = '"Open Sans", verdana, arial, sans-serif';
const SQRT3 = Math.sqrt(3);
const FIT = "display:block;max-width:100%;height:auto"; // the figure, and the ring over it, scale down to their room
const LEAST_TEXT = 12; // CSS px: the smallest text of a figure drawn smaller than its size (a phone)
const TOUCH_REACH = 22; // CSS px: a tap this near a place plays it (a 44 px target)
const LONG_PRESS = 500; // ms: a finger held this long on a place shows its words instead of playing it

// -- marker symbols (r: radius in px; paths centred on the point, y down) ----------------------------------------

function polygon(points) {
  return "M" + points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join("L") + "Z";
}

function around(count, radius, turn) {
  const points = [];
  for (let i = 0; i < count; i += 1) {
    const angle = turn + (2 * Math.PI * i) / count;
    points.push([radius * Math.sin(angle), -radius * Math.cos(angle)]);
  }
  return points;
}

function starPoints(count, outer, inner) {
  const points = [];
  for (let i = 0; i < 2 * count; i += 1) {
    const radius = i % 2 ? inner : outer;
    const angle = (Math.PI * i) / count;
    points.push([radius * Math.sin(angle), -radius * Math.cos(angle)]);
  }
  return points;
}

const SHAPES = {
  circle: (r) => `M${r},0A${r},${r} 0 1,1 0,-${r}A${r},${r} 0 0,1 ${r},0Z`,
  square: (r) => polygon([[r, r], [-r, r], [-r, -r], [r, -r]]),
  diamond: (r) => polygon(around(4, 1.3 * r, 0)),
  "triangle-up": (r) => polygon([[-2 * r / SQRT3, r / 2], [2 * r / SQRT3, r / 2], [0, -r]]),
  "triangle-down": (r) => polygon([[-2 * r / SQRT3, -r / 2], [2 * r / SQRT3, -r / 2], [0, r]]),
  pentagon: (r) => polygon(around(5, r, 0)),
  hexagon: (r) => polygon(around(6, r, 0)), // a corner up: the boards' hexes
  hexagon2: (r) => polygon(around(6, r, Math.PI / 6)), // a side up
  octagon: (r) => polygon(around(8, r, Math.PI / 8)),
  star: (r) => polygon(starPoints(5, 1.4 * r, 1.4 * r * 0.382)),
  hexagram: (r) => polygon(starPoints(6, 1.32 * r, 0.76 * r)),
  cross: (r) => {
    const a = 0.4 * r, b = 1.2 * r;
    return polygon([[b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a], [-a, -b], [a, -b], [a, -a], [b, -a]]);
  },
  x: (r) => {
    const a = (0.8 * r) / Math.SQRT2, b = 2 * a;
    return polygon([[0, a], [a, b], [b, a], [a, 0], [b, -a], [a, -b], [0, -a], [-a, -b], [-b, -a], [-a, 0], [-b, a], [-a, b]]);
  },
  "x-thin": (r) => `M${r},${r}L${-r},${-r}M${r},${-r}L${-r},${r}`,
  "cross-thin": (r) => `M0,${1.4 * r}V${-1.4 * r}M${1.4 * r},0H${-1.4 * r}`,
  // the tip on the point, pointing up until it is turned (angleref "previous" turns it along its line)
  arrow: (r) => polygon([[0, 0], [-0.62 * r, 1.9 * r], [0.62 * r, 1.9 * r]]),
};
const LINE_ONLY = new Set(["x-thin", "cross-thin"]);

function symbolOf(name) {
  let text = String(name ?? "circle");
  const open = text.includes("-open");
  text = text.replace("-open", "").replace("-dot", "");
  return { shape: SHAPES[text] ? text : "circle", open: open || LINE_ONLY.has(text) };
}

function dashArray(dash, width) {
  const unit = Math.max(width || 1, 3);
  const patterns = { dot: [1, 1], dash: [3, 3], longdash: [5, 5], dashdot: [3, 1, 1, 1], longdashdot: [5, 2, 1, 2] };
  if (!dash || dash === "solid") return "";
  if (patterns[dash]) return patterns[dash].map((n) => n * unit).join(",");
  return String(dash).replace(/px/g, "");
}

// -- text --------------------------------------------------------------------------------------------------------

function escapeText(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function decodeEntities(text) {
  const named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", middot: "\u00b7", times: "\u00d7", rarr: "\u2192" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name) => {
    if (name[0] === "#") return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return named[name.toLowerCase()] ?? whole;
  });
}

// plotly's labels may hold a little HTML: <br>, <b>, <i>, <small>, <sup>, <sub>; everything else is shown as text
const KEPT_TAGS = /&lt;(\/?)(br|b|i|em|strong|small|sup|sub)\s*\/?&gt;/gi;

function labelHtml(text) {
  return escapeText(decodeEntities(String(text))).replace(KEPT_TAGS, (_, close, tag) =>
    tag.toLowerCase() === "br" ? "<br>" : `<${close}${tag.toLowerCase()}>`);
}

function svgText(text) {
  // one line of a marker's or an annotation's text: tags dropped (a <br> becomes a space)
  return escapeText(decodeEntities(String(text).replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, "")));
}

function family(name) {
  // a font the machine may lack falls back to a sans-serif, as plotly's text does, not to the browser's serif
  return /(^|,)\s*(sans-serif|serif|monospace)\s*$/.test(name) ? name : `${name}, sans-serif`;
}

function textWidth(text, size) {
  return String(text).replace(/<[^>]*>/g, "").length * size * 0.58;
}

// -- the figure ---------------------------------------------------------------------------------------------------

const at = (value, i, fallback) => {
  const own = Array.isArray(value) ? value[i] : value;
  return own === undefined || own === null ? fallback : own;
};
const hasMode = (trace, part) => String(trace.mode ?? (trace.x?.length > 20 ? "lines" : "lines+markers")).includes(part);
const shown = (trace) => trace.visible !== false && trace.visible !== "legendonly";

function colourway(layout) {
  return layout.colorway || layout.template?.layout?.colorway ||
    ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880", "#FF97FF", "#FECB52"];
}

function fontOf(layout) {
  const base = layout.template?.layout?.font || {};
  const own = layout.font || {};
  return { family: own.family || base.family || FONT, size: own.size || base.size || 12, color: own.color || base.color || "#444" };
}

function legendItems(traces) {
  return traces.map((trace, index) => ({ trace, index }))
    // as plotly's legend: a trace with nothing drawn has no entry
    .filter(({ trace }) => trace.visible !== false && trace.showlegend !== false && trace.name && (trace.x || []).length > 0);
}

function legendBox(layout, traces, width, least = 0) {
  const items = legendItems(traces);
  if (layout.showlegend !== true || !items.length) return null;
  const legend = layout.legend || {};
  const size = Math.max(legend.font?.size || fontOf(layout).size, least);
  const cell = Math.max(...items.map(({ trace }) => 40 + textWidth(trace.name, size) + 10), (legend.itemwidth || 30) + 40);
  const horizontal = legend.orientation === "h";
  const columns = horizontal ? Math.max(1, Math.floor((width - 10) / cell)) : 1;
  const rows = Math.ceil(items.length / columns);
  const row = Math.max(size * 1.6, 19);
  return { items, size, cell, columns, rows, row, horizontal, height: rows * row + 6, width: columns * cell };
}

function ranges(traces, layout, box) {
  const result = {};
  for (const axis of ["x", "y"]) {
    const given = layout[axis + "axis"]?.range;
    if (Array.isArray(given) && given.length === 2 && given.every((v) => typeof v === "number")) {
      result[axis] = [...given];
      continue;
    }
    let low = Infinity, high = -Infinity, pad = 0;
    for (const trace of traces) {
      if (!shown(trace)) continue;
      const values = trace[axis] || [];
      const markers = hasMode(trace, "markers");
      values.forEach((value, i) => {
        if (typeof value !== "number" || !Number.isFinite(value)) return;
        low = Math.min(low, value);
        high = Math.max(high, value);
        if (markers) pad = Math.max(pad, at(trace.marker?.size, i, 6) / 2 + 2);
      });
    }
    if (!Number.isFinite(low)) [low, high] = [-1, 6];
    if (low === high) [low, high] = [low - 1, high + 1];
    const length = axis === "x" ? box.w : box.h;
    const units = ((high - low) * pad) / Math.max(1, length - 2 * pad);
    result[axis] = [low - units, high + units];
  }
  // one scale on both axes (scaleanchor): the range with room to spare grows about its centre, as plotly does
  if (layout.xaxis?.scaleanchor === "y" || layout.yaxis?.scaleanchor === "x") {
    const sx = box.w / (result.x[1] - result.x[0]);
    const sy = box.h / (result.y[1] - result.y[0]);
    const scale = Math.min(sx, sy);
    for (const [axis, own, length] of [["x", sx, box.w], ["y", sy, box.h]]) {
      if (own > scale) {
        const middle = (result[axis][0] + result[axis][1]) / 2;
        const half = length / scale / 2;
        result[axis] = [middle - half, middle + half];
      }
    }
  }
  return result;
}

function geometry(state, least = 0) {
  const { layout, traces } = state;
  const width = layout.width || 700, height = layout.height || 450;
  const margin = { l: 80, r: 80, t: 100, b: 80, ...(layout.margin || {}) };
  const legend = legendBox(layout, traces, width, least);
  let bottom = margin.b;
  if (legend && legend.horizontal) bottom = Math.max(bottom, legend.height + 4);
  const box = { x: margin.l, y: margin.t, w: Math.max(10, width - margin.l - margin.r), h: Math.max(10, height - margin.t - bottom) };
  const range = ranges(traces, layout, box);
  const sx = box.w / (range.x[1] - range.x[0]);
  const sy = box.h / (range.y[1] - range.y[0]);
  return {
    width, height, box, legend,
    px: (x) => box.x + (x - range.x[0]) * sx,
    py: (y) => box.y + box.h - (y - range.y[0]) * sy,
  };
}

function markerPath(trace, i, previous, point) {
  const marker = trace.marker || {};
  const { shape, open } = symbolOf(at(marker.symbol, i, "circle"));
  const size = Number(at(marker.size, i, 6));
  if (!(size > 0)) return null;
  let d = SHAPES[shape](size / 2);
  let angle = Number(at(marker.angle, i, 0)) || 0;
  if (marker.angleref === "previous" && previous) {
    angle += (Math.atan2(point[0] - previous[0], previous[1] - point[1]) * 180) / Math.PI;
  }
  return { d, open, angle };
}

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function drawTrace(trace, index, g, colour, font, least = 0, blockers = null) {
  const parts = [];
  const declutter = least > 0 && Array.isArray(trace.meta?.declutter) && blockers !== null;
  if (declutter && hasMode(trace, "lines") && !hasMode(trace, "text")) return ""; // a leader to a name not drawn
  const xs = trace.x || [], ys = trace.y || [];
  const count = Math.min(xs.length, ys.length);
  const points = [];
  for (let i = 0; i < count; i += 1) {
    const x = xs[i], y = ys[i];
    points.push(typeof x === "number" && typeof y === "number" && Number.isFinite(x) && Number.isFinite(y) ? [g.px(x), g.py(y)] : null);
  }
  const opacity = trace.opacity ?? 1;
  const named = trace.name ? ` data-name="${escapeText(trace.name)}"` : "";
  parts.push(`<g class="trace" data-trace="${index}"${named}${opacity !== 1 ? ` opacity="${opacity}"` : ""}>`);
  if (hasMode(trace, "lines")) {
    const line = trace.line || {};
    const width = line.width ?? 2;
    let d = "", pen = false;
    for (const point of points) {
      if (!point) { pen = false; continue; }
      d += `${pen ? "L" : "M"}${point[0].toFixed(1)},${point[1].toFixed(1)}`;
      pen = true;
    }
    const dash = dashArray(line.dash, width);
    if (d && width > 0) {
      parts.push(`<path class="line" d="${d}" fill="none" stroke="${escapeText(line.color || colour)}" stroke-width="${width}"` +
        `${dash ? ` stroke-dasharray="${dash}"` : ""} stroke-linejoin="round"/>`);
    }
  }
  if (hasMode(trace, "markers")) {
    const marker = trace.marker || {};
    const line = marker.line || {};
    let previous = null;
    points.forEach((point, i) => {
      if (!point) { previous = null; return; }
      const shape = markerPath(trace, i, previous, point);
      previous = point;
      if (!shape) return;
      const fill = at(marker.color, i, colour);
      const edge = Number(at(line.width, i, 0)) || 0;
      const alpha = at(marker.opacity, i, 1);
      const turn = shape.angle ? ` rotate(${shape.angle.toFixed(1)})` : "";
      const paint = shape.open
        ? `fill="none" stroke="${escapeText(fill)}" stroke-width="${edge || 1}"`
        : `fill="${escapeText(fill)}" stroke="${escapeText(at(line.color, i, "#444"))}" stroke-width="${edge}"`;
      parts.push(`<path class="point" data-point="${i}" transform="translate(${point[0].toFixed(1)},${point[1].toFixed(1)})${turn}"` +
        ` d="${shape.d}" ${paint}${alpha !== 1 ? ` opacity="${alpha}"` : ""}/>`);
    });
  }
  if (hasMode(trace, "text") && trace.text !== undefined) {
    const textfont = trace.textfont || {};
    const markers = hasMode(trace, "markers");
    points.forEach((point, i) => {
      const text = at(trace.text, i, "");
      if (!point || text === "") return;
      const size = Math.max(Number(at(textfont.size, i, font.size)), least);
      const [vertical, horizontal] = String(at(trace.textposition, i, "middle center")).split(" ");
      const radius = markers ? Number(at(trace.marker?.size, i, 6)) / 2 : 0;
      const gap = radius * 0.8 + 1;
      const x = point[0] + (horizontal === "left" ? -gap : horizontal === "right" ? gap : 0);
      const y = point[1] + (vertical === "top" ? -gap - size * 0.3 : vertical === "bottom" ? gap + size * 0.95 : size * 0.35);
      const anchor = horizontal === "left" ? "end" : horizontal === "right" ? "start" : "middle";
      if (declutter) {
        const wide = textWidth(svgText(text), size);
        const left = anchor === "start" ? x : anchor === "end" ? x - wide : x - wide / 2;
        const box = { x: left - 1, y: y - size * 0.8, w: wide + 2, h: size * 1.05 };
        const inside = box.x >= g.box.x && box.x + box.w <= g.box.x + g.box.w && box.y >= g.box.y && box.y + box.h <= g.box.y + g.box.h;
        if (!inside || blockers.some((other) => overlaps(box, other))) return; // said on a tap, by the place's words
        blockers.push(box);
      }
      const colourOf = at(textfont.color, i, font.color);
      const weight = at(textfont.weight, i, "normal");
      const typeface = at(textfont.family, i, font.family);
      const halo = textfont.shadow === "auto" ? ` stroke="${haloFor(colourOf)}" stroke-width="2" stroke-opacity="0.8" paint-order="stroke"` : "";
      parts.push(`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="${anchor}" font-size="${size}"` +
        ` font-family="${escapeText(family(typeface))}" fill="${escapeText(colourOf)}"${weight !== "normal" ? ` font-weight="${weight}"` : ""}${halo}>` +
        `${svgText(text)}</text>`);
    });
  }
  parts.push("</g>");
  return parts.join("");
}

function haloFor(colour) {
  const hex = /^#([0-9a-f]{6})$/i.exec(String(colour).trim());
  const named = { white: 1, "#fff": 1 };
  if (named[String(colour).toLowerCase()]) return "#222";
  if (!hex) return "#fff";
  const n = parseInt(hex[1], 16);
  const light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return light > 150 ? "#222" : "#fff";
}

function legendSample(trace, colour) {
  const parts = [];
  if (hasMode(trace, "lines")) {
    const line = trace.line || {};
    const dash = dashArray(line.dash, line.width ?? 2);
    parts.push(`<path d="M5,0H35" stroke="${escapeText(line.color || colour)}" stroke-width="${Math.min(line.width ?? 2, 5)}"` +
      `${dash ? ` stroke-dasharray="${dash}"` : ""}/>`);
  }
  if (hasMode(trace, "markers")) {
    const marker = trace.marker || {};
    const { shape, open } = symbolOf(Array.isArray(marker.symbol) ? marker.symbol[0] : marker.symbol);
    const size = Math.min(Number(Array.isArray(marker.size) ? marker.size[0] : marker.size ?? 6) || 6, 16);
    const fill = Array.isArray(marker.color) ? marker.color[0] : marker.color || colour;
    const line = marker.line || {};
    const edge = Math.min(Number(Array.isArray(line.width) ? line.width[0] : line.width) || 0, 2);
    const paint = open ? `fill="none" stroke="${escapeText(fill)}" stroke-width="${edge || 1}"`
      : `fill="${escapeText(fill)}" stroke="${escapeText((Array.isArray(line.color) ? line.color[0] : line.color) || "#444")}" stroke-width="${edge}"`;
    parts.push(`<path transform="translate(20,0)" d="${SHAPES[shape](size / 2)}" ${paint}/>`);
  }
  return parts.join("");
}

function pieceBoxes(traces, names, g) {
  // the markers a decluttered label may not cover: those of the traces named, as boxes in the figure's pixels
  const boxes = [];
  for (const trace of traces) {
    if (!shown(trace) || !names.has(trace.name) || !hasMode(trace, "markers")) continue;
    const xs = trace.x || [], ys = trace.y || [];
    for (let i = 0; i < Math.min(xs.length, ys.length); i += 1) {
      if (typeof xs[i] !== "number" || typeof ys[i] !== "number") continue;
      const r = Number(at(trace.marker?.size, i, 6)) / 2;
      boxes.push({ x: g.px(xs[i]) - r, y: g.py(ys[i]) - r, w: 2 * r, h: 2 * r });
    }
  }
  return boxes;
}

function render(state, least = 0) {
  // least: the smallest text size, in the figure's pixels (12 CSS px once the figure is drawn smaller than its size)
  const { layout, traces } = state;
  const g = geometry(state, least);
  const font = fontOf(layout);
  const colours = colourway(layout);
  const parts = [`<svg xmlns="${SVG}" width="${g.width}" height="${g.height}" viewBox="0 0 ${g.width} ${g.height}" style="${FIT}">`];
  parts.push(`<rect width="${g.width}" height="${g.height}" fill="${escapeText(layout.paper_bgcolor || "#fff")}"/>`);
  parts.push(`<rect x="${g.box.x}" y="${g.box.y}" width="${g.box.w}" height="${g.box.h}" fill="${escapeText(layout.plot_bgcolor || "#E5ECF6")}"/>`);
  parts.push(`<svg x="${g.box.x}" y="${g.box.y}" width="${g.box.w}" height="${g.box.h}" viewBox="${g.box.x} ${g.box.y} ${g.box.w} ${g.box.h}" overflow="hidden">`);
  const covered = new Set(traces.flatMap((trace) => (Array.isArray(trace.meta?.declutter) ? trace.meta.declutter : [])));
  const blockers = least > 0 && covered.size ? pieceBoxes(traces, covered, g) : null;
  traces.forEach((trace, index) => {
    if (shown(trace)) parts.push(drawTrace(trace, index, g, colours[index % colours.length], font, least, blockers));
  });
  parts.push("</svg>");
  for (const note of layout.annotations || []) {
    if (note.visible === false || note.text === undefined) continue;
    const size = Math.max(note.font?.size || font.size, least);
    const x = note.xref === "paper" ? g.box.x + note.x * g.box.w : g.px(note.x);
    const y = note.yref === "paper" ? g.box.y + (1 - note.y) * g.box.h : g.py(note.y);
    const width = textWidth(note.text, size) + 6;
    if (note.bgcolor) parts.push(`<rect x="${(x - width / 2).toFixed(1)}" y="${(y - size * 0.75).toFixed(1)}" width="${width.toFixed(1)}" height="${(size * 1.5).toFixed(1)}" fill="${escapeText(note.bgcolor)}"/>`);
    parts.push(`<text x="${x.toFixed(1)}" y="${(y + size * 0.35).toFixed(1)}" text-anchor="middle" font-size="${size}" font-family="${escapeText(family(note.font?.family || font.family))}" fill="${escapeText(note.font?.color || font.color)}">${svgText(note.text)}</text>`);
  }
  const title = typeof layout.title === "string" ? { text: layout.title } : layout.title;
  if (title?.text) {
    const size = Math.max(title.font?.size || font.size * 1.4, least);
    const x = (title.x ?? 0.05) * g.width;
    const y = (1 - (title.y ?? 0.95)) * g.height + size * 0.9;
    const anchor = title.x === undefined || title.x < 0.34 ? "start" : title.x > 0.66 ? "end" : "middle";
    parts.push(`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="${anchor}" font-size="${size}" font-family="${escapeText(family(title.font?.family || font.family))}" fill="${escapeText(title.font?.color || font.color)}">${svgText(title.text)}</text>`);
  }
  if (g.legend) {
    const { items, size, cell, columns, row } = g.legend;
    const top = g.box.y + g.box.h + 6;
    items.forEach(({ trace, index }, n) => {
      const x = 4 + (n % columns) * cell;
      const y = top + Math.floor(n / columns) * row + row / 2;
      // a click on an entry hides its trace or shows it again, as in plotly; a hidden one is faded
      const faded = trace.visible === "legendonly" ? ' opacity="0.4"' : "";
      parts.push(`<g class="legend-item" data-trace="${index}" style="cursor:pointer"${faded} transform="translate(${x},${y.toFixed(1)})">` +
        `<rect x="0" y="${-row / 2}" width="${cell - 6}" height="${row}" fill="transparent"/>${legendSample(trace, colours[index % colours.length])}` +
        `<text x="40" y="${(size * 0.35).toFixed(1)}" font-size="${size}" font-family="${escapeText(family(font.family))}" fill="${escapeText(font.color)}">${svgText(trace.name)}</text></g>`);
    });
  }
  parts.push("</svg>");
  return { markup: parts.join(""), geometry: g };
}

// -- pointing: plotly's "closest" point, among the traces that are not hoverinfo "skip" ---------------------------

function answers(trace) {
  return shown(trace) && trace.hoverinfo !== "skip" && trace.hovertemplate !== "skip";
}

function nearest(state, g, x, y, scale = 1) {
  // x, y in the figure's pixels; scale: CSS px per figure px (a place answers within TOUCH_REACH CSS px of it)
  let best = null;
  state.traces.forEach((trace, t) => {
    if (!answers(trace)) return;
    const xs = trace.x || [], ys = trace.y || [];
    const markers = hasMode(trace, "markers");
    for (let i = 0; i < Math.min(xs.length, ys.length); i += 1) {
      if (typeof xs[i] !== "number" || typeof ys[i] !== "number") continue;
      const distance = Math.hypot(g.px(xs[i]) - x, g.py(ys[i]) - y);
      const radius = markers ? Number(at(trace.marker?.size, i, 6)) / 2 : 0;
      const reach = Math.max(0, distance - radius);
      if (reach > 20 && distance * scale > TOUCH_REACH) continue;
      // inside a marker beats near one; among those, the nearest centre; on a tie the trace drawn on top
      const score = reach * 1000 + distance;
      if (!best || score <= best.score) best = { score, trace: t, point: i, x: xs[i], y: ys[i] };
    }
  });
  return best;
}

function hoverText(trace, i) {
  const template = at(trace.hovertemplate, i, null);
  const text = at(trace.text, i, "");
  const hovertext = at(trace.hovertext, i, "");
  if (template) {
    return String(template).replace(/<extra>[\s\S]*?<\/extra>/g, "").replace(/%\{(\w+)\}/g, (_, name) => {
      if (name === "text") return text;
      if (name === "hovertext") return hovertext;
      if (name === "customdata") return at(trace.customdata, i, "");
      if (name === "x" || name === "y") return at(trace[name], i, "");
      return "";
    });
  }
  const info = trace.hoverinfo ?? "all";
  if (info === "none") return "";
  if (info === "text" || String(info).includes("text")) return hovertext !== "" ? hovertext : text;
  return hovertext !== "" ? hovertext : text !== "" ? text : `(${at(trace.x, i, "")}, ${at(trace.y, i, "")})`;
}

// -- the keyboard's places: one per position of a clickable point, labelled from what the page says there ---------

function plainText(text) {
  // a hover text as words: a <br> becomes ", ", other tags go, entities are read
  return decodeEntities(String(text).replace(/\s*<br\s*\/?>\s*/gi, ", ").replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
}

function spokenAt(trace, i, speaks) {
  const own = trace.meta?.labels;
  if (Array.isArray(own) && typeof own[i] === "string") return own[i];
  return speaks ? plainText(hoverText(trace, i)) : String(trace.name ?? "");
}

const placeKey = (x, y) => `${Math.round(x * 1e4) / 1e4},${Math.round(y * 1e4) / 1e4}`;

function places(state, g) {
  const named = new Set(state.clickable || []);
  const clickable = (trace) => shown(trace) && (named.size ? named.has(trace.name) : answers(trace));
  const found = new Map();
  state.traces.forEach((trace, t) => {
    if (!clickable(trace)) return;
    const xs = trace.x || [], ys = trace.y || [];
    for (let i = 0; i < Math.min(xs.length, ys.length); i += 1) {
      if (typeof xs[i] !== "number" || typeof ys[i] !== "number" || !Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) continue;
      const key = placeKey(xs[i], ys[i]);
      const place = found.get(key) || { key, x: xs[i], y: ys[i], px: g.px(xs[i]), py: g.py(ys[i]), r: 6, words: [] };
      place.hit = { trace: t, point: i, x: xs[i], y: ys[i] }; // the trace drawn last (on top) takes the click
      if (hasMode(trace, "markers")) place.r = Math.max(place.r, Number(at(trace.marker?.size, i, 6)) / 2);
      found.set(key, place);
    }
  });
  // the words of every trace with a point there, in drawing order: what each hover text (or meta label) says
  state.traces.forEach((trace) => {
    const speaks = answers(trace);
    if (!shown(trace) || (!speaks && !clickable(trace) && !Array.isArray(trace.meta?.labels))) return;
    const xs = trace.x || [], ys = trace.y || [];
    for (let i = 0; i < Math.min(xs.length, ys.length); i += 1) {
      if (typeof xs[i] !== "number" || typeof ys[i] !== "number") continue;
      const place = found.get(placeKey(xs[i], ys[i]));
      const words = place && spokenAt(trace, i, speaks);
      if (words && !place.words.includes(words)) place.words.push(words);
    }
  });
  const list = [...found.values()];
  for (const place of list) place.label = place.words.join("; ") || "a point of the board";
  // reading order: rows from the top (within a few pixels), then from the left
  list.sort((a, b) => Math.round(a.py / 6) - Math.round(b.py / 6) || a.px - b.px);
  return list;
}

function stepFrom(list, from, dx, dy) {
  // the nearest place in the arrow's direction: distance plus the sideways offset, a place outside the 45 degree
  // cone only when none is inside it (a hex grid's neighbours, a map's territories, a track's next field)
  let best = null;
  for (const place of list) {
    if (place === from) continue;
    const vx = place.px - from.px, vy = place.py - from.py;
    const along = vx * dx + vy * dy;
    if (along <= 0.5) continue;
    const across = Math.abs(vx * dy - vy * dx);
    const score = Math.hypot(vx, vy) + across + (across > along ? 100000 : 0);
    if (!best || score < best.score) best = { score, place };
  }
  return best?.place ?? null;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const OFFSCREEN = {
  position: "absolute", width: "1px", height: "1px", overflow: "hidden", clipPath: "inset(50%)",
  whiteSpace: "nowrap", margin: "-1px", padding: "0", border: "0",
};

// -- a BoardView's state: its figure as of its revision, with the page's own legend choices ---------------------

function pointId(trace, i) {
  for (const key of ["ids", "customdata"]) if (Array.isArray(trace[key])) return trace[key][i] ?? null;
  return i;
}

function viewState(model) {
  const chosen = new Map(); // trace name -> the visible its legend entry was last clicked to (true or "legendonly")
  const state = { traces: [], layout: {}, revision: 0, views: new Set() };
  const redraw = () => state.views.forEach((view) => view());
  const adopt = () => {
    const figure = model.get("figure") || {};
    state.revision = model.get("revision") || 0;
    state.clickable = model.get("clickable") || [];
    state.layout = figure.layout || {};
    state.traces = (figure.data || []).map((trace) => {
      const own = chosen.get(trace.name);
      return own === undefined || trace.visible === false ? trace : { ...trace, visible: own };
    });
    redraw();
  };
  adopt();
  model.on("change:figure", adopt);
  model.on("change:revision", adopt);
  model.on("change:clickable", adopt);
  state.toggle = (index) => {
    const trace = state.traces[index];
    if (!trace || !trace.name) return;
    chosen.set(trace.name, trace.visible === "legendonly" ? true : "legendonly");
    adopt();
  };
  state.click = (hit) => {
    const trace = state.traces[hit.trace];
    model.send({ event: "click", trace: trace.name ?? null, point: pointId(trace, hit.point), revision: state.revision });
  };
  state.cancel = () => model.send({ event: "cancel", revision: state.revision });
  return state;
}

// -- the widget ---------------------------------------------------------------------------------------------------

const STATES = new WeakMap();

function stateOf(model) {
  if (!STATES.has(model)) STATES.set(model, viewState(model));
  return STATES.get(model);
}

const KEYS_HELP = "Arrow keys move between the places of the board, Home and End go to the first and the last, " +
  "Enter or Space plays the place, Escape lets go of a choice.";

function ringMarkup(g, place) {
  // two rings, white under black: visible on every fill of the boards
  if (!place) return "";
  const r = Math.max(place.r + 4, 9);
  const shape = place.box
    ? (stroke, width) => `<rect x="${place.box.x - 3}" y="${place.box.y - 3}" width="${place.box.w + 6}" height="${place.box.h + 6}" fill="none" stroke="${stroke}" stroke-width="${width}"/>`
    : (stroke, width) => `<circle cx="${place.px.toFixed(1)}" cy="${place.py.toFixed(1)}" r="${r.toFixed(1)}" fill="none" stroke="${stroke}" stroke-width="${width}"/>`;
  return `<svg xmlns="${SVG}" width="${g.width}" height="${g.height}" viewBox="0 0 ${g.width} ${g.height}" style="${FIT}">` +
    shape("#ffffff", 7) + shape("#000000", 3) + "</svg>";
}

export default {
  initialize({ model }) {
    stateOf(model); // follows the model from the start, whether or not a view is shown yet
  },
  render({ model, el }) {
    const state = stateOf(model);
    const root = document.createElement("div");
    root.className = "rulebook-figure";
    root.style.position = "relative";
    root.style.width = "fit-content";
    root.style.maxWidth = "100%";
    // a tap is a click at once (no wait for a double tap), pinch-zoom stays; a long press is not the system's menu
    Object.assign(root.style, { touchAction: "manipulation", webkitTouchCallout: "none", userSelect: "none" });
    const picture = document.createElement("div");
    picture.setAttribute("aria-hidden", "true"); // its words are the buttons' labels below
    const label = document.createElement("div");
    label.className = "rulebook-figure-label";
    Object.assign(label.style, {
      position: "absolute", display: "none", pointerEvents: "none", background: "#fff", color: "#222",
      border: "1px solid #555", borderRadius: "3px", padding: "3px 7px", lineHeight: "1.35", maxWidth: "320px",
      boxShadow: "0 1px 4px rgba(0,0,0,0.25)", whiteSpace: "nowrap", zIndex: 10,
    });
    label.setAttribute("aria-hidden", "true");
    const ring = document.createElement("div");
    ring.className = "rulebook-figure-ring";
    Object.assign(ring.style, { position: "absolute", left: "0", top: "0", pointerEvents: "none", zIndex: 5 });
    // the keyboard's way in: a group of buttons, one per place (roving tabindex: Tab reaches the current one)
    const keys = document.createElement("div");
    keys.className = "rulebook-figure-keys";
    keys.setAttribute("role", "group");
    Object.assign(keys.style, OFFSCREEN);
    const legendKeys = document.createElement("div");
    legendKeys.className = "rulebook-figure-legend-keys";
    Object.assign(legendKeys.style, OFFSCREEN);
    root.append(picture, ring, label, keys, legendKeys);
    el.append(root);
    let geometryNow = null;
    let least = 0; // the smallest text drawn, in the figure's pixels (board.js's header)
    let pending = false;
    let list = [];
    let current = null; // the key of the place the keyboard is on
    let ringed = null; // the place (or legend entry) the ring is drawn around
    const buttons = new Map(); // place key -> its button (kept across redraws, so the focus stays on it)

    const scale = () => {
      // CSS px per figure px: below 1 where the figure is drawn smaller than its size (a narrow page)
      const drawn = picture.firstElementChild?.getBoundingClientRect().width;
      return geometryNow && drawn ? drawn / geometryNow.width : 1;
    };
    const showLabel = (text, px, py) => {
      if (!text || !geometryNow) { label.style.display = "none"; return; }
      const s = scale(), width = geometryNow.width * s, height = geometryNow.height * s;
      label.innerHTML = labelHtml(text);
      label.style.fontSize = `${Math.max(state.layout.hoverlabel?.font?.size || 12, LEAST_TEXT)}px`;
      label.style.whiteSpace = width < 480 ? "normal" : "nowrap"; // on a phone it wraps inside the figure
      label.style.maxWidth = `${Math.min(320, width - 8)}px`;
      label.style.display = "block";
      const x = px * s, y = py * s;
      const right = x + 14 + label.offsetWidth <= width;
      label.style.left = `${right ? x + 14 : Math.max(0, x - 14 - label.offsetWidth)}px`;
      label.style.top = `${Math.max(0, Math.min(y - label.offsetHeight / 2, height - label.offsetHeight))}px`;
    };
    const drawRing = (place) => {
      ringed = place;
      ring.innerHTML = geometryNow ? ringMarkup(geometryNow, place) : "";
      if (place && !place.box) showLabel(place.label, place.px, place.py);
      else if (!place) label.style.display = "none";
    };
    const goTo = (place) => {
      if (!place) return;
      current = place.key;
      for (const [key, button] of buttons) button.tabIndex = key === current ? 0 : -1;
      buttons.get(place.key)?.focus();
    };
    const placeOf = (button) => list.find((place) => place.key === button.dataset.key);
    const newButton = (key) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.key = key;
      button.className = "rulebook-figure-place";
      button.addEventListener("focus", () => {
        current = key;
        for (const [other, each] of buttons) each.tabIndex = other === current ? 0 : -1;
        drawRing(placeOf(button));
      });
      button.addEventListener("blur", () => drawRing(null));
      button.addEventListener("click", () => {
        const place = placeOf(button);
        if (place) state.click(place.hit);
      });
      return button;
    };
    const updateKeys = () => {
      const had = keys.contains(document.activeElement) ? current : null;
      const old = list.find((place) => place.key === current);
      list = geometryNow ? places(state, geometryNow) : [];
      const keep = new Set(list.map((place) => place.key));
      if (current !== null && !keep.has(current)) {
        // the place went (a piece moved, a ring is gone): the nearest one that is left
        let best = null;
        for (const place of list) {
          const distance = old ? Math.hypot(place.px - old.px, place.py - old.py) : 0;
          if (!best || distance < best.distance) best = { distance, place };
        }
        current = best ? best.place.key : null;
      }
      if (current === null && list.length) current = list[0].key;
      for (const [key, button] of buttons) if (!keep.has(key)) { button.remove(); buttons.delete(key); }
      list.forEach((place, n) => {
        let button = buttons.get(place.key);
        if (!button) { button = newButton(place.key); buttons.set(place.key, button); }
        if (button.getAttribute("aria-label") !== place.label) button.setAttribute("aria-label", place.label);
        button.dataset.x = String(place.px); // where it is drawn (px in the figure, unrounded: an arrow key's choice
        button.dataset.y = String(place.py); // between two places at the same distance follows from it), for tools
        button.tabIndex = place.key === current ? 0 : -1;
        if (keys.children[n] !== button) keys.insertBefore(button, keys.children[n] || null);
      });
      const title = typeof state.layout.title === "string" ? state.layout.title : state.layout.title?.text;
      keys.setAttribute("aria-label", `${title ? svgText(title) + ": " : ""}the board, ${list.length} places. ${KEYS_HELP}`);
      if (had !== null && current !== null) {
        const button = buttons.get(current);
        if (document.activeElement !== button) button.focus();
        else drawRing(placeOf(button));
      } else if (ringed && !ringed.box) drawRing(null);
      updateLegendKeys();
    };
    const updateLegendKeys = () => {
      const g = geometryNow;
      const focused = legendKeys.contains(document.activeElement) ? document.activeElement.dataset.trace : null;
      legendKeys.replaceChildren();
      if (!g?.legend) return;
      const { items, cell, columns, row } = g.legend;
      const top = g.box.y + g.box.h + 6;
      items.forEach(({ trace, index }, n) => {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.trace = String(index);
        const hidden = trace.visible === "legendonly";
        button.setAttribute("aria-pressed", hidden ? "false" : "true");
        button.setAttribute("aria-label", `legend: ${svgText(trace.name)}, ${hidden ? "hidden" : "shown"}; press to ${hidden ? "show" : "hide"} it`);
        const box = { x: 4 + (n % columns) * cell, y: top + Math.floor(n / columns) * row, w: cell - 6, h: row };
        button.addEventListener("focus", () => drawRing({ box }));
        button.addEventListener("blur", () => drawRing(null));
        button.addEventListener("click", () => state.toggle(index));
        legendKeys.append(button);
        if (focused === String(index)) button.focus();
      });
    };
    keys.addEventListener("keydown", (event) => {
      const here = list.find((place) => place.key === current) || list[0];
      if (!here) return;
      if (ARROWS[event.key]) {
        event.preventDefault();
        const [dx, dy] = ARROWS[event.key];
        goTo(stepFrom(list, here, dx, dy) || here);
      } else if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        goTo(event.key === "Home" ? list[0] : list[list.length - 1]);
      } else if (event.key === "Escape") {
        event.preventDefault();
        state.cancel();
      }
    });
    // Enter plays the place as Space does, whatever holds the page: JupyterLab's code console (the website's REPL,
    // in which the app runs) takes Enter pressed outside its prompt, in the capture phase of its own element: it
    // stopped the key's click and moved the focus to its hidden prompt, so Enter did nothing (issue 48.9). Heard
    // first, at the window, Enter on a place or a legend entry clicks it, and goes no further.
    const enter = (event) => {
      const button = event.target;
      if (event.key !== "Enter" || !(keys.contains(button) || legendKeys.contains(button)) || button === keys) return;
      if (button.tagName !== "BUTTON" || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      event.stopPropagation();
      if (!event.repeat) button.click();
    };
    const view = el.ownerDocument.defaultView || window;
    view.addEventListener("keydown", enter, true);
    const draw = () => {
      pending = false;
      least = room();
      const { markup, geometry: g } = render(state, least);
      picture.innerHTML = markup;
      geometryNow = g;
      ring.style.width = "100%";
      ring.style.height = "100%";
      updateKeys();
    };
    const room = () => {
      // the smallest text for the width the page gives the figure: 12 CSS px once it is drawn smaller
      const width = state.layout.width || 700;
      const given = el.clientWidth || root.parentElement?.clientWidth || width;
      return given < width - 1 ? (LEAST_TEXT * width) / given : 0;
    };
    const schedule = () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(draw);
    };
    draw();
    state.views.add(schedule);
    // a page made narrower or wider (a phone turned, a panel resized): drawn again where the text size changes
    const resized = new ResizeObserver(() => { if (Math.abs(room() - least) > 0.5) schedule(); });
    resized.observe(el);
    const where = (event) => {
      // the figure's pixels under the pointer: client and bounds are both the page's CSS px, zoomed or not
      const bounds = picture.getBoundingClientRect();
      const s = scale();
      return [(event.clientX - bounds.left) / s, (event.clientY - bounds.top) / s];
    };
    // a long press on a place shows its words (what the keyboard hears there) and plays nothing
    let press = null;
    let pressed = false; // the click that ends a long press is no move
    let touched = -Infinity; // when a finger last left the figure: the mouse events a touch makes after it are no hover
    const letGo = (event) => {
      if (press) clearTimeout(press.timer);
      press = null;
      if (event?.pointerType && event.pointerType !== "mouse") touched = performance.now();
    };
    picture.addEventListener("pointerdown", (event) => {
      letGo();
      pressed = false;
      if (event.pointerType === "mouse" || !geometryNow) return;
      touched = Infinity;
      const [x, y] = where(event);
      press = { x: event.clientX, y: event.clientY, timer: setTimeout(() => {
        press = null;
        const hit = nearest(state, geometryNow, x, y, scale());
        const place = hit && list.find((each) => each.key === placeKey(hit.x, hit.y));
        const words = place?.label || (hit ? plainText(hoverText(state.traces[hit.trace], hit.point)) : "");
        if (!words) return;
        pressed = true;
        showLabel(words, geometryNow.px(hit.x), geometryNow.py(hit.y));
      }, LONG_PRESS) };
    });
    picture.addEventListener("pointermove", (event) => {
      if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 10) letGo();
    });
    for (const kind of ["pointerup", "pointercancel"]) picture.addEventListener(kind, letGo);
    picture.addEventListener("contextmenu", (event) => { if (pressed || press) event.preventDefault(); });
    picture.addEventListener("mousemove", (event) => {
      if (!geometryNow || performance.now() - touched < 1000) return;
      const [x, y] = where(event);
      const hit = nearest(state, geometryNow, x, y, scale());
      picture.style.cursor = hit ? "pointer" : "default";
      const text = hit ? hoverText(state.traces[hit.trace], hit.point) : "";
      showLabel(text, hit ? geometryNow.px(hit.x) : 0, hit ? geometryNow.py(hit.y) : 0);
    });
    picture.addEventListener("mouseleave", () => { if (performance.now() - touched >= 1000) label.style.display = "none"; });
    picture.addEventListener("click", (event) => {
      if (!geometryNow) return;
      if (pressed) { pressed = false; return; } // a long press showed the place's words: no move
      const entry = event.target.closest?.(".legend-item");
      if (entry && event.pointerType === "touch") return; // on a touch screen the legend is a key, no 6 px target
      if (entry) {
        state.toggle(Number(entry.dataset.trace)); // a click on an entry hides its trace or shows it again
        return;
      }
      const [x, y] = where(event);
      const hit = nearest(state, geometryNow, x, y, scale());
      if (!hit) return;
      label.style.display = "none"; // it told of the point before the click, which redraws the board
      const key = placeKey(hit.x, hit.y);
      if (buttons.has(key)) current = key; // the keyboard goes on from where the mouse clicked
      state.click(hit, event);
    });
    // The page has this board's view, so every model of the page is made: the kernel sends the board's state again
    // (BoardView.on_shown), in case a change of it was lost while the page loaded (see Table._page_shown).
    setTimeout(() => model.send({ event: "shown", revision: state.revision }), 0);
    return () => {
      state.views.delete(schedule);
      resized.disconnect();
      letGo();
      view.removeEventListener("keydown", enter, true);
    };
  },
};

// How the dice tray's parts look: a die's face and words, a depot's and the elephant's labels, the elephant and
// the karma glyph. Pure drawing; the tray itself is dice.js.

import { el, inlineSvg, title } from "./svg.js";
import { t } from "./i18n.js";
import { COLOURS, dieFace } from "./icons.js";

// drawn once per place and size (the tray and the bar show it on every update), cloned after that
const elephants = new Map();
export function elephantIcon(x, y, s) {
  const key = `${x},${y},${s}`;
  if (!elephants.has(key)) elephants.set(key, drawElephant(x, y, s));
  return elephants.get(key).cloneNode(true);
}

function drawElephant(x, y, s) {
  const g = el("g", { class: "elephant-icon" });
  const grey = "#8e8a99";
  const dark = "#5d586b";
  g.append(
    el("ellipse", { cx: x, cy: y, rx: s * 1.0, ry: s * 0.62, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("rect", { x: x - s * 0.8, y: y + s * 0.3, width: s * 0.28, height: s * 0.6, rx: s * 0.08, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("rect", { x: x - s * 0.35, y: y + s * 0.35, width: s * 0.28, height: s * 0.55, rx: s * 0.08, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("rect", { x: x + s * 0.15, y: y + s * 0.35, width: s * 0.28, height: s * 0.55, rx: s * 0.08, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("rect", { x: x + s * 0.55, y: y + s * 0.3, width: s * 0.28, height: s * 0.6, rx: s * 0.08, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("circle", { cx: x + s * 1.05, cy: y - s * 0.25, r: s * 0.48, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("path", { d: `M${x + s * 1.4},${y - s * 0.1} Q${x + s * 1.65},${y + s * 0.5} ${x + s * 1.45},${y + s * 0.9}`, fill: "none", stroke: grey, "stroke-width": s * 0.22, "stroke-linecap": "round" }),
    el("ellipse", { cx: x + s * 0.8, cy: y - s * 0.2, rx: s * 0.28, ry: s * 0.38, fill: "#b3aec0", stroke: dark, "stroke-width": s * 0.04 }),
    el("circle", { cx: x + s * 1.2, cy: y - s * 0.35, r: s * 0.06, fill: "#222" }),
    // the saddle cloth where the die rests
    el("path", { d: `M${x - s * 0.6},${y - s * 0.55} L${x + s * 0.45},${y - s * 0.55} L${x + s * 0.35},${y + s * 0.1} L${x - s * 0.5},${y + s * 0.1} Z`, fill: COLOURS.fame, stroke: "#e9b836", "stroke-width": s * 0.06 }),
  );
  return g;
}

// What a die's slot shows (its class and its words), a depot's class and label, the elephant's label: keepTray
// (dice.js) writes them into the tray on the page.
export function slotLook(sheet, state, d, lang, extra = "") {
  const die = sheet.dice[d];
  const face = faceOf(sheet, state, d);
  const label = `${t(die.colour === "purple" ? "market" : die.colour === "green" ? "province" : die.colour === "blue" ? "river" : "palace", lang)}: ${Array.isArray(face) ? face.map((f) => t(f, lang)).join(" + ") : t(face, lang)}`;
  return { cls: `die-slot${extra}${(state.reroll || []).includes(d) ? " rerolled" : ""}`, label };
}

export function depotClass(seat, opts) {
  return `depot${opts.current === seat ? " current" : ""}${opts.me === seat ? " me" : ""}`;
}

export function depotLabel(seat, names, lang) {
  return `${t("depot", lang)} · ${names[seat]}`;
}

export function elephantLabel(state, names, lang) {
  return `${t("elephant", lang)} · ${names[state.start_player] ?? ""}`;
}

export function faceOf(sheet, state, d) {
  return sheet.dice[d].faces[state.faces[d]];
}

export function dieSvg(sheet, state, d, lang, size = 52) {
  const die = sheet.dice[d];
  return inlineSvg(size, dieFace(die.colour, faceOf(sheet, state, d), size / 2, size / 2, size / 2 - 3, lang));
}

export function karmaGlyph(x, y, r) {
  const g = el("g", null, el("circle", { cx: x, cy: y, r, fill: COLOURS.karma }), el("circle", { cx: x, cy: y, r: r * 0.5, fill: "none", stroke: "#fff", "stroke-width": r * 0.14 }));
  for (let i = 0; i < 8; i++) {
    const a = (Math.PI * i) / 4;
    g.append(el("line", { x1: x + Math.cos(a) * r * 0.15, y1: y + Math.sin(a) * r * 0.15, x2: x + Math.cos(a) * r * 0.72, y2: y + Math.sin(a) * r * 0.72, stroke: "#fff", "stroke-width": r * 0.1 }));
  }
  g.append(title("karma"));
  return g;
}

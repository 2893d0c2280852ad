// Small inline SVG glyphs for the app's chrome (no emoji font is needed anywhere).

import { el, inlineSvg } from "./svg.js";
import { elephantIcon } from "./dice_looks.js";

const P = {
  crown: (c) => [el("path", { d: "M3,17 L3,7 L8,11 L12,4 L16,11 L21,7 L21,17 Z", fill: c || "#e9b836", stroke: "#8a6410", "stroke-width": 1.4, "stroke-linejoin": "round" })],
  eye: (c) => [el("path", { d: "M2,12 Q12,3 22,12 Q12,21 2,12 Z", fill: "#fff", stroke: c || "currentColor", "stroke-width": 1.8 }), el("circle", { cx: 12, cy: 12, r: 3.6, fill: c || "currentColor" })],
  trophy: (c) => [el("path", { d: "M7,3 H17 V9 A5,5 0 0 1 7,9 Z M10,14 H14 V17 H17 V21 H7 V17 H10 Z", fill: c || "#e9b836", stroke: "#8a6410", "stroke-width": 1.3, "stroke-linejoin": "round" }),
    el("path", { d: "M7,5 H4 Q4,10 8,11 M17,5 H20 Q20,10 16,11", fill: "none", stroke: "#8a6410", "stroke-width": 1.5 })],
  bot: (c) => [el("rect", { x: 4, y: 7, width: 16, height: 12, rx: 3, fill: c || "#7b4fa0" }), el("circle", { cx: 9, cy: 13, r: 1.8, fill: "#fff" }), el("circle", { cx: 15, cy: 13, r: 1.8, fill: "#fff" }), el("line", { x1: 12, y1: 7, x2: 12, y2: 3, stroke: c || "#7b4fa0", "stroke-width": 2 })],
  clock: (c) => [el("circle", { cx: 12, cy: 12, r: 9, fill: "none", stroke: c || "currentColor", "stroke-width": 2 }), el("path", { d: "M12,7 V12 L16,14", fill: "none", stroke: c || "currentColor", "stroke-width": 2, "stroke-linecap": "round" })],
  bell: (c) => [el("path", { d: "M6,17 V11 A6,6 0 0 1 18,11 V17 L20,19 H4 Z", fill: c || "currentColor" }), el("circle", { cx: 12, cy: 20.5, r: 2, fill: c || "currentColor" })],
  play: (c) => [el("path", { d: "M7,4 L20,12 L7,20 Z", fill: c || "currentColor" })],
};

export function glyph(name, size = 18, colour) {
  if (name === "elephant") {
    const s = inlineSvg(size, elephantIcon(38, 36, 24), size * 84 / 64);
    s.setAttribute("viewBox", "0 0 84 64");
    s.classList.add("glyph", "glyph-elephant");
    return s;
  }
  const s = el("svg", { viewBox: "0 0 24 24", width: size, height: size, class: `glyph glyph-${name}`, "aria-hidden": "true" }, P[name](colour));
  return s;
}

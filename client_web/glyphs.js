// The chrome every page and game shares: small inline SVG glyphs (no emoji font is needed anywhere: crown, eye,
// trophy, bot, clock, bell, play, and the elephant, Rajas' mark), and the seats' colours.

import { s as el, kept } from "./ui.js";

// Seat i's colour, wherever a seat is shown (the lobby, the players, the chat, a game's board).
export const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b", "#6c3483"];

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

// The elephant, standing in an 84 x 64 box, with the saddle cloth where the elephant's die rests.
function elephant(x = 38, y = 36, s = 24) {
  const grey = "#8e8a99";
  const dark = "#5d586b";
  const leg = (lx, ly, h) => el("rect", { x: x + s * lx, y: y + s * ly, width: s * 0.28, height: s * h, rx: s * 0.08, fill: grey, stroke: dark, "stroke-width": s * 0.05 });
  return el("g", { class: "elephant-icon" },
    el("ellipse", { cx: x, cy: y, rx: s * 1.0, ry: s * 0.62, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    leg(-0.8, 0.3, 0.6), leg(-0.35, 0.35, 0.55), leg(0.15, 0.35, 0.55), leg(0.55, 0.3, 0.6),
    el("circle", { cx: x + s * 1.05, cy: y - s * 0.25, r: s * 0.48, fill: grey, stroke: dark, "stroke-width": s * 0.05 }),
    el("path", { d: `M${x + s * 1.4},${y - s * 0.1} Q${x + s * 1.65},${y + s * 0.5} ${x + s * 1.45},${y + s * 0.9}`, fill: "none", stroke: grey, "stroke-width": s * 0.22, "stroke-linecap": "round" }),
    el("ellipse", { cx: x + s * 0.8, cy: y - s * 0.2, rx: s * 0.28, ry: s * 0.38, fill: "#b3aec0", stroke: dark, "stroke-width": s * 0.04 }),
    el("circle", { cx: x + s * 1.2, cy: y - s * 0.35, r: s * 0.06, fill: "#222" }),
    el("path", { d: `M${x - s * 0.6},${y - s * 0.55} L${x + s * 0.45},${y - s * 0.55} L${x + s * 0.35},${y + s * 0.1} L${x - s * 0.5},${y + s * 0.1} Z`, fill: "#b3283a", stroke: "#e9b836", "stroke-width": s * 0.06 }));
}

// A glyph drawn once where it stands: the page draws it again only when it is another glyph (it is a kept part).
export function glyph(name, size = 18, colour) {
  return kept(undefined, `${name}|${size}|${colour}`, () => (name === "elephant"
    ? el("svg", { viewBox: "0 0 84 64", width: (size * 84) / 64, height: size, class: "glyph glyph-elephant" }, elephant())
    : el("svg", { viewBox: "0 0 24 24", width: size, height: size, class: `glyph glyph-${name}`, "aria-hidden": "true" }, P[name](colour))));
}

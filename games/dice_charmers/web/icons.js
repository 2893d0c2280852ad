// The Dice Charmers' icons drawn as SVG: goods, bonuses, buildings, river symbols, palace characters, road shapes,
// die faces, and the labels of bonuses. Every icon function returns a <g> centred on (x, y); `r` is the radius of the
// icon's badge.

import { s as el } from "/ui.js";
import { t } from "/i18n.js";
import { CHARACTERS, GOODS, ROAD_SHAPE_ARMS, bonusLabel, sellRange, sellText } from "./labels.js";

export const text = (x, y, str, attrs) => el("text", { x, y, ...attrs }, String(str));
export const title = (str) => el("title", null, str);

// A small standalone <svg> (for buttons in HTML panels) holding `child` drawn in a size x size box.
export function inlineSvg(size, child, w) {
  const width = w || size;
  return el("svg", { viewBox: `0 0 ${width} ${size}`, width, height: size, class: "inline-icon" }, child);
}

export const COLOURS = {
  palace: "#e07b1a", palaceLight: "#fdebd3",
  market: "#7b4fa0", marketLight: "#efe5f6",
  province: "#4f8a2f", provinceLight: "#e4efd6",
  river: "#2874b2", riverLight: "#d9eaf7",
  fame: "#b3283a", fameLight: "#f6d9dc",
  money: "#c08f12", moneyText: "#7c5a06", moneyLight: "#f8ecc6",
  karma: "#1f9a8a", karmaLight: "#d5f0ec",
  upgrade: "#7a5c43", upgradeLight: "#efe5da",
  ink: "#3b2f25", paper: "#fbf6ea", line: "#cdbd9b",
  road: "#6b4b2a", roadFill: "#e8cf9f",
  tea: "#4d9a2a", silk: "#d0488f", spices: "#d8731f",
};

export const DIR = { N: 1, E: 2, S: 4, W: 8 };
export const DIR_BITS = [1, 2, 4, 8];
// unit vectors of the directions N, E, S, W (SVG y grows downwards)
export const DIR_VEC = { 1: [0, -1], 2: [1, 0], 4: [0, 1], 8: [-1, 0] };

function star(x, y, r, n = 5, inner = 0.55) {
  const pts = [];
  for (let i = 0; i < n * 2; i++) {
    const a = (Math.PI * i) / n - Math.PI / 2;
    const rr = i % 2 ? r * inner : r;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(2)},${(y + rr * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

// ---- goods -------------------------------------------------------------------------------------------

export function goodIcon(good, x, y, r, attrs = {}) {
  const c = COLOURS[good] || "#888";
  const ga = { class: `good good-${good}`, ...attrs };
  const g = [];
  if (good === "tea") {
    // a leaf
    g.push(
      el("path", {
        d: `M${x - r * 0.9},${y + r * 0.55} C${x - r * 0.7},${y - r * 0.9} ${x + r * 0.6},${y - r * 0.95} ${x + r * 0.95},${y - r * 0.75}
            C${x + r * 0.8},${y + r * 0.5} ${x - r * 0.2},${y + r * 0.9} ${x - r * 0.9},${y + r * 0.55} Z`,
        fill: c, stroke: "#2d5e16", "stroke-width": Math.max(0.8, r * 0.1),
      }),
      el("path", {
        d: `M${x - r * 0.75},${y + r * 0.45} Q${x},${y} ${x + r * 0.8},${y - r * 0.65}`,
        fill: "none", stroke: "#e6f4d7", "stroke-width": Math.max(0.6, r * 0.1),
      }),
    );
  } else if (good === "silk") {
    // a bolt of cloth: a diamond with a fold
    g.push(
      el("path", {
        d: `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y} Z`,
        fill: c, stroke: "#7d1f52", "stroke-width": Math.max(0.8, r * 0.1), "stroke-linejoin": "round",
      }),
      el("path", {
        d: `M${x - r * 0.5},${y - r * 0.5} L${x + r * 0.5},${y + r * 0.5}`,
        stroke: "#f7d3e6", "stroke-width": Math.max(0.6, r * 0.12),
      }),
    );
  } else {
    // a heap of spices
    g.push(
      el("path", {
        d: `M${x - r},${y + r * 0.7} Q${x - r * 0.3},${y - r * 1.1} ${x},${y - r * 0.9} Q${x + r * 0.3},${y - r * 1.1} ${x + r},${y + r * 0.7} Z`,
        fill: c, stroke: "#8a420c", "stroke-width": Math.max(0.8, r * 0.1), "stroke-linejoin": "round",
      }),
      el("circle", { cx: x - r * 0.3, cy: y + r * 0.1, r: r * 0.12, fill: "#fbe0c4" }),
      el("circle", { cx: x + r * 0.25, cy: y - r * 0.25, r: r * 0.12, fill: "#fbe0c4" }),
      el("circle", { cx: x + r * 0.35, cy: y + r * 0.35, r: r * 0.12, fill: "#fbe0c4" }),
    );
  }
  return el("g", ga, g);
}

// goods counts [t, s, p] as a row of icons centred on (x, y)
export function goodsRow(counts, x, y, r) {
  const list = [];
  counts.forEach((n, i) => { for (let k = 0; k < n; k++) list.push(GOODS[i]); });
  const ga = { class: "goods-row" };
  const g = [];
  const step = r * 2.1;
  const x0 = x - ((list.length - 1) * step) / 2;
  list.forEach((good, i) => g.push(goodIcon(good, x0 + i * step, y, r)));
  return el("g", ga, g);
}

// ---- river symbols -----------------------------------------------------------------------------------

// An ellipse (centre cx, cy; radii rx, ry) turned by `deg` degrees about (px, py), as a path: a `transform`
// attribute would give each petal a paint property node of its own, which every frame's layerization visits.
function rotatedEllipse(cx, cy, rx, ry, deg, px, py) {
  const a = (deg * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  const turn = (x, y) => [px + (x - px) * c - (y - py) * s, py + (x - px) * s + (y - py) * c];
  const f = (v) => Math.round(v * 100) / 100;
  const [x0, y0] = turn(cx + rx, cy);
  const [x1, y1] = turn(cx - rx, cy);
  return `M${f(x0)},${f(y0)} A${f(rx)},${f(ry)} ${deg} 1 0 ${f(x1)},${f(y1)} A${f(rx)},${f(ry)} ${deg} 1 0 ${f(x0)},${f(y0)} Z`;
}

export function symbolIcon(sym, x, y, r) {
  const ga = { class: `symbol symbol-${sym}` };
  const g = [];
  if (sym === "lotus") {
    for (const [dx, rot] of [[-0.45, -35], [0.45, 35], [0, 0]]) {
      g.push(el("path", {
        d: rotatedEllipse(x + dx * r, y - r * 0.15, r * 0.32, r * 0.75, rot, x + dx * r, y + r * 0.4), fill: dx ? "#f4a6c6" : "#fbd0e2",
        stroke: "#b8447a", "stroke-width": r * 0.08,
      }));
    }
    g.push(el("path", { d: `M${x - r * 0.8},${y + r * 0.6} Q${x},${y + r * 0.95} ${x + r * 0.8},${y + r * 0.6}`, fill: "none", stroke: "#3d8a3d", "stroke-width": r * 0.14 }));
  } else if (sym === "flag") {
    g.push(
      el("line", { x1: x - r * 0.55, y1: y - r * 0.9, x2: x - r * 0.55, y2: y + r * 0.9, stroke: "#5a3d1e", "stroke-width": r * 0.14, "stroke-linecap": "round" }),
      el("path", { d: `M${x - r * 0.5},${y - r * 0.85} L${x + r * 0.85},${y - r * 0.45} L${x - r * 0.5},${y - r * 0.05} Z`, fill: "#d8342c", stroke: "#8c1b16", "stroke-width": r * 0.08, "stroke-linejoin": "round" }),
    );
  } else if (sym === "fish") {
    g.push(
      el("path", { d: `M${x - r * 0.55},${y} C${x - r * 0.2},${y - r * 0.7} ${x + r * 0.6},${y - r * 0.6} ${x + r * 0.85},${y} C${x + r * 0.6},${y + r * 0.6} ${x - r * 0.2},${y + r * 0.7} ${x - r * 0.55},${y} Z`, fill: "#f0b43c", stroke: "#8a5a0a", "stroke-width": r * 0.08 }),
      el("path", { d: `M${x - r * 0.45},${y} L${x - r * 0.95},${y - r * 0.45} L${x - r * 0.95},${y + r * 0.45} Z`, fill: "#f0b43c", stroke: "#8a5a0a", "stroke-width": r * 0.08, "stroke-linejoin": "round" }),
      el("circle", { cx: x + r * 0.45, cy: y - r * 0.12, r: r * 0.09, fill: "#3b2f25" }),
    );
  } else {
    g.push(text(x, y + r * 0.35, String(sym).slice(0, 2), { "font-size": r, "text-anchor": "middle", fill: COLOURS.river, "font-weight": 700 }));
  }
  return el("g", ga, g);
}

// ---- palace characters --------------------------------------------------------------------------------

export function characterIcon(ch, x, y, r, lang, attrs = {}) {
  const ga = { class: `character character-${ch}`, ...attrs };
  const g = [];
  g.push(
    el("circle", { cx: x, cy: y, r, fill: COLOURS.palace, stroke: "#8f4708", "stroke-width": r * 0.08 }),
    // a small turban on top marks a person
    el("path", { d: `M${x - r * 0.55},${y - r * 0.5} Q${x},${y - r * 1.15} ${x + r * 0.55},${y - r * 0.5} Z`, fill: "#fff3e2", "fill-opacity": 0.9 }),
    text(x, y + r * 0.42, t(`${ch}_short`, lang), { "font-size": r * 0.95, "text-anchor": "middle", fill: "#fff", "font-weight": 800 }),
    title(t(ch, lang)),
  );
  return el("g", ga, g);
}

// ---- roads --------------------------------------------------------------------------------------------

// A road drawn as arms from (x, y) to the edges of a space of half-size h.
export function roadArms(arms, x, y, h, opts = {}) {
  const w = opts.width || h * 0.34;
  const ga = { class: opts.cls || "road" };
  const g = [];
  const outer = opts.outer || COLOURS.road;
  const inner = opts.inner || COLOURS.roadFill;
  const lines = [];
  for (const bit of DIR_BITS) {
    if (!(arms & bit)) continue;
    const [dx, dy] = DIR_VEC[bit];
    lines.push([x + dx * h, y + dy * h]);
  }
  for (const [x2, y2] of lines) g.push(el("line", { x1: x, y1: y, x2, y2, stroke: outer, "stroke-width": w, "stroke-linecap": opts.cap || "butt" }));
  if (lines.length) g.push(el("circle", { cx: x, cy: y, r: w / 2, fill: outer }));
  for (const [x2, y2] of lines) g.push(el("line", { x1: x, y1: y, x2, y2, stroke: inner, "stroke-width": w * 0.45, "stroke-dasharray": opts.dash || null }));
  if (lines.length) g.push(el("circle", { cx: x, cy: y, r: w * 0.225, fill: inner }));
  return el("g", ga, g);
}

// One half-road: a peg from a round end at (x, y) running `len` to the right.
export function halfPeg(x, y, len, w, colour = COLOURS.road, inner = null) {
  const ga = { class: "half-peg" };
  const g = [];
  g.push(el("line", { x1: x, y1: y, x2: x + len, y2: y, stroke: colour, "stroke-width": w }));
  g.push(el("circle", { cx: x, cy: y, r: w * 0.85, fill: colour }));
  if (inner) g.push(el("line", { x1: x, y1: y, x2: x + len, y2: y, stroke: inner, "stroke-width": w * 0.45 }));
  return el("g", ga, g);
}

// ---- bonuses ------------------------------------------------------------------------------------------

function badge(x, y, r, fill, stroke) {
  return el("circle", { cx: x, cy: y, r, fill, stroke: stroke || "rgba(0,0,0,0.35)", "stroke-width": Math.max(0.8, r * 0.09) });
}

const ARROW = (x, y, r, dir) => {
  // a white arrow pointing right (dir 1) or left (dir -1)
  const s = dir;
  return el("path", {
    d: `M${x - s * r * 0.55},${y} L${x + s * r * 0.45},${y} M${x + s * r * 0.1},${y - r * 0.35} L${x + s * r * 0.5},${y} L${x + s * r * 0.1},${y + r * 0.35}`,
    fill: "none", stroke: "#fff", "stroke-width": r * 0.2, "stroke-linecap": "round", "stroke-linejoin": "round",
  });
};

const WAVE = (x, y, r) => el("path", {
  d: `M${x - r * 0.6},${y} q${r * 0.15},-${r * 0.2} ${r * 0.3},0 t${r * 0.3},0 t${r * 0.3},0 t${r * 0.3},0`,
  fill: "none", stroke: "#bfe0f7", "stroke-width": r * 0.13, "stroke-linecap": "round",
});

// `b`: a bonus of the sheet file ({kind, amount, character, ...}) or effectBonus(...) of an engine effect.
export function bonusIcon(b, x, y, r, lang, extra = {}) {
  const ga = { class: `bonus bonus-${b.kind}`, ...extra };
  const g = [];
  const fs = r * 1.05;
  const white = { "text-anchor": "middle", fill: "#fff", "font-weight": 800 };
  switch (b.kind) {
    case "fame":
      g.push(
        el("polygon", { points: star(x, y, r * 1.18, 5, 0.62), fill: COLOURS.fame, stroke: "#6e1220", "stroke-width": r * 0.08, "stroke-linejoin": "round" }),
        text(x, y + fs * 0.4, b.amount, { ...white, "font-size": fs * 0.95 }),
      );
      break;
    case "money":
      g.push(
        badge(x, y, r, "#e9b836", "#7c5a06"),
        el("circle", { cx: x, cy: y, r: r * 0.78, fill: "none", stroke: "#7c5a06", "stroke-width": r * 0.07 }),
        text(x, y + fs * 0.37, b.amount, { "text-anchor": "middle", fill: "#5a3f00", "font-weight": 800, "font-size": fs }),
      );
      break;
    case "karma": {
      g.push(badge(x, y, r, COLOURS.karma));
      g.push(el("circle", { cx: x, cy: y, r: r * 0.5, fill: "none", stroke: "#fff", "stroke-width": r * 0.13 }));
      // the eight spokes as one path (a sheet shows a dozen wheels: one node each instead of eight)
      const f = (v) => Math.round(v * 100) / 100;
      const spokes = Array.from({ length: 8 }, (_, i) => {
        const a = (Math.PI * i) / 4;
        return `M${f(x + Math.cos(a) * r * 0.15)},${f(y + Math.sin(a) * r * 0.15)} L${f(x + Math.cos(a) * r * 0.72)},${f(y + Math.sin(a) * r * 0.72)}`;
      }).join(" ");
      g.push(el("path", { d: spokes, fill: "none", stroke: "#fff", "stroke-width": r * 0.1 }));
      if (b.amount > 1) g.push(text(x + r * 0.9, y - r * 0.6, b.amount, { "font-size": r * 0.8, fill: COLOURS.karma, "font-weight": 800 }));
      break;
    }
    case "palace":
      g.push(characterIcon(b.character, x, y, r, lang));
      break;
    case "character_action":
      g.push(characterIcon(b.character, x, y, r, lang));
      break;
    case "palace_any":
      g.push(
        badge(x, y, r, COLOURS.palace, "#8f4708"),
        el("path", { d: `M${x - r * 0.55},${y - r * 0.5} Q${x},${y - r * 1.15} ${x + r * 0.55},${y - r * 0.5} Z`, fill: "#fff3e2", "fill-opacity": 0.9 }),
        text(x, y + fs * 0.42, "?", { ...white, "font-size": fs * 1.05 }),
      );
      break;
    case "upgrade":
      g.push(
        badge(x, y, r, COLOURS.upgrade),
        el("path", { d: `M${x - r * 0.5},${y + r * 0.55} L${x - r * 0.5},${y - r * 0.05} L${x},${y - r * 0.5} L${x + r * 0.5},${y - r * 0.05} L${x + r * 0.5},${y + r * 0.55} Z`, fill: "none", stroke: "#fff", "stroke-width": r * 0.13, "stroke-linejoin": "round" }),
        el("path", { d: `M${x},${y + r * 0.4} L${x},${y - r * 0.05} M${x - r * 0.2},${y + r * 0.12} L${x},${y - r * 0.1} L${x + r * 0.2},${y + r * 0.12}`, fill: "none", stroke: "#fff", "stroke-width": r * 0.12, "stroke-linecap": "round" }),
      );
      break;
    case "goods": {
      const counts = b.counts || GOODS.map((gd) => (b.goods || []).filter((x2) => x2 === gd).length);
      g.push(badge(x, y, r, COLOURS.marketLight, COLOURS.market), goodsRow(counts, x, y, r * 0.4));
      break;
    }
    case "goods_die":
      g.push(
        el("rect", { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, rx: r * 0.35, fill: COLOURS.market, stroke: "#3f2158", "stroke-width": r * 0.08 }),
        goodIcon("tea", x - r * 0.38, y - r * 0.32, r * 0.32),
        goodIcon("spices", x + r * 0.38, y + r * 0.32, r * 0.32),
      );
      break;
    case "goods_choice":
      g.push(
        badge(x, y, r, COLOURS.market, "#3f2158"),
        text(x, y + fs * 0.12, b.count, { ...white, "font-size": fs * 0.85 }),
        goodIcon("tea", x - r * 0.45, y + r * 0.5, r * 0.22),
        goodIcon("silk", x, y + r * 0.58, r * 0.22),
        goodIcon("spices", x + r * 0.45, y + r * 0.5, r * 0.22),
      );
      break;
    case "sell": {
      const sign = { any: "", same: "=", different: "≠", same_or_different: "=≠" }[b.mode] || "";
      const range = sellRange(b);
      const count = sellText(range);
      ga["data-sell"] = range.lo === range.hi ? "exact" : "range";
      ga["data-count"] = count;
      g.push(
        badge(x, y, r, COLOURS.market, "#3f2158"),
        el("circle", { cx: x + r * 0.62, cy: y - r * 0.62, r: r * 0.36, fill: "#e9b836", stroke: "#7c5a06", "stroke-width": r * 0.07 }),
        // a range ("1-2") is printed smaller than an exact count so that both fit the badge
        text(x - r * 0.05, y + fs * 0.05, count, { ...white, "font-size": fs * (count.length > 1 ? 0.6 : 0.85) }),
        sign ? text(x, y + r * 0.72, sign, { ...white, "font-size": fs * 0.55 }) : null,
        el("path", { d: `M${x - r * 0.55},${y - r * 0.55} l${r * 0.35},0`, stroke: "#fff", "stroke-width": r * 0.12 }),
      );
      break;
    }
    case "half_road":
      g.push(badge(x, y, r, COLOURS.province, "#24470f"),
        el("line", { x1: x - r * 0.8, y1: y, x2: x - r * 0.1, y2: y, stroke: "#fff", "stroke-width": r * 0.12, "stroke-dasharray": `${r * 0.18} ${r * 0.14}`, "stroke-opacity": 0.8 }),
        halfPeg(x - r * 0.05, y, r * 0.95, r * 0.32, "#fff"));
      break;
    case "half_roads":
      g.push(badge(x, y, r, COLOURS.province, "#24470f"), halfPeg(x - r * 0.45, y - r * 0.32, r * 0.95, r * 0.24, "#fff"), halfPeg(x - r * 0.45, y + r * 0.32, r * 0.95, r * 0.24, "#fff"));
      break;
    case "road": {
      // the printed shape; a bonus of any shape shows the three choices as a fork with a "?"
      const shape = b.shape || "any";
      ga["data-shape"] = shape;
      g.push(badge(x, y, r, COLOURS.province, "#24470f"));
      if (shape === "any") {
        g.push(roadArms(14, x - r * 0.12, y + r * 0.12, r * 0.62, { width: r * 0.28, outer: "#fff", inner: "#fff" }),
          text(x + r * 0.5, y - r * 0.2, "?", { ...white, "font-size": fs * 0.7 }));
      } else {
        g.push(roadArms(ROAD_SHAPE_ARMS[shape] || 15, x, y, r * 0.72, { width: r * 0.3, outer: "#fff", inner: "#fff" }));
      }
      break;
    }
    case "road_shapes": {
      const arms = b.shapes & 2 ? 6 : b.shapes & 4 ? 14 : b.shapes & 8 ? 15 : 5;
      const off = arms === 6 ? r * 0.1 : 0;
      g.push(badge(x, y, r, COLOURS.province, "#24470f"), roadArms(arms, x - off, y - off, r * 0.72, { width: r * 0.3, outer: "#fff", inner: "#fff" }));
      break;
    }
    case "river_forward":
      g.push(badge(x, y, r, COLOURS.river, "#123f66"), WAVE(x, y + r * 0.45, r), ARROW(x, y - r * 0.1, r, 1));
      break;
    case "river_back":
      g.push(badge(x, y, r, COLOURS.river, "#123f66"), WAVE(x, y + r * 0.45, r), ARROW(x, y - r * 0.1, r, -1));
      break;
    case "river_back_choice":
      g.push(badge(x, y, r, COLOURS.river, "#123f66"), WAVE(x, y + r * 0.5, r), ARROW(x - r * 0.15, y - r * 0.12, r * 0.85, -1),
        text(x + r * 0.55, y + r * 0.05, "?", { ...white, "font-size": fs * 0.7 }));
      break;
    case "river_symbol":
      g.push(badge(x, y, r, COLOURS.riverLight, COLOURS.river));
      break;
    default:
      g.push(badge(x, y, r, "#999"), text(x, y + fs * 0.35, "★", { ...white, "font-size": fs }));
  }
  g.push(title(bonusLabel(b, lang)));
  return el("g", ga, g);
}

// A cross over something (a used/taken mark), centred on (x, y), half-size s.
export function crossMark(x, y, s, colour = "#3b2f25", w) {
  return el("path", {
    class: "cross", d: `M${x - s},${y - s} L${x + s},${y + s} M${x + s},${y - s} L${x - s},${y + s}`,
    stroke: colour, "stroke-width": w || Math.max(1.5, s * 0.28), "stroke-linecap": "round", fill: "none",
  });
}

export function circleMark(x, y, r, colour = "#3b2f25", w) {
  return el("circle", { class: "circled", cx: x, cy: y, r, fill: "none", stroke: colour, "stroke-width": w || Math.max(1.5, r * 0.14) });
}

// ---- province spaces ------------------------------------------------------------------------------------

export function buildingIcon(kind, x, y, s, lang) {
  // s: half-size of the icon box
  const ga = { class: `building building-${kind}` };
  const g = [];
  const ink = "#5b4330";
  const wall = "#f1dfbd";
  const sw = s * 0.09;
  if (kind === "temple") {
    g.push(
      el("rect", { x: x - s * 0.75, y: y - s * 0.1, width: s * 1.5, height: s * 0.95, fill: wall, stroke: ink, "stroke-width": sw }),
      el("path", { d: `M${x - s * 0.6},${y - s * 0.1} Q${x - s * 0.6},${y - s * 0.8} ${x},${y - s * 0.85} Q${x + s * 0.6},${y - s * 0.8} ${x + s * 0.6},${y - s * 0.1} Z`, fill: "#e7a83c", stroke: ink, "stroke-width": sw }),
      el("line", { x1: x, y1: y - s * 0.85, x2: x, y2: y - s * 1.05, stroke: ink, "stroke-width": sw }),
      el("rect", { x: x - s * 0.17, y: y + s * 0.3, width: s * 0.34, height: s * 0.55, fill: ink }),
    );
  } else if (kind === "fort") {
    const top = y - s * 0.55;
    let d = `M${x - s * 0.85},${y + s * 0.85} L${x - s * 0.85},${top}`;
    const n = 4;
    const w = (s * 1.7) / (n * 2 - 1);
    for (let i = 0; i < n * 2 - 1; i++) {
      const xx = x - s * 0.85 + w * (i + 1);
      d += i % 2 === 0 ? ` L${x - s * 0.85 + w * i + w},${top} L${xx},${top + s * 0.25}` : ` L${xx},${top + s * 0.25} L${xx},${top}`;
    }
    d += ` L${x + s * 0.85},${top} L${x + s * 0.85},${y + s * 0.85} Z`;
    g.push(
      el("path", { d, fill: "#d9c39a", stroke: ink, "stroke-width": sw, "stroke-linejoin": "round" }),
      el("path", { d: `M${x - s * 0.25},${y + s * 0.85} L${x - s * 0.25},${y + s * 0.3} Q${x},${y} ${x + s * 0.25},${y + s * 0.3} L${x + s * 0.25},${y + s * 0.85} Z`, fill: ink }),
    );
  } else if (kind === "tower") {
    g.push(
      el("rect", { x: x - s * 0.35, y: y - s * 0.45, width: s * 0.7, height: s * 1.3, fill: wall, stroke: ink, "stroke-width": sw }),
      el("path", { d: `M${x - s * 0.5},${y - s * 0.45} L${x},${y - s * 1.05} L${x + s * 0.5},${y - s * 0.45} Z`, fill: "#c0532d", stroke: ink, "stroke-width": sw, "stroke-linejoin": "round" }),
      el("rect", { x: x - s * 0.1, y: y - s * 0.2, width: s * 0.2, height: s * 0.3, fill: ink }),
      el("rect", { x: x - s * 0.1, y: y + s * 0.35, width: s * 0.2, height: s * 0.3, fill: ink }),
    );
  } else if (kind === "well") {
    g.push(
      el("path", { d: `M${x - s * 0.65},${y - s * 0.55} L${x - s * 0.65},${y + s * 0.3} M${x + s * 0.65},${y - s * 0.55} L${x + s * 0.65},${y + s * 0.3} M${x - s * 0.8},${y - s * 0.55} L${x + s * 0.8},${y - s * 0.55}`, stroke: ink, "stroke-width": sw * 1.3, fill: "none" }),
      el("ellipse", { cx: x, cy: y + s * 0.35, rx: s * 0.8, ry: s * 0.25, fill: "#7fb7df", stroke: ink, "stroke-width": sw }),
      el("path", { d: `M${x - s * 0.8},${y + s * 0.35} L${x - s * 0.8},${y + s * 0.75} Q${x},${y + s * 1.05} ${x + s * 0.8},${y + s * 0.75} L${x + s * 0.8},${y + s * 0.35}`, fill: "#c9b08a", stroke: ink, "stroke-width": sw }),
      el("line", { x1: x, y1: y - s * 0.55, x2: x, y2: y + s * 0.05, stroke: ink, "stroke-width": sw * 0.7 }),
      el("rect", { x: x - s * 0.13, y: y + s * 0.02, width: s * 0.26, height: s * 0.2, fill: ink }),
    );
  } else {
    g.push(
      el("rect", { x: x - s * 0.7, y: y - s * 0.2, width: s * 1.4, height: s * 1.0, fill: wall, stroke: ink, "stroke-width": sw }),
      el("path", { d: `M${x - s * 0.85},${y - s * 0.2} L${x},${y - s * 0.9} L${x + s * 0.85},${y - s * 0.2} Z`, fill: "#b5835a", stroke: ink, "stroke-width": sw }),
      text(x, y + s * 0.55, String(kind).slice(0, 2), { "font-size": s * 0.6, "text-anchor": "middle", fill: ink, "font-weight": 700 }),
    );
  }
  g.push(title(t(kind, lang)));
  return el("g", ga, g);
}

export function marketIcon(kind, x, y, s, lang) {
  const ga = { class: `market-space market-${kind}` };
  const g = [];
  g.push(
    el("path", { d: `M${x - s * 0.95},${y + s * 0.2} L${x},${y - s * 0.85} L${x + s * 0.95},${y + s * 0.2} Z`, fill: COLOURS.market, stroke: "#3f2158", "stroke-width": s * 0.08, "stroke-linejoin": "round" }),
    el("rect", { x: x - s * 0.75, y: y + s * 0.2, width: s * 1.5, height: s * 0.7, fill: "#f4ecf9", stroke: "#3f2158", "stroke-width": s * 0.08 }),
    text(x, y + s * 0.75, kind === "same" ? "=" : "≠", { "font-size": s * 0.7, "text-anchor": "middle", fill: COLOURS.market, "font-weight": 800 }),
    text(x, y - s * 0.05, "1-3", { "font-size": s * 0.38, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }),
    title(t(`market_${kind}`, lang)),
  );
  return el("g", ga, g);
}

export function residenceIcon(x, y, s, lang) {
  const ga = { class: "residence" };
  const g = [];
  const ink = "#5b4330";
  g.push(
    el("rect", { x: x - s * 0.9, y: y - s * 0.15, width: s * 1.8, height: s * 0.95, fill: "#fbe7b5", stroke: ink, "stroke-width": s * 0.07 }),
    el("path", { d: `M${x - s * 0.45},${y - s * 0.15} Q${x - s * 0.45},${y - s * 0.8} ${x},${y - s * 0.85} Q${x + s * 0.45},${y - s * 0.8} ${x + s * 0.45},${y - s * 0.15} Z`, fill: "#e2a23a", stroke: ink, "stroke-width": s * 0.07 }),
    el("path", { d: `M${x - s * 0.9},${y - s * 0.15} L${x - s * 0.9},${y - s * 0.55} L${x - s * 0.7},${y - s * 0.7} L${x - s * 0.5},${y - s * 0.55} L${x - s * 0.5},${y - s * 0.15}`, fill: "#e2a23a", stroke: ink, "stroke-width": s * 0.07 }),
    el("path", { d: `M${x + s * 0.9},${y - s * 0.15} L${x + s * 0.9},${y - s * 0.55} L${x + s * 0.7},${y - s * 0.7} L${x + s * 0.5},${y - s * 0.55} L${x + s * 0.5},${y - s * 0.15}`, fill: "#e2a23a", stroke: ink, "stroke-width": s * 0.07 }),
    el("line", { x1: x, y1: y - s * 0.85, x2: x, y2: y - s * 1.15, stroke: ink, "stroke-width": s * 0.06 }),
    el("path", { d: `M${x},${y - s * 1.15} L${x + s * 0.3},${y - s * 1.05} L${x},${y - s * 0.95} Z`, fill: COLOURS.fame }),
    el("path", { d: `M${x - s * 0.18},${y + s * 0.8} L${x - s * 0.18},${y + s * 0.35} Q${x},${y + s * 0.15} ${x + s * 0.18},${y + s * 0.35} L${x + s * 0.18},${y + s * 0.8} Z`, fill: ink }),
    title(t("residence", lang)),
  );
  return el("g", ga, g);
}

// A die face as a rounded square (x, y: centre; s: half-size).
export function dieFace(colour, face, x, y, s, lang) {
  const fill = { purple: COLOURS.market, green: COLOURS.province, blue: COLOURS.river, orange: COLOURS.palace }[colour] || "#888";
  const ga = { class: `die die-${colour}` };
  const g = [];
  g.push(el("rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s, rx: s * 0.28, fill, stroke: "rgba(0,0,0,0.45)", "stroke-width": s * 0.06 }));
  g.push(el("rect", { x: x - s * 0.8, y: y - s * 0.8, width: 1.6 * s, height: 1.6 * s, rx: s * 0.2, fill: "#fffaf0", "fill-opacity": 0.95 }));
  let label = "";
  if (colour === "purple") {
    g.push(goodIcon(face[0], x - s * 0.36, y - s * 0.3, s * 0.34), goodIcon(face[1], x + s * 0.36, y + s * 0.3, s * 0.34));
    label = face.map((f) => t(f, lang)).join(" + ");
  } else if (colour === "green") {
    if (face === "bend") g.push(roadArms(6, x - s * 0.1, y - s * 0.1, s * 0.8, { width: s * 0.36 }));
    else if (face === "straight") g.push(roadArms(5, x, y, s * 0.8, { width: s * 0.36 }));
    else {
      g.push(halfPeg(x - s * 0.5, y - s * 0.34, s * 1.15, s * 0.3, COLOURS.road, COLOURS.roadFill), halfPeg(x - s * 0.5, y + s * 0.34, s * 1.15, s * 0.3, COLOURS.road, COLOURS.roadFill));
    }
    label = t(face, lang);
  } else if (colour === "blue") {
    g.push(symbolIcon(face, x, y, s * 0.7));
    label = t(face, lang);
  } else {
    g.push(characterIcon(face, x, y + s * 0.05, s * 0.66, lang));
    label = t(face, lang);
  }
  g.push(title(label));
  return el("g", ga, g);
}

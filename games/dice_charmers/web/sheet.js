// One player's sheet drawn as SVG: the tracks, the province, karma, upgrades, the river, the market and the palace.
//
//   h(Sheet, {sheet, player, lang, compact, name, colour, active, layer, onClick})
//       sheet:  the sheet file as plain data (Sheet.to_json(), games/dice_charmers/engine/sheets/*.json)
//       player: PlayerState.to_dict()
//       compact: a small sheet (beside the own) leaves out the printed icons too small to read there (bonuses,
//                buildings, symbols) and keeps every mark
//       layer:  the legal options drawn over the sheet (choices.js), when the player chooses on it
//
// Each area is a component drawn again only when what it reads of the player changed (AREAS), and within the
// areas the track spaces and the other parts are kept the same way: an update re-creates and restyles only the
// parts it changed. layout(sheet) says where everything lies, for the drawing and for the options over it.

import { h, s as el, Component, kept } from "/ui.js";
import { t } from "/i18n.js";
import { overlap, overlapWords, trackPosition } from "./tracks.js";
import {
  COLOURS, text, title, bonusIcon, goodIcon, symbolIcon, characterIcon, roadArms, crossMark, circleMark, buildingIcon, marketIcon, residenceIcon,
} from "./icons.js";
import { CHARACTERS, GOODS } from "./labels.js";

export const W = 1000;
export const H = 990;
const TRACK_COLS = 16; // spaces along the bottom edge, corners included
const SX = W / TRACK_COLS; // width of a track space
const INNER = { x0: SX + 10, x1: W - SX - 10 };
const RIGHT = 585; // left edge of the right column (karma, upgrades, palace)

// ---- geometry -------------------------------------------------------------------------------------------

// The track runs down the left edge, along the bottom and up the right edge: fame starts top left,
// money top right. Returns per path index {x, y, w, h, side}.
function trackCells(n) {
  const bottom = TRACK_COLS - 2;
  const left = Math.ceil((n - bottom) / 2);
  const right = n - bottom - left;
  const cells = [];
  const sy = H / left;
  for (let i = 0; i < left; i++) cells.push({ x: 0, y: i * sy, w: SX, h: sy, side: "W" });
  for (let c = 1; c <= bottom; c++) cells.push({ x: c * SX, y: H - sy, w: SX, h: sy, side: "S" });
  const rs = H / right;
  for (let k = 0; k < right; k++) cells.push({ x: W - SX, y: H - rs * (k + 1), w: SX, h: rs, side: "E" });
  return cells;
}

// The outer lane of a track space holds fame, the inner lane money.
function lane(cell, which) {
  const outer = which === "fame";
  if (cell.side === "S") {
    const h2 = cell.h / 2;
    return { x: cell.x, y: outer ? cell.y + h2 : cell.y, w: cell.w, h: h2, horizontal: true };
  }
  const w = cell.w / 2;
  const left = (cell.side === "W") === outer;
  return { x: left ? cell.x : cell.x + w, y: cell.y, w, h: cell.h, horizontal: false };
}

function centre(r) {
  return [r.x + r.w / 2, r.y + r.h / 2];
}

const layouts = new WeakMap();

// Where each part of a sheet lies (the same for every player of a sheet file): computed once per file.
export function layout(sheet) {
  let L = layouts.get(sheet);
  if (L) return L;
  const cells = sheet.province.cells;
  const rows = cells.length;
  const cols = cells[0].length;
  const eb = 36;
  const cs = Math.min(86, (480 - 2 * eb) / cols, (400 - 2 * eb) / rows);
  const px = INNER.x0;
  const py = 30;
  const upRow = 36;
  const upTop = 218 + 24;
  const river = { x0: INNER.x0, y0: 462, width: INNER.x1 - INNER.x0 };
  river.step = river.width / sheet.river.spaces.length;
  river.top = river.y0 + 14;
  river.h = 104;
  const palace = { x0: RIGHT, y0: 610, rowH: 32, colX: (j) => RIGHT + 206 + j * 44, rows: {}, areas: [] };
  let y = palace.y0 + 10;
  for (const area of sheet.palace.areas) {
    const height = area.characters.length * palace.rowH + 44;
    palace.areas.push({ y, h: height });
    area.characters.forEach((ch, ri) => { palace.rows[CHARACTERS.indexOf(ch)] = { y: y + 6 + ri * palace.rowH }; });
    y += height + 10;
  }
  L = {
    track: trackCells(sheet.tracks.fame.values.length),
    province: { px, py, eb, cs, rows, cols, gx: px + eb, gy: py + eb },
    karma: { x0: RIGHT, y0: 120, step: Math.min(52, 330 / sheet.karma.spaces) },
    upgrades: { x0: RIGHT, y0: 218, top: upTop, rowH: upRow, colX: (j) => RIGHT + 180 + j * 50 },
    river,
    palace,
  };
  layouts.set(sheet, L);
  return L;
}

// ---- the sheet ------------------------------------------------------------------------------------------

// What each area of the sheet reads of the player ($: of the sheet's props): an area is drawn again only when one
// of these changed. A drawing function that reads more must say so here.
const AREAS = [
  ["tracks", drawTracks, ["fame", "money"]],
  ["header", drawHeader, ["fame", "money", "$name", "$colour"]],
  ["province", drawProvince, ["roads", "edges_taken"]],
  ["karma", drawKarma, ["karma_gained", "karma_used"]],
  ["upgrades", drawUpgrades, ["levels"]],
  ["river", drawRiver, ["river"]],
  ["market", drawMarket, ["circled", "sold"]],
  ["palace", drawPalace, ["palace"]],
];

function areaKey(reads, props) {
  return JSON.stringify(reads.map((f) => (f[0] === "$" ? props[f.slice(1)] : props.player[f])));
}

class Area extends Component {
  shouldComponentUpdate(next) {
    return next.k !== this.props.k;
  }

  render({ name, draw, props }) {
    const { attrs, children } = draw(props.sheet, props.player, props);
    return el("g", { ...attrs, "data-area": name }, children);
  }
}

export class Sheet extends Component {
  shouldComponentUpdate(p) {
    const o = this.props;
    return p.player !== o.player || p.name !== o.name || p.colour !== o.colour || p.active !== o.active || p.layer !== o.layer
      || p.lang !== o.lang || p.sheet !== o.sheet || p.compact !== o.compact;
  }

  render(p) {
    const { sheet, compact } = p;
    return el("svg", {
      viewBox: `0 0 ${W} ${H}`,
      class: `sheet${compact ? " compact" : ""}${p.active ? " active" : ""}`,
      // a picture holds no controls: with options on it the sheet is a group of them (for screen readers)
      role: p.layer ? "group" : "img",
      "aria-label": `${p.name || ""} ${t("province", p.lang)}`.trim(),
      "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      onClick: p.onClick,
    },
    kept("bg", "", () => el("rect", { x: 0, y: 0, width: W, height: H, rx: 18, fill: COLOURS.paper, class: "sheet-bg" })),
    AREAS.map(([name, draw, reads]) => h(Area, { key: name, name, draw, props: p, k: areaKey(reads, p) })),
    el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 18, fill: "none", stroke: p.colour || COLOURS.line, "stroke-width": p.colour ? 6 : 3, class: "sheet-border" }),
    p.layer || null);
  }
}

function sectionTitle(x, y, label, colour, compact) {
  if (compact) return null;
  return text(x, y, label, { class: "area-title", fill: colour, "font-size": 17, "font-weight": 800, "letter-spacing": 0.5 });
}

// ---- the areas ------------------------------------------------------------------------------------------

function drawTracks(sheet, player, { lang, compact }) {
  const fameVals = sheet.tracks.fame.values;
  const moneyVals = sheet.tracks.money.values;
  const n = fameVals.length;
  const last = n - 1;
  const cells = layout(sheet).track;
  const fpos = trackPosition(fameVals, player.fame);
  const mpos = trackPosition(moneyVals, player.money);
  const fameBonus = new Map(sheet.tracks.fame.bonuses.map((b) => [b.at, b.bonus]));
  const moneyBonus = new Map(sheet.tracks.money.bonuses.map((b) => [b.at, b.bonus]));
  const reachedAt = (idx, pos) => idx <= Math.floor(pos + 1e-9);
  const kids = [];
  // A space whose lanes are reached and whose bonuses are taken as before is kept as it is: a move of fame or
  // money draws again only the spaces it passed.
  for (let i = 0; i < n; i++) {
    const mi = last - i;
    const k = `${reachedAt(i, fpos)}|${reachedAt(mi, mpos)}|${player.fame >= fameVals[i]}|${player.money >= moneyVals[mi]}`;
    kids.push(kept(`track${i}`, k, () => trackSpace(i)));
  }
  function trackSpace(i) {
    const cell = cells[i];
    const mi = last - i; // index on the money track
    const parts = [el("rect", { x: cell.x, y: cell.y, width: cell.w, height: cell.h, fill: "#f3e7cc", stroke: COLOURS.line, "stroke-width": 1.2 })];
    for (const [which, idx, vals, bonuses, pos, light, txt] of [
      ["fame", i, fameVals, fameBonus, fpos, COLOURS.fameLight, COLOURS.fame],
      ["money", mi, moneyVals, moneyBonus, mpos, COLOURS.moneyLight, COLOURS.moneyText],
    ]) {
      const r = lane(cell, which);
      // a lane not reached yet is left empty (no node): most of a track is, for most of the game
      if (reachedAt(idx, pos)) parts.push(el("rect", { x: r.x + 1, y: r.y + 1, width: r.w - 2, height: r.h - 2, fill: light, class: `lane lane-${which} reached` }));
      const v = vals[idx];
      const b = bonuses.get(v);
      const [cx, cy] = centre(r);
      const tx = r.horizontal ? (b ? r.x + r.w * 0.3 : cx) : cx;
      const ty = r.horizontal ? cy + 5 : (b ? r.y + r.h * 0.28 + 5 : cy + 5);
      if (!compact || v % 10 === 0) {
        parts.push(text(tx, ty, v, { "font-size": r.horizontal ? 15 : 14, "text-anchor": "middle", fill: txt, "font-weight": v % 5 === 0 ? 800 : 500, class: `track-value ${which}-value` }));
      }
      if (b && !compact) {
        const bx = r.horizontal ? r.x + r.w * 0.72 : cx;
        const by = r.horizontal ? cy : r.y + r.h * 0.7;
        const taken = (which === "fame" ? player.fame : player.money) >= v;
        parts.push(bonusIcon(b, bx, by, 10.5, lang, { class: `bonus bonus-${b.kind} track-bonus ${which}-bonus${taken ? " taken" : ""}` }));
        if (taken) parts.push(crossMark(bx, by, 8, COLOURS.ink, 2.2));
      }
    }
    return el("g", { class: "track-space", "data-index": i }, parts);
  }
  // the start of each track
  for (const [which, idx, colour] of [["fame", 0, COLOURS.fame], ["money", last, COLOURS.money]]) {
    const r = lane(cells[idx], which);
    kids.push(kept(`start-${which}`, "", () => el("rect", { x: r.x + 1, y: r.y + 1, width: r.w - 2, height: r.h - 2, fill: "none", stroke: colour, "stroke-width": 3, class: `track-start ${which}-start` })));
  }
  // where each total stands (possibly between two spaces)
  for (const [which, pos, colour, value] of [["fame", fpos, COLOURS.fame, player.fame], ["money", mpos, COLOURS.money, player.money]]) {
    const p = Math.min(pos, last);
    const a = Math.floor(p);
    const b = Math.min(last, a + 1);
    const f = p - a;
    const [ax, ay] = centre(lane(cells[which === "fame" ? a : last - a], which));
    const [bx, by] = centre(lane(cells[which === "fame" ? b : last - b], which));
    const x = ax + (bx - ax) * f;
    const y = ay + (by - ay) * f;
    kids.push(el("g", { key: `marker-${which}`, class: `track-marker ${which}-marker`, "data-value": value, "data-position": pos.toFixed(3) },
      el("circle", { cx: x, cy: y, r: 15, fill: colour, stroke: "#fff", "stroke-width": 3 }),
      text(x, y + 5, value, { "font-size": value >= 100 ? 11 : 14, "text-anchor": "middle", fill: "#fff", "font-weight": 800 }),
      title(`${t(which, lang)}: ${value}`)));
  }
  return { attrs: { class: "tracks" }, children: kids };
}

function drawHeader(sheet, player, { lang, compact, name, colour }) {
  const x0 = RIGHT;
  const y = 84;
  const kids = [text(x0, 46, name || sheet.title, { "font-size": compact ? 44 : 30, "font-weight": 800, fill: colour || COLOURS.ink, class: "player-name" })];
  if (compact) {
    kids.push(bonusIcon({ kind: "fame", amount: player.fame }, x0 + 26, y + 8, 24, lang), bonusIcon({ kind: "money", amount: player.money }, x0 + 100, y + 8, 24, lang));
    return { attrs: { class: "header" }, children: kids };
  }
  const ov = overlap(sheet, player);
  const crossed = ov >= 0;
  kids.push(
    bonusIcon({ kind: "fame", amount: player.fame }, x0 + 14, y, 14, lang),
    text(x0 + 34, y + 7, t("fame", lang), { "font-size": 19, fill: COLOURS.fame, "font-weight": 700, class: "label-fame" }),
    bonusIcon({ kind: "money", amount: player.money }, x0 + 150, y, 14, lang),
    text(x0 + 170, y + 7, t("money", lang), { "font-size": 19, fill: COLOURS.moneyText, "font-weight": 700, class: "label-money" }),
    text(x0, y + 30, overlapWords(ov, lang), { "font-size": 14, fill: crossed ? COLOURS.fame : "#7a6a55", "font-weight": crossed ? 800 : 500, class: "overlap" }),
  );
  return { attrs: { class: "header" }, children: kids };
}

function drawProvince(sheet, player, { lang, compact }) {
  const cells = sheet.province.cells;
  const { px, py, eb, cs, rows, cols, gx, gy } = layout(sheet).province;
  const kids = [
    kept("title", "", () => sectionTitle(px + 4, py - 8, t("province", lang), COLOURS.province, compact)),
    kept("bg", "", () => el("rect", { x: px, y: py, width: cols * cs + 2 * eb, height: rows * cs + 2 * eb, rx: 14, fill: COLOURS.provinceLight, stroke: COLOURS.province, "stroke-width": 3 })),
  ];
  // edge bonuses, slots numbered N by column, E by row, S by column, W by row (as the engine does)
  if (!compact) {
    const slots = [];
    for (const [side, count] of [["N", cols], ["E", rows], ["S", cols], ["W", rows]]) {
      for (let i = 0; i < count; i++) slots.push([side, i]);
    }
    const taken = new Set(player.edges_taken);
    const bySlot = new Map(sheet.province.edge_bonuses.map((e) => [`${e.side}${e.index}`, e.bonus]));
    slots.forEach(([side, i], slot) => {
      const b = bySlot.get(`${side}${i}`);
      if (!b) return;
      const x = side === "N" || side === "S" ? gx + i * cs + cs / 2 : side === "W" ? gx - eb / 2 : gx + cols * cs + eb / 2;
      const y = side === "N" || side === "S" ? (side === "N" ? gy - eb / 2 : gy + rows * cs + eb / 2) : gy + i * cs + cs / 2;
      const isTaken = taken.has(slot);
      kids.push(kept(`edge${slot}`, isTaken, () => el("g", { class: `edge-bonus${isTaken ? " taken" : ""}`, "data-slot": slot, "data-edge": `${side}${i}` },
        bonusIcon(b, x, y, 13.5, lang), isTaken ? crossMark(x, y, 10, COLOURS.ink, 2.6) : null)));
    });
  }
  cells.flat().forEach((kind, i) => {
    const x = gx + (i % cols) * cs;
    const y = gy + Math.floor(i / cols) * cs;
    const arms = player.roads[i] || 0;
    kids.push(kept(`space${i}`, arms, () => {
      const s = cs * 0.2;
      const ix = x + cs * 0.25;
      const iy = y + cs * 0.26;
      // a small sheet shows the roads, not what each space holds
      const icon = compact ? null
        : kind === "residence" ? residenceIcon(ix, iy + 2, s * 1.05, lang)
          : kind.startsWith("market_") ? marketIcon(kind.slice(7), ix, iy, s, lang)
            : buildingIcon(kind, ix, iy, s, lang);
      return el("g", { class: `province-space${arms ? " drawn" : ""}`, "data-space": i, "data-kind": kind },
        el("rect", { x, y, width: cs, height: cs, fill: arms ? "#f7f0dc" : "#f3f8ec", stroke: "#8fb07a", "stroke-width": 1.5 }),
        icon,
        arms ? roadArms(arms, x + cs / 2, y + cs / 2, cs / 2, { width: cs * 0.17 }) : null);
    }));
  });
  return { attrs: { class: "province" }, children: kids };
}

function drawKarma(sheet, player, { lang, compact }) {
  const k = sheet.karma;
  const { x0, y0, step } = layout(sheet).karma;
  const bonuses = new Map(k.bonuses.map((b) => [b.at, b.bonus]));
  const kids = [kept("title", "", () => sectionTitle(x0, y0 + 16, t("karma", lang), COLOURS.karma, compact))];
  for (let i = 0; i < k.spaces; i++) {
    const x = x0 + 22 + i * step;
    const y = y0 + 46;
    const gained = i < player.karma_gained;
    const used = i < player.karma_used;
    const b = compact ? null : bonuses.get(i + 1);
    const taken = player.karma_gained >= i + 1;
    kids.push(kept(`karma${i}`, `${gained}${used}${b ? taken : ""}`, () => el("g", { class: `karma-space${gained ? " gained" : ""}${used ? " used" : ""}`, "data-index": i },
      el("circle", { cx: x, cy: y, r: 16, fill: gained ? COLOURS.karmaLight : "#f5efe0", stroke: COLOURS.karma, "stroke-width": 1.5, "stroke-dasharray": gained ? null : "3 3" }),
      // faded by fill and stroke opacity, not `opacity`: a group opacity is an effect node of its own, which every
      // frame's layerization visits, and a layer of its own to raster
      bonusIcon({ kind: "karma" }, x, y, 11, lang, !gained || used ? { "fill-opacity": 0.35, "stroke-opacity": 0.35 } : {}),
      gained ? circleMark(x, y, 18.5, COLOURS.ink, 2.2) : null,
      used ? crossMark(x, y, 12, COLOURS.ink, 3) : null,
      b ? el("line", { x1: x, y1: y + 18, x2: x, y2: y + 26, stroke: COLOURS.karma, "stroke-width": 2 }) : null,
      b ? bonusIcon(b, x, y + 38, 11, lang, { class: `bonus bonus-${b.kind}${taken ? " taken" : ""}` }) : null,
      b && taken ? crossMark(x, y + 38, 8, COLOURS.ink, 2.2) : null)));
  }
  return { attrs: { class: "karma" }, children: kids };
}

function drawUpgrades(sheet, player, { lang, compact }) {
  const up = sheet.upgrades;
  const { x0, y0, top, rowH, colX } = layout(sheet).upgrades;
  const kids = [
    kept("title", "", () => sectionTitle(x0, y0 + 14, t("upgrade", lang), COLOURS.upgrade, compact)),
    kept("bg", "", () => el("rect", { x: x0 - 6, y: top - 4, width: 350, height: up.buildings.length * rowH + 58, rx: 10, fill: COLOURS.upgradeLight, stroke: COLOURS.upgrade, "stroke-width": 2 })),
  ];
  up.buildings.forEach((b, bi) => kids.push(kept(`upgrade${bi}`, player.levels[bi], () => {
    const y = top + bi * rowH;
    const level = player.levels[bi];
    const cy = y + rowH / 2;
    const cols = [];
    for (let v = 1; v <= up.max_level; v++) {
      const x = colX(v - 1);
      cols.push(el("rect", { x: x - 15, y: cy - 13, width: 30, height: 26, rx: 6, fill: "#fffaf0", stroke: COLOURS.upgrade, "stroke-width": 1.2 }),
        text(x, cy + 6, v, { "font-size": 17, "text-anchor": "middle", fill: COLOURS.fame, "font-weight": 800 }));
      if (v < level) cols.push(crossMark(x, cy, 9, COLOURS.ink, 2.6));
      if (v === level) cols.push(circleMark(x, cy, 15, COLOURS.ink, 2.4));
    }
    return el("g", { class: "upgrade-row", "data-building": bi },
      buildingIcon(b, x0 + 16, cy, 13, lang),
      text(x0 + 38, cy + 6, t(b, lang), { "font-size": 16, fill: COLOURS.ink, "font-weight": 600, class: "building-name" }),
      cols);
  })));
  if (!compact) {
    const by = top + up.buildings.length * rowH + 24;
    const minLevel = Math.min(...player.levels);
    up.column_bonuses.forEach((b, j) => {
      const x = colX(j + 1);
      const taken = minLevel >= j + 2;
      kids.push(kept(`bonus${j}`, taken, () => bonusIcon(b, x, by, 13, lang, { class: `bonus bonus-${b.kind} column-bonus${taken ? " taken" : ""}` })));
      if (taken) kids.push(kept(`cross${j}`, "", () => crossMark(x, by, 10, COLOURS.ink, 2.6)));
    });
    kids.push(kept("note", "", () => text(x0 + 4, by + 5, t("column_bonus", lang), { "font-size": 13, fill: "#7a6a55" })));
  }
  return { attrs: { class: "upgrades" }, children: kids };
}

function drawRiver(sheet, player, { lang, compact }) {
  const spaces = sheet.river.spaces;
  const n = spaces.length;
  const { x0, y0, width, step, top, h: hh } = layout(sheet).river;
  const wl = (width - 24) / (n * 2);
  const kids = [
    kept("title", "", () => sectionTitle(x0 + 4, y0 + 4, t("river", lang), COLOURS.river, compact)),
    kept("bg", "", () => el("rect", { x: x0, y: top + 30, width, height: 44, rx: 22, fill: COLOURS.riverLight })),
    kept("waves", "", () => el("path", { d: `M${x0 + 12},${top + 52} ${Array.from({ length: n * 2 }, (_, i) => `q${wl / 2},${i % 2 ? 8 : -8} ${wl},0`).join(" ")}`, fill: "none", stroke: "#9cc8ea", "stroke-width": 3 })),
  ];
  const marked = new Set(player.river);
  const pos = player.river.length ? Math.max(...player.river) : -1;
  spaces.forEach((sp, i) => kids.push(kept(`river${i}`, `${marked.has(i)}${i === pos}`, () => {
    const x = x0 + i * step;
    const isMarked = marked.has(i);
    const cx = x + step / 2;
    const k = compact ? 0 : sp.reward.length;
    return el("g", { class: `river-space${isMarked ? " marked" : ""}${i === pos ? " current" : ""}`, "data-space": i, "data-symbol": sp.symbol },
      el("rect", { x: x + 3, y: top, width: step - 6, height: hh, rx: 10, fill: isMarked ? "#b9d9f2" : "#eef6fc", stroke: COLOURS.river, "stroke-width": i === pos ? 4 : 1.5 }),
      el("circle", { cx, cy: top + 30, r: 21, fill: "#fff", stroke: "#9cc8ea", "stroke-width": 1.5 }),
      compact ? null : symbolIcon(sp.symbol, cx, top + 30, 16),
      title(t(sp.symbol, lang)),
      sp.reward.slice(0, k).map((b, j) => bonusIcon(b, cx + (j - (k - 1) / 2) * 26, top + 78, k > 1 ? 11.5 : 13.5, lang)),
      isMarked ? circleMark(cx, top + 30, 24, COLOURS.ink, 3) : null,
      // the boat: the current position
      i === pos ? el("path", { class: "boat", d: `M${cx - 16},${top - 2} L${cx + 16},${top - 2} L${cx + 10},${top + 8} L${cx - 10},${top + 8} Z M${cx},${top - 2} L${cx},${top - 20} L${cx + 11},${top - 6} Z`, fill: "#8a4b1d", stroke: "#fff", "stroke-width": 1.5, "stroke-linejoin": "round" }) : null);
  })));
  return { attrs: { class: "river" }, children: kids };
}

function drawMarket(sheet, player, { lang, compact }) {
  const m = sheet.market;
  const x0 = INNER.x0;
  const y0 = 610;
  const cols = m.prices.length;
  const lab = 52;
  const cw = Math.min(52, (480 - lab) / cols);
  const rowH = 78;
  const top = y0 + 10;
  const kids = [
    kept("title", "", () => sectionTitle(x0 + 4, y0, t("market", lang), COLOURS.market, compact)),
    kept("bg", "", () => el("rect", { x: x0, y: top, width: lab + cols * cw + 12, height: m.rows.length * rowH + 44, rx: 12, fill: COLOURS.marketLight, stroke: COLOURS.market, "stroke-width": 3 })),
  ];
  GOODS.forEach((good, gi) => {
    const row = m.rows.find((r) => r.good === good);
    const y = top + 8 + gi * rowH;
    const circled = player.circled[good];
    const sold = player.sold[good];
    const parts = [kept("icon", "", () => goodIcon(good, x0 + lab / 2, y + 50, 15)), kept("title", "", () => title(t(good, lang)))];
    let start = 0;
    row.tents.forEach((tent, ti) => {
      const end = start + tent.size;
      const tx0 = x0 + lab + start * cw + 3;
      const tx1 = x0 + lab + end * cw - 3;
      const taken = sold >= end;
      const bx = (tx0 + tx1) / 2;
      parts.push(kept(`tent${ti}`, "", () => el("path", { class: "tent", d: `M${tx0},${y + 32} L${tx0 + 12},${y + 14} L${tx1 - 12},${y + 14} L${tx1},${y + 32} Z`, fill: "#dcc7ec", stroke: COLOURS.market, "stroke-width": 1.5, "stroke-linejoin": "round" })));
      if (!compact) {
        parts.push(kept(`tent${ti}-bonus`, taken, () => bonusIcon(tent.bonus, bx, y + 14, 12, lang, { class: `bonus bonus-${tent.bonus.kind} tent-bonus${taken ? " taken" : ""}` })));
        if (taken) parts.push(kept(`tent${ti}-cross`, "", () => crossMark(bx, y + 14, 9, COLOURS.ink, 2.4)));
      }
      start = end;
    });
    for (let c = 0; c < cols; c++) {
      const isCircled = c < circled;
      const isSold = c < sold;
      parts.push(kept(`good${c}`, `${isCircled}${isSold}`, () => {
        const cx = x0 + lab + c * cw + cw / 2;
        const cy = y + 52;
        return el("g", { class: `market-good${isCircled ? " circled" : ""}${isSold ? " sold" : ""}`, "data-col": c },
          el("rect", { x: cx - cw / 2 + 2, y: cy - 18, width: cw - 4, height: 36, rx: 6, fill: "#fbf7fd", stroke: "#c5acd9", "stroke-width": 1 }),
          compact ? null : goodIcon(good, cx, cy, 11, isCircled ? {} : { "fill-opacity": 0.4, "stroke-opacity": 0.4 }),
          isCircled ? circleMark(cx, cy, 16, COLOURS.ink, 2.4) : null,
          isSold ? crossMark(cx, cy, 12, COLOURS.ink, 3) : null);
      }));
    }
    kids.push(el("g", { key: good, class: "market-row", "data-good": good }, parts));
  });
  if (!compact) {
    const py = top + 8 + m.rows.length * rowH + 16;
    m.prices.forEach((p, c) => kids.push(kept(`price${c}`, "", () => bonusIcon({ kind: "money", amount: p }, x0 + lab + c * cw + cw / 2, py, 13, lang, { class: "price" }))));
  }
  return { attrs: { class: "market" }, children: kids };
}

function drawPalace(sheet, player, { lang, compact }) {
  const pal = sheet.palace;
  const { x0, y0, rowH, colX, rows, areas } = layout(sheet).palace;
  const kids = [kept("title", "", () => sectionTitle(x0, y0, t("palace", lang), COLOURS.palace, compact))];
  pal.areas.forEach((area, ai) => {
    const { y, h: height } = areas[ai];
    kids.push(kept(`bg${ai}`, "", () => el("rect", { x: x0 - 6, y, width: 350, height, rx: 12, fill: COLOURS.palaceLight, stroke: COLOURS.palace, "stroke-width": 3, class: "palace-area", "data-area": ai })));
    area.characters.forEach((ch) => {
      const ci = CHARACTERS.indexOf(ch);
      const ry = rows[ci].y;
      const used = player.palace[ch] || 0;
      kids.push(kept(`row${ci}`, used, () => {
        const cy = ry + rowH / 2;
        const boxes = [];
        for (let j = 0; j < pal.uses; j++) {
          const x = colX(j);
          boxes.push(el("rect", { x: x - 17, y: cy - 12, width: 34, height: 24, rx: 5, fill: "#fffaf2", stroke: COLOURS.palace, "stroke-width": 1.5 }));
          if (j < used) boxes.push(crossMark(x, cy, 9, COLOURS.ink, 3));
        }
        return el("g", { class: "palace-row", "data-character": ci },
          characterIcon(ch, x0 + 16, cy, 13, lang),
          text(x0 + 36, cy + 6, t(ch, lang), { "font-size": 16, fill: COLOURS.ink, "font-weight": 600, class: "character-name" }),
          boxes);
      }));
    });
    if (compact) return;
    const by = y + 6 + area.characters.length * rowH + 18;
    const done = Math.min(...area.characters.map((ch) => player.palace[ch] || 0));
    area.column_bonuses.forEach((b, j) => {
      const x = colX(j);
      const taken = done > j;
      kids.push(kept(`bonus${ai}-${j}`, taken, () => bonusIcon(b, x, by, 12.5, lang, { class: `bonus bonus-${b.kind} column-bonus${taken ? " taken" : ""}` })));
      if (taken) kids.push(kept(`cross${ai}-${j}`, "", () => crossMark(x, by, 9.5, COLOURS.ink, 2.6)));
    });
    kids.push(kept(`note${ai}`, "", () => text(x0 + 4, by + 5, t("column_bonus", lang), { "font-size": 13, fill: "#7a6a55" })));
  });
  return { attrs: { class: "palace" }, children: kids };
}

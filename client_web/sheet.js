// One player's sheet as SVG, and the legal options of the player to move highlighted on it.
//
//   drawSheet(sheet, player, opts) -> <svg>
//       sheet:  the sheet file as plain data (Sheet.to_json(), games/dice_charmers/engine/sheets/*.json)
//       player: PlayerState.to_dict()
//       opts:   {lang, compact, name, colour, active}; a compact sheet (a small one beside the own) leaves out
//               the printed icons too small to read there (bonuses, buildings, symbols) and keeps every mark
//   bindOptions(svg, panel, options, onDecide, opts) -> {destroy()}
//       options: legal decisions in wire form [kind, [args...], bonus] (pending(state).options)
//       panel:   an HTML element for the chooser (goods, sell, goods_die, use, which bonus)
//       onDecide(wireDecision) is called with exactly one of `options`
//       opts:    {lang, pool: pending.pool, effect: pending.effect}
//   mountSheet(container, sheet, player, opts) -> {svg, panel, destroy()}: both of the above at once.

import { el, html, text, title, inlineSvg, morph } from "./svg.js";
import { t } from "./i18n.js";
import { overlapWords } from "./words.js";
import {
  COLOURS, GOODS, CHARACTERS, DIR_BITS, DIR_VEC,
  bonusIcon, bonusLabel, effectBonus, goodIcon, goodsRow, symbolIcon, characterIcon, roadArms, symbolsOf,
  crossMark, circleMark, buildingIcon, marketIcon, residenceIcon, dieFace,
} from "./icons.js";

export const W = 1000;
export const H = 990;
const TRACK_COLS = 16; // spaces along the bottom edge, corners included
const SX = W / TRACK_COLS; // width of a track space
const INNER = { x0: SX + 10, x1: W - SX - 10 };

// ---- geometry -------------------------------------------------------------------------------------------

// Where a total stands on its track, in spaces (part way between two spaces when it falls between).
export function trackPosition(values, value) {
  const last = values.length - 1;
  if (value >= values[last]) return last + (value - values[last]) / (values[last] - values[last - 1]);
  let i = 0;
  while (i + 1 < values.length && values[i + 1] <= value) i++;
  return i + (value - values[i]) / (values[i + 1] - values[i]);
}

// How far the fame and money entries have passed each other, in spaces (negative: not met yet).
export function overlap(sheet, player) {
  const tr = sheet.tracks;
  return trackPosition(tr.fame.values, player.fame) + trackPosition(tr.money.values, player.money) - (tr.fame.values.length - 1);
}

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
    const h = cell.h / 2;
    return { x: cell.x, y: outer ? cell.y + h : cell.y, w: cell.w, h, horizontal: true };
  }
  const w = cell.w / 2;
  const left = (cell.side === "W") === outer;
  return { x: left ? cell.x : cell.x + w, y: cell.y, w, h: cell.h, horizontal: false };
}

function centre(r) {
  return [r.x + r.w / 2, r.y + r.h / 2];
}

// ---- drawing --------------------------------------------------------------------------------------------

function sectionTitle(x, y, label, colour, opts) {
  if (opts.compact) return null;
  return text(x, y, label, { class: "area-title", fill: colour, "font-size": 17, "font-weight": 800, "letter-spacing": 0.5 });
}

export function drawSheet(sheet, player, opts = {}) {
  const lang = opts.lang;
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: `sheet${opts.compact ? " compact" : ""}${opts.active ? " active" : ""}`,
    role: "img",
    "aria-label": `${opts.name || ""} ${t("province", lang)}`.trim(),
    "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  });
  const geom = { sheet, player, lang, compact: !!opts.compact, parts: new Map(), areas: new Map() };
  svg._rajas = geom;
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, rx: 18, fill: COLOURS.paper, class: "sheet-bg" }));
  for (const [name, draw, reads] of AREAS) {
    const area = draw(sheet, player, geom, opts);
    const node = el("g", { ...area.attrs, "data-area": name }, area.children);
    node._key = areaKey(reads, player, opts);
    geom.areas.set(name, node);
    svg.append(node);
  }
  geom.border = el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 18, fill: "none", stroke: opts.colour || COLOURS.line, "stroke-width": opts.colour ? 6 : 3, class: "sheet-border" });
  svg.append(geom.border);
  return svg;
}

// What each area of the sheet reads of the player ($: of the options): an area is drawn again by updateSheet
// only when one of these changed. A drawing function that reads more must say so here.
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

function areaKey(reads, player, opts) {
  return JSON.stringify(reads.map((f) => (f[0] === "$" ? opts[f.slice(1)] : player[f])));
}

// An area's children as its drawing function lists them (an area's own element is only made by drawSheet, so
// that updateSheet can bring the element on the page up to date instead).
class Area {
  constructor(attrs) { this.attrs = attrs; this.children = []; }
  append(...xs) { for (const x of xs) if (x) this.children.push(x); }
}

// A part of an area (a space, a row, a marker) is drawn again only when `key`, what it shows of the player,
// changed; otherwise the very node on the page is listed again, so an update creates, restyles and repaints
// only the parts that changed. `build` must read nothing of the player that `key` does not hold.
function part(geom, id, key, build) {
  const kept = geom.parts.get(id);
  if (kept && kept.key === key) return kept.node;
  const node = build();
  if (!node) { geom.parts.delete(id); return null; }
  node._part = id;
  geom.parts.set(id, { key, node });
  return node;
}

// A group of parts (a row, a track space) kept across updates: its own attributes never change, its children
// (parts) are brought up to date like an area's.
function group(geom, id, attrs, children) {
  const list = children.filter(Boolean);
  const kept = geom.parts.get(id);
  if (kept) { kept.node._list = list; return kept.node; }
  const node = el("g", attrs, list);
  node._part = id;
  geom.parts.set(id, { key: null, node });
  return node;
}

// Brings the children of `live` (an area on the page) to `list`: kept parts stay where they are, a part drawn
// anew replaces the stale node at its place, the rest is inserted or removed.
function reconcile(geom, live, list) {
  const want = new Set(list);
  let i = 0;
  for (const y of list) {
    let x = live.childNodes[i];
    while (x && !want.has(x) && y.parentNode === live) { const next = x.nextSibling; x.remove(); x = next; }
    i++;
    if (x === y) continue;
    if (x && !want.has(x) && !y.parentNode) {
      // a part drawn anew takes the place of its old node; a node drawn on every update (a marker, the
      // header) is morphed into the old one, which usually differs in an attribute or a text
      if (y._part !== undefined || x.nodeName !== y.nodeName) x.replaceWith(y);
      else morph(x, y);
      continue;
    }
    live.insertBefore(y, x || null);
  }
  while (live.childNodes.length > i) live.lastChild.remove();
  for (const y of list) if (y._list) { const sub = y._list; y._list = null; reconcile(geom, y, sub); }
}

// The same sheet (drawn by drawSheet for this sheet file and language) brought to `player` in place: only the
// areas whose part of the player changed are drawn again, so the page restyles and repaints only those.
export function updateSheet(svg, sheet, player, opts = {}) {
  const geom = svg._rajas;
  geom.player = player;
  for (const [name, draw, reads] of AREAS) {
    const key = areaKey(reads, player, opts);
    const old = geom.areas.get(name);
    if (old && old._key === key) continue;
    const area = draw(sheet, player, geom, opts);
    const attrs = { ...area.attrs, "data-area": name };
    if (old) {
      for (const [k, v] of Object.entries(attrs)) if (old.getAttribute(k) !== String(v)) old.setAttribute(k, v);
      reconcile(geom, old, area.children);
      old._key = key;
    } else {
      const node = el("g", attrs, area.children);
      node._key = key;
      geom.areas.set(name, node);
      svg.append(node);
    }
  }
  // set only when changed: even an equal value written again invalidates the element's style
  if (svg.classList.contains("active") !== !!opts.active) svg.classList.toggle("active", !!opts.active);
  const label = `${opts.name || ""} ${t("province", geom.lang)}`.trim();
  if (svg.getAttribute("aria-label") !== label) svg.setAttribute("aria-label", label);
  const stroke = opts.colour || COLOURS.line;
  if (geom.border.getAttribute("stroke") !== stroke) geom.border.setAttribute("stroke", stroke);
  return svg;
}

function drawTracks(sheet, player, geom, opts) {
  const lang = geom.lang;
  const fameVals = sheet.tracks.fame.values;
  const moneyVals = sheet.tracks.money.values;
  const n = fameVals.length;
  const last = n - 1;
  const cells = trackCells(n);
  geom.track = cells;
  const g = new Area({ class: "tracks" });
  const fpos = trackPosition(fameVals, player.fame);
  const mpos = trackPosition(moneyVals, player.money);
  const fameBonus = new Map(sheet.tracks.fame.bonuses.map((b) => [b.at, b.bonus]));
  const moneyBonus = new Map(sheet.tracks.money.bonuses.map((b) => [b.at, b.bonus]));

  const reachedAt = (idx, pos) => idx <= Math.floor(pos + 1e-9);
  for (let i = 0; i < n; i++) g.append(keptSpace(i));
  // A space whose lanes are reached and whose bonuses are taken as before is the very node on the page, its
  // parts not even listed: a move of fame or money visits only the spaces it passed.
  function keptSpace(i) {
    const mi = last - i;
    const spaceKey = `${reachedAt(i, fpos)}|${reachedAt(mi, mpos)}|${player.fame >= fameVals[i]}|${player.money >= moneyVals[mi]}`;
    const kept = geom.parts.get(`track${i}`);
    if (kept && kept.spaceKey === spaceKey) return kept.node;
    const node = trackSpace(i);
    geom.parts.get(`track${i}`).spaceKey = spaceKey;
    return node;
  }
  function trackSpace(i) {
    const cell = cells[i];
    const mi = last - i; // index on the money track
    const kids = [part(geom, `track${i}-bg`, "", () => el("rect", { x: cell.x, y: cell.y, width: cell.w, height: cell.h, fill: "#f3e7cc", stroke: COLOURS.line, "stroke-width": 1.2 }))];
    for (const [which, idx, vals, bonuses, pos, colour, light, txt] of [
      ["fame", i, fameVals, fameBonus, fpos, COLOURS.fame, COLOURS.fameLight, COLOURS.fame],
      ["money", mi, moneyVals, moneyBonus, mpos, COLOURS.money, COLOURS.moneyLight, COLOURS.moneyText],
    ]) {
      const r = lane(cell, which);
      const reached = reachedAt(idx, pos);
      // a lane not reached yet is left empty (no node): most of a track is, for most of the game
      kids.push(part(geom, `track${i}-${which}`, reached, () => reached && el("rect", { x: r.x + 1, y: r.y + 1, width: r.w - 2, height: r.h - 2, fill: reached ? light : "none", class: `lane lane-${which}${reached ? " reached" : ""}` })));
      const v = vals[idx];
      const b = bonuses.get(v);
      const [cx, cy] = centre(r);
      const tx = r.horizontal ? (b ? r.x + r.w * 0.3 : cx) : cx;
      const ty = r.horizontal ? cy + 5 : (b ? r.y + r.h * 0.28 + 5 : cy + 5);
      if (!geom.compact || v % 10 === 0) {
        kids.push(part(geom, `track${i}-${which}-value`, "", () => text(tx, ty, v, { "font-size": r.horizontal ? 15 : 14, "text-anchor": "middle", fill: txt, "font-weight": v % 5 === 0 ? 800 : 500, class: `track-value ${which}-value` })));
      }
      if (b && !geom.compact) {
        const bx = r.horizontal ? r.x + r.w * 0.72 : cx;
        const by = r.horizontal ? cy : r.y + r.h * 0.7;
        const taken = (which === "fame" ? player.fame : player.money) >= v;
        kids.push(part(geom, `track${i}-${which}-bonus`, taken, () => bonusIcon(b, bx, by, 10.5, lang, { class: `bonus bonus-${b.kind} track-bonus ${which}-bonus${taken ? " taken" : ""}` })));
        kids.push(part(geom, `track${i}-${which}-cross`, taken, () => taken && crossMark(bx, by, 8, COLOURS.ink, 2.2)));
      }
    }
    return group(geom, `track${i}`, { class: "track-space", "data-index": i }, kids);
  }
  // lane divider and start labels
  for (const [which, idx, colour] of [["fame", 0, COLOURS.fame], ["money", last, COLOURS.money]]) {
    const cell = cells[idx];
    const r = lane(cell, which);
    g.append(part(geom, `track-start-${which}`, "", () => el("rect", { x: r.x + 1, y: r.y + 1, width: r.w - 2, height: r.h - 2, fill: "none", stroke: colour, "stroke-width": 3, class: `track-start ${which}-start` })));
  }
  // where each total stands (possibly between two spaces)
  for (const [which, pos, colour, value] of [["fame", fpos, COLOURS.fame, player.fame], ["money", mpos, COLOURS.money, player.money]]) {
    const p = Math.min(pos, last);
    const a = Math.floor(p);
    const b = Math.min(last, a + 1);
    const f = p - a;
    const ia = which === "fame" ? a : last - a;
    const ib = which === "fame" ? b : last - b;
    const [ax, ay] = centre(lane(cells[ia], which));
    const [bx, by] = centre(lane(cells[ib], which));
    const x = ax + (bx - ax) * f;
    const y = ay + (by - ay) * f;
    const m = el("g", { class: `track-marker ${which}-marker`, "data-value": value, "data-position": pos.toFixed(3) });
    m.append(
      el("circle", { cx: x, cy: y, r: 15, fill: colour, stroke: "#fff", "stroke-width": 3 }),
      text(x, y + 5, value, { "font-size": value >= 100 ? 11 : 14, "text-anchor": "middle", fill: "#fff", "font-weight": 800 }),
      title(`${t(which, lang)}: ${value}`),
    );
    g.append(m);
  }
  return g;
}

function drawHeader(sheet, player, geom, opts) {
  const lang = geom.lang;
  const x0 = 585;
  const g = new Area({ class: "header" });
  const name = opts.name || sheet.title;
  g.append(text(x0, 46, name, { "font-size": geom.compact ? 44 : 30, "font-weight": 800, fill: opts.colour || COLOURS.ink, class: "player-name" }));
  const ov = overlap(sheet, player);
  const y = 84;
  if (geom.compact) {
    g.append(
      bonusIcon({ kind: "fame", amount: player.fame }, x0 + 26, y + 8, 24, lang),
      bonusIcon({ kind: "money", amount: player.money }, x0 + 100, y + 8, 24, lang),
    );
    return g;
  }
  g.append(
    bonusIcon({ kind: "fame", amount: player.fame }, x0 + 14, y, 14, lang),
    text(x0 + 34, y + 7, t("fame", lang), { "font-size": 19, fill: COLOURS.fame, "font-weight": 700, class: "label-fame" }),
    bonusIcon({ kind: "money", amount: player.money }, x0 + 150, y, 14, lang),
    text(x0 + 170, y + 7, t("money", lang), { "font-size": 19, fill: COLOURS.moneyText, "font-weight": 700, class: "label-money" }),
  );
  if (!geom.compact) {
    const crossed = ov >= 0;
    g.append(text(x0, y + 30, overlapWords(ov, lang), {
      "font-size": 14, fill: crossed ? COLOURS.fame : "#7a6a55", "font-weight": crossed ? 800 : 500, class: "overlap",
    }));
  }
  return g;
}

function drawProvince(sheet, player, geom, opts) {
  const lang = geom.lang;
  const cells = sheet.province.cells;
  const rows = cells.length;
  const cols = cells[0].length;
  const eb = 36;
  const cs = Math.min(86, (480 - 2 * eb) / cols, (400 - 2 * eb) / rows);
  const px = INNER.x0;
  const py = 30;
  const gx = px + eb;
  const gy = py + eb;
  geom.province = { gx, gy, cs, rows, cols };
  const g = new Area({ class: "province" });
  g.append(part(geom, "province-title", "", () => sectionTitle(px + 4, py - 8, t("province", lang), COLOURS.province, geom)));
  g.append(part(geom, "province-bg", "", () => el("rect", { x: px, y: py, width: cols * cs + 2 * eb, height: rows * cs + 2 * eb, rx: 14, fill: COLOURS.provinceLight, stroke: COLOURS.province, "stroke-width": 3 })));

  // edge bonuses, slots numbered N by column, E by row, S by column, W by row (as the engine does)
  const slots = [];
  for (const [side, count] of [["N", cols], ["E", rows], ["S", cols], ["W", rows]]) {
    for (let i = 0; i < count; i++) slots.push([side, i]);
  }
  const taken = new Set(player.edges_taken);
  const bySlot = new Map(sheet.province.edge_bonuses.map((e) => [`${e.side}${e.index}`, e.bonus]));
  slots.forEach(([side, i], slot) => {
    const b = bySlot.get(`${side}${i}`);
    if (!b || geom.compact) return;
    let x;
    let y;
    if (side === "N" || side === "S") { x = gx + i * cs + cs / 2; y = side === "N" ? gy - eb / 2 : gy + rows * cs + eb / 2; }
    else { y = gy + i * cs + cs / 2; x = side === "W" ? gx - eb / 2 : gx + cols * cs + eb / 2; }
    const isTaken = taken.has(slot);
    g.append(part(geom, `edge${slot}`, isTaken, () => {
      const eg = el("g", { class: `edge-bonus${isTaken ? " taken" : ""}`, "data-slot": slot, "data-edge": `${side}${i}` });
      eg.append(bonusIcon(b, x, y, 13.5, lang));
      if (isTaken) eg.append(crossMark(x, y, 10, COLOURS.ink, 2.6));
      return eg;
    }));
  });

  // spaces
  const flat = cells.flat();
  flat.forEach((kind, i) => {
    const r = Math.floor(i / cols);
    const c = i % cols;
    const x = gx + c * cs;
    const y = gy + r * cs;
    const arms = player.roads[i] || 0;
    g.append(part(geom, `space${i}`, arms, () => provinceSpace(i, kind, x, y, arms)));
  });
  function provinceSpace(i, kind, x, y, arms) {
    const sg = el("g", { class: `province-space${arms ? " drawn" : ""}`, "data-space": i, "data-kind": kind });
    sg.append(el("rect", { x, y, width: cs, height: cs, fill: arms ? "#f7f0dc" : "#f3f8ec", stroke: "#8fb07a", "stroke-width": 1.5 }));
    const s = cs * 0.2;
    const ix = x + cs * 0.25;
    const iy = y + cs * 0.26;
    if (geom.compact) { /* a small sheet shows the roads, not what each space holds */ }
    else if (kind === "residence") sg.append(residenceIcon(ix, iy + 2, s * 1.05, lang));
    else if (kind.startsWith("market_")) sg.append(marketIcon(kind.slice(7), ix, iy, s, lang));
    else sg.append(buildingIcon(kind, ix, iy, s, lang));
    if (arms) sg.append(roadArms(arms, x + cs / 2, y + cs / 2, cs / 2, { width: cs * 0.17 }));
    return sg;
  }
  return g;
}

function drawKarma(sheet, player, geom, opts) {
  const lang = geom.lang;
  const k = sheet.karma;
  const x0 = 585;
  const y0 = 120;
  const g = new Area({ class: "karma" });
  g.append(part(geom, "karma-title", "", () => sectionTitle(x0, y0 + 16, t("karma", lang), COLOURS.karma, geom)));
  const step = Math.min(52, 330 / k.spaces);
  const bonuses = new Map(k.bonuses.map((b) => [b.at, b.bonus]));
  geom.karma = { x0, y0, step };
  for (let i = 0; i < k.spaces; i++) {
    const x = x0 + 22 + i * step;
    const y = y0 + 46;
    const gained = i < player.karma_gained;
    const used = i < player.karma_used;
    g.append(part(geom, `karma${i}`, `${gained}${used}`, () => karmaSpace(i, x, y, gained, used)));
  }
  function karmaSpace(i, x, y, gained, used) {
    const sg = el("g", { class: `karma-space${gained ? " gained" : ""}${used ? " used" : ""}`, "data-index": i });
    sg.append(el("circle", { cx: x, cy: y, r: 16, fill: gained ? COLOURS.karmaLight : "#f5efe0", stroke: COLOURS.karma, "stroke-width": 1.5, "stroke-dasharray": gained ? null : "3 3" }));
    const wheel = bonusIcon({ kind: "karma" }, x, y, 11, lang);
    // faded by fill and stroke opacity, not `opacity`: a group opacity is an effect node of its own, which every
    // frame's layerization visits, and a layer of its own to raster
    if (!gained || used) { wheel.setAttribute("fill-opacity", 0.35); wheel.setAttribute("stroke-opacity", 0.35); }
    sg.append(wheel);
    if (gained) sg.append(circleMark(x, y, 18.5, COLOURS.ink, 2.2));
    if (used) sg.append(crossMark(x, y, 12, COLOURS.ink, 3));
    const b = bonuses.get(i + 1);
    if (b && !geom.compact) {
      const taken = player.karma_gained >= i + 1;
      sg.append(el("line", { x1: x, y1: y + 18, x2: x, y2: y + 26, stroke: COLOURS.karma, "stroke-width": 2 }));
      const bi = bonusIcon(b, x, y + 38, 11, lang, { class: `bonus bonus-${b.kind}${taken ? " taken" : ""}` });
      sg.append(bi);
      if (taken) sg.append(crossMark(x, y + 38, 8, COLOURS.ink, 2.2));
    }
    return sg;
  }
  return g;
}

function drawUpgrades(sheet, player, geom, opts) {
  const lang = geom.lang;
  const up = sheet.upgrades;
  const x0 = 585;
  const y0 = 218;
  const rowH = 36;
  const colX = (j) => x0 + 180 + j * 50;
  const g = new Area({ class: "upgrades" });
  g.append(part(geom, "upgrades-title", "", () => sectionTitle(x0, y0 + 14, t("upgrade", lang), COLOURS.upgrade, geom)));
  const top = y0 + 24;
  g.append(part(geom, "upgrades-bg", "", () => el("rect", { x: x0 - 6, y: top - 4, width: 350, height: up.buildings.length * rowH + 58, rx: 10, fill: COLOURS.upgradeLight, stroke: COLOURS.upgrade, "stroke-width": 2 })));
  geom.upgrades = { x0, top, rowH, colX };
  up.buildings.forEach((b, bi) => g.append(part(geom, `upgrade${bi}`, player.levels[bi], () => {
    const y = top + bi * rowH;
    const level = player.levels[bi];
    const rg = el("g", { class: "upgrade-row", "data-building": bi });
    rg.append(buildingIcon(b, x0 + 16, y + rowH / 2, 13, lang));
    rg.append(text(x0 + 38, y + rowH / 2 + 6, t(b, lang), { "font-size": 16, fill: COLOURS.ink, "font-weight": 600, class: "building-name" }));
    for (let v = 1; v <= up.max_level; v++) {
      const x = colX(v - 1);
      const cy = y + rowH / 2;
      rg.append(el("rect", { x: x - 15, y: cy - 13, width: 30, height: 26, rx: 6, fill: "#fffaf0", stroke: COLOURS.upgrade, "stroke-width": 1.2 }));
      rg.append(text(x, cy + 6, v, { "font-size": 17, "text-anchor": "middle", fill: COLOURS.fame, "font-weight": 800 }));
      if (v < level) rg.append(crossMark(x, cy, 9, COLOURS.ink, 2.6));
      if (v === level) rg.append(circleMark(x, cy, 15, COLOURS.ink, 2.4));
    }
    return rg;
  })));
  const by = top + up.buildings.length * rowH + 24;
  const minLevel = Math.min(...player.levels);
  up.column_bonuses.forEach((b, j) => {
    const x = colX(j + 1);
    const taken = minLevel >= j + 2;
    if (!geom.compact) g.append(part(geom, `upgrade-bonus${j}`, taken, () => bonusIcon(b, x, by, 13, lang, { class: `bonus bonus-${b.kind} column-bonus${taken ? " taken" : ""}` })));
    if (!geom.compact) g.append(part(geom, `upgrade-cross${j}`, taken, () => taken && crossMark(x, by, 10, COLOURS.ink, 2.6)));
  });
  if (!geom.compact) g.append(part(geom, "upgrades-note", "", () => text(x0 + 4, by + 5, t("column_bonus", lang), { "font-size": 13, fill: "#7a6a55" })));
  return g;
}

function drawRiver(sheet, player, geom, opts) {
  const lang = geom.lang;
  const spaces = sheet.river.spaces;
  const n = spaces.length;
  const x0 = INNER.x0;
  const y0 = 462;
  const width = INNER.x1 - INNER.x0;
  const step = width / n;
  const g = new Area({ class: "river" });
  g.append(part(geom, "river-title", "", () => sectionTitle(x0 + 4, y0 + 4, t("river", lang), COLOURS.river, geom)));
  const top = y0 + 14;
  const h = 104;
  geom.river = { x0, top, step, h };
  g.append(part(geom, "river-bg", "", () => el("rect", { x: x0, y: top + 30, width, height: 44, rx: 22, fill: COLOURS.riverLight })));
  const wl = (width - 24) / (n * 2);
  g.append(part(geom, "river-waves", "", () => el("path", { d: `M${x0 + 12},${top + 52} ${Array.from({ length: n * 2 }, (_, i) => `q${wl / 2},${i % 2 ? 8 : -8} ${wl},0`).join(" ")}`, fill: "none", stroke: "#9cc8ea", "stroke-width": 3 })));
  const marked = new Set(player.river);
  const pos = player.river.length ? Math.max(...player.river) : -1;
  spaces.forEach((sp, i) => g.append(part(geom, `river${i}`, `${marked.has(i)}${i === pos}`, () => {
    const x = x0 + i * step;
    const isMarked = marked.has(i);
    const sg = el("g", { class: `river-space${isMarked ? " marked" : ""}${i === pos ? " current" : ""}`, "data-space": i, "data-symbol": sp.symbol });
    sg.append(el("rect", { x: x + 3, y: top, width: step - 6, height: h, rx: 10, fill: isMarked ? "#b9d9f2" : "#eef6fc", stroke: COLOURS.river, "stroke-width": i === pos ? 4 : 1.5 }));
    const cx = x + step / 2;
    sg.append(el("circle", { cx, cy: top + 30, r: 21, fill: "#fff", stroke: "#9cc8ea", "stroke-width": 1.5 }));
    if (!geom.compact) sg.append(symbolIcon(sp.symbol, cx, top + 30, 16));
    sg.append(title(t(sp.symbol, lang)));
    const k = geom.compact ? 0 : sp.reward.length;
    sp.reward.slice(0, k).forEach((b, j) => {
      const bx = cx + (j - (k - 1) / 2) * 26;
      sg.append(bonusIcon(b, bx, top + 78, k > 1 ? 11.5 : 13.5, lang));
    });
    if (isMarked) sg.append(circleMark(cx, top + 30, 24, COLOURS.ink, 3));
    if (i === pos) {
      // the boat: current position
      sg.append(el("path", { class: "boat", d: `M${cx - 16},${top - 2} L${cx + 16},${top - 2} L${cx + 10},${top + 8} L${cx - 10},${top + 8} Z M${cx},${top - 2} L${cx},${top - 20} L${cx + 11},${top - 6} Z`, fill: "#8a4b1d", stroke: "#fff", "stroke-width": 1.5, "stroke-linejoin": "round" }));
    }
    return sg;
  })));
  return g;
}

function drawMarket(sheet, player, geom, opts) {
  const lang = geom.lang;
  const m = sheet.market;
  const x0 = INNER.x0;
  const y0 = 610;
  const cols = m.prices.length;
  const lab = 52;
  const cw = Math.min(52, (480 - lab) / cols);
  const rowH = 78;
  const g = new Area({ class: "market" });
  g.append(part(geom, "market-title", "", () => sectionTitle(x0 + 4, y0, t("market", lang), COLOURS.market, geom)));
  const top = y0 + 10;
  g.append(part(geom, "market-bg", "", () => el("rect", { x: x0, y: top, width: lab + cols * cw + 12, height: m.rows.length * rowH + 44, rx: 12, fill: COLOURS.marketLight, stroke: COLOURS.market, "stroke-width": 3 })));
  GOODS.forEach((good, gi) => {
    const row = m.rows.find((r) => r.good === good);
    const y = top + 8 + gi * rowH;
    const id = `market-${good}`;
    const kids = [part(geom, `${id}-icon`, "", () => goodIcon(good, x0 + lab / 2, y + 50, 15)), part(geom, `${id}-title`, "", () => title(t(good, lang)))];
    const circled = player.circled[good];
    const sold = player.sold[good];
    let start = 0;
    row.tents.forEach((tent, ti) => {
      const end = start + tent.size;
      const tx0 = x0 + lab + start * cw + 3;
      const tx1 = x0 + lab + end * cw - 3;
      const taken = sold >= end;
      kids.push(part(geom, `${id}-tent${ti}`, "", () => el("path", { class: "tent", d: `M${tx0},${y + 32} L${tx0 + 12},${y + 14} L${tx1 - 12},${y + 14} L${tx1},${y + 32} Z`, fill: "#dcc7ec", stroke: COLOURS.market, "stroke-width": 1.5, "stroke-linejoin": "round" })));
      const bx = (tx0 + tx1) / 2;
      if (!geom.compact) {
        kids.push(part(geom, `${id}-tent${ti}-bonus`, taken, () => bonusIcon(tent.bonus, bx, y + 14, 12, lang, { class: `bonus bonus-${tent.bonus.kind} tent-bonus${taken ? " taken" : ""}` })));
        kids.push(part(geom, `${id}-tent${ti}-cross`, taken, () => taken && crossMark(bx, y + 14, 9, COLOURS.ink, 2.4)));
      }
      start = end;
    });
    for (let c = 0; c < cols; c++) {
      const isCircled = c < circled;
      const isSold = c < sold;
      kids.push(part(geom, `${id}-${c}`, `${isCircled}${isSold}`, () => {
        const cx = x0 + lab + c * cw + cw / 2;
        const cy = y + 52;
        const cg = el("g", { class: `market-good${isCircled ? " circled" : ""}${isSold ? " sold" : ""}`, "data-col": c });
        cg.append(el("rect", { x: cx - cw / 2 + 2, y: cy - 18, width: cw - 4, height: 36, rx: 6, fill: "#fbf7fd", stroke: "#c5acd9", "stroke-width": 1 }));
        if (!geom.compact) cg.append(goodIcon(good, cx, cy, 11, isCircled ? {} : { "fill-opacity": 0.4, "stroke-opacity": 0.4 }));
        if (isCircled) cg.append(circleMark(cx, cy, 16, COLOURS.ink, 2.4));
        if (isSold) cg.append(crossMark(cx, cy, 12, COLOURS.ink, 3));
        return cg;
      }));
    }
    g.append(group(geom, id, { class: "market-row", "data-good": good }, kids));
  });
  const py = top + 8 + m.rows.length * rowH + 16;
  m.prices.forEach((p, c) => {
    const cx = x0 + lab + c * cw + cw / 2;
    if (!geom.compact) g.append(part(geom, `price${c}`, "", () => bonusIcon({ kind: "money", amount: p }, cx, py, 13, lang, { class: "price" })));
  });
  return g;
}

function drawPalace(sheet, player, geom, opts) {
  const lang = geom.lang;
  const pal = sheet.palace;
  const x0 = 585;
  const y0 = 610;
  const rowH = 32;
  const colX = (j) => x0 + 206 + j * 44;
  const g = new Area({ class: "palace" });
  g.append(part(geom, "palace-title", "", () => sectionTitle(x0, y0, t("palace", lang), COLOURS.palace, geom)));
  geom.palace = { x0, rowH, colX, rows: {} };
  let y = y0 + 10;
  pal.areas.forEach((area, ai) => {
    const h = area.characters.length * rowH + 44;
    const ay = y;
    g.append(part(geom, `palace-bg${ai}`, "", () => el("rect", { x: x0 - 6, y: ay, width: 350, height: h, rx: 12, fill: COLOURS.palaceLight, stroke: COLOURS.palace, "stroke-width": 3, class: "palace-area", "data-area": ai })));
    area.characters.forEach((ch, ri) => {
      const ry = y + 6 + ri * rowH;
      const ci = CHARACTERS.indexOf(ch);
      const used = player.palace[ch] || 0;
      geom.palace.rows[ci] = { y: ry };
      g.append(part(geom, `palace${ci}`, used, () => palaceRow(ch, ci, ry, used)));
    });
    const by = y + 6 + area.characters.length * rowH + 18;
    const done = Math.min(...area.characters.map((ch) => player.palace[ch] || 0));
    area.column_bonuses.forEach((b, j) => {
      const x = colX(j);
      const taken = done > j;
      if (!geom.compact) g.append(part(geom, `palace-bonus${ai}-${j}`, taken, () => bonusIcon(b, x, by, 12.5, lang, { class: `bonus bonus-${b.kind} column-bonus${taken ? " taken" : ""}` })));
      if (!geom.compact) g.append(part(geom, `palace-cross${ai}-${j}`, taken, () => taken && crossMark(x, by, 9.5, COLOURS.ink, 2.6)));
    });
    if (!geom.compact) g.append(part(geom, `palace-note${ai}`, "", () => text(x0 + 4, by + 5, t("column_bonus", lang), { "font-size": 13, fill: "#7a6a55" })));
    y += h + 10;
  });
  function palaceRow(ch, ci, ry, used) {
    const rg = el("g", { class: "palace-row", "data-character": ci });
    rg.append(characterIcon(ch, x0 + 16, ry + rowH / 2, 13, lang));
    rg.append(text(x0 + 36, ry + rowH / 2 + 6, t(ch, lang), { "font-size": 16, fill: COLOURS.ink, "font-weight": 600, class: "character-name" }));
    for (let j = 0; j < pal.uses; j++) {
      const x = colX(j);
      const cy = ry + rowH / 2;
      rg.append(el("rect", { x: x - 17, y: cy - 12, width: 34, height: 24, rx: 5, fill: "#fffaf2", stroke: COLOURS.palace, "stroke-width": 1.5 }));
      if (j < used) rg.append(crossMark(x, cy, 9, COLOURS.ink, 3));
    }
    return rg;
  }
  return g;
}

// ---- legal options --------------------------------------------------------------------------------------

const ARROWS = { 1: "↑", 2: "→", 4: "↓", 8: "←" };
const BOARD_KINDS = new Set(["road", "half_road", "river", "palace", "upgrade"]);
const PANEL_KINDS = new Set(["goods", "sell", "goods_die", "use"]);

function key(w) {
  return `${w[0]}:${w[1].join(",")}`;
}

// The effect a decision's bonus index stands for (the action itself for -1).
function sourceOf(w, opts) {
  if (w[2] >= 0 && opts.pool && opts.pool[w[2]]) return opts.pool[w[2]];
  return opts.effect && opts.effect[0] !== "bonus" ? opts.effect : null;
}

export function bindOptions(svg, panel, options, onDecide, opts = {}) {
  const geom = svg._rajas;
  const { sheet, player } = geom;
  const lang = opts.lang || geom.lang;
  const layer = el("g", { class: "options-layer" });
  svg.append(layer);
  // a picture holds no controls: with options on it the sheet is a group of them (for screen readers)
  svg.setAttribute("role", "group");
  const groups = new Map();
  for (const w of options || []) {
    if (!BOARD_KINDS.has(w[0]) && !PANEL_KINDS.has(w[0])) continue;
    const k = key(w);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(w);
  }
  let done = false;
  let selected = null; // {space, arms: [...], index}

  const finish = (w) => {
    if (done) return;
    done = true;
    layer.classList.add("decided");
    onDecide(w);
  };

  // several bonuses allow the same decision: ask which one to use
  const decide = (list) => {
    if (list.length === 1) return finish(list[0]);
    renderPanel(list);
  };

  // On a phone the same options are 44 px buttons in the panel; the sheet's targets stay tappable but are
  // not what the page asks for (they are too small until zoomed).
  const narrow = typeof matchMedia === "function" && matchMedia("(max-width: 700px)").matches;
  const boardButtons = []; // [kind, args, label, short, act] for the panel's list of board options
  const target = (shape, kind, attrs, list, label, short) => {
    const node = el(shape, { ...attrs, class: `opt opt-${kind}`, "data-kind": kind, [narrow ? "data-target" : "data-option"]: kind, tabindex: 0, role: "button", "aria-label": label });
    node.append(title(label));
    const act = typeof list === "function" ? list : () => decide(list);
    node.addEventListener("click", (ev) => { ev.stopPropagation(); act(); });
    node.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        // a road chosen by keyboard: Enter again confirms it (arrows turn it)
        if (kind === "road" && selected && selected.space === Number(attrs["data-space"])) confirm();
        else act();
      } else if (kind === "road" && ev.key.startsWith("Arrow")) {
        ev.preventDefault();
        if (selected && selected.space === Number(attrs["data-space"])) rotate(); else act();
      }
    });
    layer.append(node);
    boardButtons.push({ kind, args: attrs, label, short: short || label, act });
    return node;
  };
  const where = (space) => ({ r: Math.floor(space / prov.cols) + 1, c: (space % prov.cols) + 1 });
  const rcShort = (space) => { const w = where(space); return `${w.r}·${w.c}`; }; // the button's text; its name says it all
  const spaceWhat = (space) => {
    const kind = sheet.province.cells.flat()[space];
    return t(kind, lang);
  };

  // -- province: roads and half-roads
  const prov = geom.province;
  const roadBySpace = new Map();
  for (const [k, list] of groups) {
    const [kind, args] = list[0];
    if (kind !== "road") continue;
    const [space, arms] = args;
    if (!roadBySpace.has(space)) roadBySpace.set(space, []);
    roadBySpace.get(space).push({ arms, list });
  }
  const preview = el("g", { class: "road-preview" });
  const halfSpaces = new Set();
  const cellXY = (space) => [prov.gx + (space % prov.cols) * prov.cs, prov.gy + Math.floor(space / prov.cols) * prov.cs];
  for (const [space, shapes] of roadBySpace) {
    const [x, y] = cellXY(space);
    // named by its place and what it opens, and by the printed shape of a road bonus ("Road: Fork")
    const src = sourceOf(shapes[0].list[0], opts);
    const shape = src && (src[0] === "road" || src[0] === "half_roads") ? bonusLabel(effectBonus(src), lang) : null;
    const label = t("opt_road", lang, { ...where(space), what: spaceWhat(space) }) + (shape ? ` (${shape})` : "");
    const node = target("rect", "road", { x: x + 2, y: y + 2, width: prov.cs - 4, height: prov.cs - 4, rx: 6, "data-space": space, "data-shapes": shapes.length }, () => select(space),
      label, rcShort(space));
    node.dataset.space = String(space);
  }
  layer.append(preview);

  const select = (space) => {
    if (selected && selected.space === space) selected.index = (selected.index + 1) % selected.shapes.length;
    else selected = { space, shapes: roadBySpace.get(space), index: 0 };
    drawPreview();
    renderPanel();
  };
  const rotate = () => { if (selected) { selected.index = (selected.index + 1) % selected.shapes.length; drawPreview(); renderPanel(); } };
  const cancel = () => { selected = null; drawPreview(); renderPanel(); };
  const confirm = () => { if (selected) decide(selected.shapes[selected.index].list); };

  const button = (x, y, action, label, glyph) => {
    const b = el("g", { class: `road-control control-${action}`, "data-action": action, "aria-hidden": "true" });
    b.append(el("circle", { cx: x, cy: y, r: 17, fill: action === "confirm" ? COLOURS.province : action === "cancel" ? "#9b8b78" : "#fff", stroke: COLOURS.ink, "stroke-width": 2 }));
    b.append(glyph);
    b.append(title(label));
    b.addEventListener("click", (ev) => { ev.stopPropagation(); ({ rotate, cancel, confirm })[action](); });
    return b;
  };

  const drawPreview = () => {
    preview.replaceChildren();
    svg.querySelectorAll(".opt-road.selected").forEach((n) => n.classList.remove("selected"));
    if (!selected) return;
    const { space, shapes, index } = selected;
    const [x, y] = cellXY(space);
    const cs = prov.cs;
    svg.querySelector(`.opt-road[data-space="${space}"]`)?.classList.add("selected");
    const arms = shapes[index].arms;
    const ghost = roadArms(arms, x + cs / 2, y + cs / 2, cs / 2, { width: cs * 0.17, outer: "#2f6b12", inner: "#b6e39a", cls: "road ghost" });
    ghost.setAttribute("data-arms", arms);
    ghost.style.pointerEvents = "none";
    preview.append(ghost);
    // controls under the space (above it on the bottom row)
    // below the space, unless that hides other options (or the space is on the bottom row)
    const row = Math.floor(space / prov.cols);
    const busy = (sp) => sp >= 0 && sp < prov.rows * prov.cols && (roadBySpace.has(sp) || halfSpaces.has(sp));
    const below = row < prov.rows - 1 && !(busy(space + prov.cols) && row > 0 && !busy(space - prov.cols));
    const cy = below ? y + cs + 20 : y - 20;
    const cx = x + cs / 2;
    const bar = el("g", { class: "road-controls" });
    bar.append(el("rect", { x: cx - 62, y: cy - 22, width: 124, height: 44, rx: 22, fill: "rgba(255,255,255,0.92)", stroke: COLOURS.ink, "stroke-width": 1.5 }));
    bar.append(button(cx - 38, cy, "cancel", t("cancel", lang), crossMark(cx - 38, cy, 6, "#fff", 3)));
    if (shapes.length > 1) {
      bar.append(button(cx, cy, "rotate", t("rotate", lang), el("path", {
        d: `M${cx + 8},${cy - 3} A8,8 0 1 0 ${cx + 4},${cy + 7} M${cx + 8},${cy - 10} L${cx + 8},${cy - 2} L${cx},${cy - 2}`,
        fill: "none", stroke: COLOURS.ink, "stroke-width": 2.6, "stroke-linecap": "round", "stroke-linejoin": "round",
      })));
    }
    bar.append(button(cx + 38, cy, "confirm", t("confirm", lang), el("path", { d: `M${cx + 30},${cy} L${cx + 36},${cy + 6} L${cx + 46},${cy - 6}`, fill: "none", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round", "stroke-linejoin": "round" })));
    preview.append(bar);
  };

  for (const [k, list] of groups) {
    const [kind, args] = list[0];
    if (kind !== "half_road") continue;
    halfSpaces.add(args[0]);
    const [space, arm] = args;
    const [x, y] = cellXY(space);
    const cs = prov.cs;
    const [dx, dy] = DIR_VEC[arm];
    const cx = x + cs / 2;
    const cy = y + cs / 2;
    const ghost = roadArms(arm, cx, cy, cs / 2, { width: cs * 0.17, outer: "#2f6b12", inner: "#b6e39a", dash: "4 3", cls: "road ghost half-ghost" });
    ghost.style.pointerEvents = "none";
    layer.append(ghost);
    const w = cs * 0.4;
    const rect = dx ? { x: dx > 0 ? cx : x, y: cy - w / 2, width: cs / 2, height: w } : { x: cx - w / 2, y: dy > 0 ? cy : y, width: w, height: cs / 2 };
    target("rect", "half_road", { ...rect, rx: 5, "data-space": space, "data-arm": arm }, list,
      t("opt_half_road", lang, { ...where(space), d: t(`dir_${arm}`, lang) }), `${rcShort(space)} ${ARROWS[arm]}`);
  }

  // -- river
  for (const [k, list] of groups) {
    const [kind, args] = list[0];
    if (kind !== "river") continue;
    const r = geom.river;
    const x = r.x0 + args[0] * r.step;
    const sp = sheet.river.spaces[args[0]];
    const reward = sp ? sp.reward.map((b) => bonusLabel(b, lang, symbolsOf(sheet))).join(", ") : "";
    target("rect", "river", { x: x + 1, y: r.top - 2, width: r.step - 2, height: r.h + 4, rx: 12, "data-space": args[0] }, list,
      t("opt_river", lang, { n: args[0] + 1, what: reward }), t("opt_river_short", lang, { n: args[0] + 1 }));
  }

  // -- palace
  for (const [k, list] of groups) {
    const [kind, args] = list[0];
    if (kind !== "palace") continue;
    const row = geom.palace.rows[args[0]];
    if (!row) continue;
    target("rect", "palace", { x: geom.palace.x0 - 4, y: row.y + 1, width: 346, height: geom.palace.rowH - 2, rx: 8, "data-character": args[0] }, list, `${t("palace", lang)}: ${t(CHARACTERS[args[0]], lang)}`, t(CHARACTERS[args[0]], lang));
  }

  // -- upgrades
  for (const [k, list] of groups) {
    const [kind, args] = list[0];
    if (kind !== "upgrade") continue;
    const u = geom.upgrades;
    target("rect", "upgrade", { x: u.x0 - 4, y: u.top + args[0] * u.rowH + 1, width: 346, height: u.rowH - 2, rx: 8, "data-building": args[0] }, list, `${t("upgrade", lang)}: ${t(sheet.upgrades.buildings[args[0]], lang)}`, t(sheet.upgrades.buildings[args[0]], lang));
  }

  // -- the chooser panel
  const renderPanel = (which, initial = false) => {
    if (!panel) return;
    // a keyboard user who chose in the panel keeps the focus in it (on what comes next)
    const active = document.activeElement;
    const refocus = !initial && (panel.contains(active) || !active || active === document.body);
    fillPanel(which);
    if (refocus) (panel.querySelector("[data-action=confirm]") || panel.querySelector("button"))?.focus();
  };
  const fillPanel = (which) => {
    panel.replaceChildren();
    panel.classList.add("choices");
    const eff = opts.effect && opts.effect[0] !== "bonus" ? opts.effect : null;
    if (eff) {
      const b = effectBonus(eff);
      panel.append(html("div", { class: "choices-now" }, html("span", { class: "choices-label" }, `${t("now", lang)}:`), inlineSvg(28, bonusIcon(b, 14, 14, 12, lang)), html("span", null, bonusLabel(b, lang, symbolsOf(sheet)))));
    }
    if (opts.pool && opts.pool.length) {
      const chips = html("div", { class: "choices-pool" }, html("span", { class: "choices-label" }, `${t("bonuses_pending", lang)}:`));
      opts.pool.forEach((e) => {
        const b = effectBonus(e);
        chips.append(html("span", { class: "chip", title: bonusLabel(b, lang, symbolsOf(sheet)) }, inlineSvg(26, bonusIcon(b, 13, 13, 11, lang))));
      });
      panel.append(chips);
    }
    if (which) {
      // several bonuses allow the same decision
      panel.append(html("div", { class: "choices-title" }, t("which_bonus", lang)));
      const row = html("div", { class: "choices-row" });
      for (const w of which) {
        const src = sourceOf(w, opts);
        const b = src ? effectBonus(src) : { kind: "bonus" };
        row.append(html("button", { type: "button", class: "choice", "data-kind": w[0], "data-option": w[0], "data-args": w[1].join(","), "data-bonus": w[2], onclick: () => finish(w) },
          inlineSvg(30, bonusIcon(b, 15, 15, 13, lang)), html("span", null, bonusLabel(b, lang, symbolsOf(sheet)))));
      }
      row.append(html("button", { type: "button", class: "choice secondary", onclick: () => renderPanel() }, t("cancel", lang)));
      panel.append(row);
      return;
    }
    const board = [...groups.values()].some((l) => BOARD_KINDS.has(l[0][0]));
    if (board) panel.append(html("div", { class: "choices-hint" }, t("choose_space", lang)));
    if (boardButtons.length) {
      // the board options again as buttons: in view, named, 44 px, reachable by Tab
      const row = html("div", { class: "choices-row board-options" });
      if (boardButtons.some((b) => b.kind === "road" || b.kind === "half_road")) row.append(html("span", { class: "choices-label" }, `${t("opt_rc_hint", lang)}:`));
      for (const b of boardButtons) {
        const on = b.kind === "road" && selected && selected.space === Number(b.args["data-space"]);
        row.append(html("button", { type: "button", class: `choice choice-board choice-${b.kind}${on ? " selected" : ""}`, "data-kind": b.kind, "data-option": b.kind,
          "data-space": b.args["data-space"] ?? "", "data-arm": b.args["data-arm"] ?? "", "data-character": b.args["data-character"] ?? "", "data-building": b.args["data-building"] ?? "",
          "aria-label": b.label, "aria-pressed": b.kind === "road" ? String(!!on) : null, title: b.label, onclick: b.act }, b.short));
      }
      panel.append(row);
    }
    if (selected) {
      const n = selected.shapes.length;
      panel.append(html("div", { class: "choices-row road-row" },
        html("span", { class: "choices-label" }, t("shape_n", lang, { i: selected.index + 1, n })),
        n > 1 ? html("button", { type: "button", class: "choice", "data-action": "rotate", onclick: rotate }, `⟳ ${t("rotate", lang)}`) : null,
        html("button", { type: "button", class: "choice primary", "data-action": "confirm", onclick: confirm }, `✓ ${t("confirm", lang)}`),
        html("button", { type: "button", class: "choice secondary", "data-action": "cancel", onclick: cancel }, t("cancel", lang)),
        html("span", { class: "choices-hint road-keys" }, t("road_keys", lang))));
    }
    // the panel options, grouped by the bonus (or action) they carry out
    const sections = new Map();
    for (const [k, list] of groups) {
      const [kind, args, bonus] = list[0];
      if (!PANEL_KINDS.has(kind)) continue;
      const section = kind === "use" ? "use" : String(bonus);
      if (!sections.has(section)) sections.set(section, []);
      const { content, label } = panelButton(kind, args, list);
      sections.get(section).push(html("button", { type: "button", class: `choice choice-${kind}`, "data-kind": kind, "data-option": kind, "data-args": args.join(","), "data-bonus": bonus, title: label, "aria-label": label, onclick: () => decide(list) }, content));
    }
    for (const [section, buttons] of sections) {
      const row = html("div", { class: "choices-row" });
      const src = section === "use" ? null : sourceOf(["", [], Number(section)], opts);
      if (src && (sections.size > 1 || board || !eff)) {
        const b = effectBonus(src);
        row.append(html("span", { class: "choices-source", title: bonusLabel(b, lang, symbolsOf(sheet)) }, inlineSvg(26, bonusIcon(b, 13, 13, 11, lang)), html("span", null, `${bonusLabel(b, lang, symbolsOf(sheet))}:`)));
      }
      row.append(...buttons);
      panel.append(row);
    }
  };

  const panelButton = (kind, args, list) => {
    let content;
    let label;
    if (kind === "goods") {
      label = args.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(" + ");
      content = [html("span", { class: "choice-sign" }, "+"), goodsButton(args)];
    } else if (kind === "sell") {
      const earn = args.reduce((s, n, i) => s + sheet.market.prices.slice(player.sold[GOODS[i]], player.sold[GOODS[i]] + n).reduce((a, b) => a + b, 0), 0);
      if (args.every((n) => n === 0)) { label = t("sell_nothing", lang); content = [label]; }
      else {
        label = `${t("sell", lang)}: ${args.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(" + ")} → ${earn}`;
        content = [goodsButton(args), " → ", inlineSvg(24, bonusIcon({ kind: "money", amount: earn }, 12, 12, 10.5, lang))];
      }
    } else if (kind === "goods_die") {
      const die = sheet.dice[args[0]];
      const face = die.faces[(opts.faces || [])[args[0]]];
      label = face ? face.map((f) => t(f, lang)).join(" + ") : `${t("b_goods_die", lang)} ${args[0]}`;
      content = face ? inlineSvg(40, dieFace("purple", face, 20, 20, 18, lang)) : [String(args[0])];
    } else {
      const src = sourceOf(list[0], opts);
      const b = src ? effectBonus(src) : { kind: "bonus" };
      label = `${t("use", lang)}: ${bonusLabel(b, lang, symbolsOf(sheet))}`;
      content = [inlineSvg(30, bonusIcon(b, 15, 15, 13, lang)), html("span", null, label)];
    }
    return { content, label };
  };

  const goodsButton = (counts) => {
    const n = counts.reduce((a, b) => a + b, 0);
    const w = Math.max(1, n) * 22 + 4;
    return inlineSvg(26, goodsRow(counts, w / 2, 13, 9.5), w);
  };

  if (panel) {
    panel.addEventListener("keydown", (ev) => {
      if (selected && ev.key.startsWith("Arrow")) { ev.preventDefault(); rotate(); }
    });
  }
  renderPanel(null, true);
  return {
    destroy() {
      layer.remove();
      svg.setAttribute("role", "img");
      if (panel) panel.replaceChildren();
    },
    select,
  };
}

export function mountSheet(container, sheet, player, opts = {}) {
  const wrap = html("div", { class: `sheet-wrap${opts.compact ? " compact" : ""}` });
  const svg = drawSheet(sheet, player, opts);
  wrap.append(svg);
  let panel = null;
  let binding = null;
  if (!opts.compact && opts.options && opts.onDecide) {
    panel = html("div", { class: "choices", "aria-live": "polite", "data-panel": "choices" });
    wrap.prepend(panel); // the choices above the sheet: next to the bar that asks for them
    binding = bindOptions(svg, panel, opts.options, opts.onDecide, opts);
  }
  container.append(wrap);
  return {
    svg, panel, wrap,
    destroy() { binding?.destroy(); wrap.remove(); },
  };
}

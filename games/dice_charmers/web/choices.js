// The legal options of the player to move on their own sheet: board options (road, half_road, river, palace,
// upgrade) highlighted over the sheet and listed again as buttons in the choices panel, each named by place and
// what ("Road on row 2, column 3: Temple"); panel options (goods, sell, goods_die, use) as buttons grouped by the
// bonus they carry out; and, when several bonuses allow the same decision, the question which one.
//
//   const c = new Choice(options, onDecide, redraw)   // one per decision point; redraw() draws the sheet again
//   layer(c, p) -> the <g> over the sheet;  panel(c, p) -> the panel's content
//       p: {sheet, player, lang, pool: pending.pool, effect: pending.effect, faces: state.faces}
//
// A road is chosen by clicking its space (again, or ⟳, to turn it), then ✓; by keyboard: Enter chooses, the arrow
// keys turn it, Enter confirms. Under 700 px the sheet's highlights are `data-target` (tappable once zoomed) and
// the panel's 44 px buttons carry `data-option`. `onDecide` is called once, with one of the options exactly as given.

import { h, s as el } from "/ui.js";
import { t } from "/i18n.js";
import { layout } from "./sheet.js";
import { DIR_VEC, title, inlineSvg, bonusIcon, goodsRow, roadArms, crossMark, dieFace } from "./icons.js";
import { CHARACTERS, GOODS, bonusLabel, effectBonus, symbolsOf } from "./labels.js";

const ARROWS = { 1: "↑", 2: "→", 4: "↓", 8: "←" };
const BOARD_KINDS = new Set(["road", "half_road", "river", "palace", "upgrade"]);
const PANEL_KINDS = new Set(["goods", "sell", "goods_die", "use"]);
const GHOST = { outer: "#2f6b12", inner: "#b6e39a" };

// The effect a decision's bonus index stands for (the action itself for -1).
function sourceOf(w, p) {
  if (w[2] >= 0 && p.pool && p.pool[w[2]]) return p.pool[w[2]];
  return p.effect && p.effect[0] !== "bonus" ? p.effect : null;
}

// What the player is choosing: the options grouped by decision (several bonuses may allow the same one), the road
// being laid, the bonus question, and whether the decision went out.
export class Choice {
  constructor(options, onDecide, redraw) {
    this.groups = new Map();
    for (const w of options || []) {
      if (!BOARD_KINDS.has(w[0]) && !PANEL_KINDS.has(w[0])) continue;
      const k = `${w[0]}:${w[1].join(",")}`;
      if (!this.groups.has(k)) this.groups.set(k, []);
      this.groups.get(k).push(w);
    }
    this.roads = new Map(); // space -> [{arms, list}]
    for (const list of this.groups.values()) {
      const [kind, [space, arms]] = list[0];
      if (kind !== "road") continue;
      if (!this.roads.has(space)) this.roads.set(space, []);
      this.roads.get(space).push({ arms, list });
    }
    this.onDecide = onDecide;
    this.redraw = redraw;
    this.selected = null; // {space, shapes, index}: the road being laid
    this.which = null; // the options among which the player picks the bonus to use
    this.done = false;
    this.refocus = false; // a keyboard user who chose in the panel keeps the focus there, on what comes next
    this.version = 0; // counts the changes: what is drawn of the same version is the same
  }

  get any() {
    return this.groups.size > 0;
  }

  finish(w) {
    if (this.done) return;
    this.done = true;
    this.version += 1;
    this.redraw();
    this.onDecide(w);
  }

  // several bonuses allow the same decision: ask which one to use
  decide(list) {
    if (list.length === 1) return this.finish(list[0]);
    this.which = list;
    this.changed();
  }

  select(space) {
    if (this.selected && this.selected.space === space) this.selected.index = (this.selected.index + 1) % this.selected.shapes.length;
    else this.selected = { space, shapes: this.roads.get(space), index: 0 };
    this.changed();
  }

  rotate() {
    if (!this.selected) return;
    this.selected.index = (this.selected.index + 1) % this.selected.shapes.length;
    this.changed();
  }

  cancel() {
    this.selected = null;
    this.which = null;
    this.changed();
  }

  confirm() {
    if (this.selected) this.decide(this.selected.shapes[this.selected.index].list);
  }

  changed() {
    this.version += 1;
    const active = document.activeElement;
    this.refocus = !active || active === document.body || !!active.closest?.("[data-panel=choices]");
    this.redraw();
  }
}

// ---- over the sheet -------------------------------------------------------------------------------------

export function layer(c, p) {
  const prov = layout(p.sheet).province;
  // On a phone the same options are 44 px buttons in the panel; the sheet's targets stay tappable but are not what
  // the page asks for (they are too small until zoomed).
  const narrow = typeof matchMedia === "function" && matchMedia("(max-width: 700px)").matches;
  const cellXY = (space) => [prov.gx + (space % prov.cols) * prov.cs, prov.gy + Math.floor(space / prov.cols) * prov.cs];
  const target = (kind, attrs, act, label) => el("rect", {
    ...attrs, key: `${kind}:${attrs["data-space"] ?? attrs["data-character"] ?? attrs["data-building"]}:${attrs["data-arm"] ?? ""}`,
    class: `opt opt-${kind}${kind === "road" && c.selected?.space === attrs["data-space"] ? " selected" : ""}`,
    "data-kind": kind, [narrow ? "data-target" : "data-option"]: kind, tabindex: 0, role: "button", "aria-label": label,
    onClick: (ev) => { ev.stopPropagation(); act(); },
    onKeyDown: (ev) => {
      const mine = kind === "road" && c.selected && c.selected.space === attrs["data-space"];
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        if (mine) c.confirm(); else act(); // a road chosen by keyboard: Enter again confirms it (arrows turn it)
      } else if (kind === "road" && ev.key.startsWith("Arrow")) {
        ev.preventDefault();
        if (mine) c.rotate(); else act();
      }
    },
  }, title(label));
  const kids = [];
  for (const b of boardOptions(c, p)) kids.push(target(b.kind, b.attrs, b.act, b.label));
  kids.splice(c.roads.size, 0, el("g", { key: "preview", class: "road-preview" }, c.selected ? preview(c, p, cellXY) : null));
  // the half-roads' ghosts, under their targets
  for (const list of c.groups.values()) {
    const [kind, [space, arm]] = list[0];
    if (kind !== "half_road") continue;
    const [x, y] = cellXY(space);
    const g = roadArms(arm, x + prov.cs / 2, y + prov.cs / 2, prov.cs / 2, { width: prov.cs * 0.17, ...GHOST, dash: "4 3", cls: "road ghost half-ghost" });
    g.props.style = "pointer-events: none";
    g.key = `ghost:${space}:${arm}`;
    kids.splice(kids.findIndex((n) => n.key === `half_road:${space}:${arm}`), 0, g);
  }
  return el("g", { class: `options-layer${c.done ? " decided" : ""}` }, kids);
}

// Every board option: where its target lies on the sheet, its name and its short name (the panel button's text).
function boardOptions(c, p) {
  const { sheet, lang } = p;
  const L = layout(sheet);
  const prov = L.province;
  const where = (space) => ({ r: Math.floor(space / prov.cols) + 1, c: (space % prov.cols) + 1 });
  const rc = (space) => { const w = where(space); return `${w.r}·${w.c}`; }; // a button's text; its name says it all
  const what = (space) => t(sheet.province.cells.flat()[space], lang);
  const cellXY = (space) => [prov.gx + (space % prov.cols) * prov.cs, prov.gy + Math.floor(space / prov.cols) * prov.cs];
  const out = [];
  for (const [space, shapes] of c.roads) {
    const [x, y] = cellXY(space);
    // named by its place and what it opens, and by the printed shape of a road bonus ("Road: Fork")
    const src = sourceOf(shapes[0].list[0], p);
    const shape = src && (src[0] === "road" || src[0] === "half_roads") ? bonusLabel(effectBonus(src), lang) : null;
    out.push({ kind: "road", act: () => c.select(space), short: rc(space),
      label: t("opt_road", lang, { ...where(space), what: what(space) }) + (shape ? ` (${shape})` : ""),
      attrs: { x: x + 2, y: y + 2, width: prov.cs - 4, height: prov.cs - 4, rx: 6, "data-space": space, "data-shapes": shapes.length } });
  }
  for (const list of c.groups.values()) {
    const [kind, args] = list[0];
    const act = () => c.decide(list);
    if (kind === "half_road") {
      const [space, arm] = args;
      const [x, y] = cellXY(space);
      const cs = prov.cs;
      const [dx, dy] = DIR_VEC[arm];
      const cx = x + cs / 2;
      const cy = y + cs / 2;
      const w = cs * 0.4;
      const rect = dx ? { x: dx > 0 ? cx : x, y: cy - w / 2, width: cs / 2, height: w } : { x: cx - w / 2, y: dy > 0 ? cy : y, width: w, height: cs / 2 };
      out.push({ kind, act, short: `${rc(space)} ${ARROWS[arm]}`, label: t("opt_half_road", lang, { ...where(space), d: t(`dir_${arm}`, lang) }),
        attrs: { ...rect, rx: 5, "data-space": space, "data-arm": arm } });
    }
  }
  for (const list of c.groups.values()) {
    const [kind, args] = list[0];
    if (kind !== "river") continue;
    const r = L.river;
    const sp = sheet.river.spaces[args[0]];
    const reward = sp ? sp.reward.map((b) => bonusLabel(b, lang, symbolsOf(sheet))).join(", ") : "";
    out.push({ kind, act: () => c.decide(list), short: t("opt_river_short", lang, { n: args[0] + 1 }), label: t("opt_river", lang, { n: args[0] + 1, what: reward }),
      attrs: { x: r.x0 + args[0] * r.step + 1, y: r.top - 2, width: r.step - 2, height: r.h + 4, rx: 12, "data-space": args[0] } });
  }
  for (const list of c.groups.values()) {
    const [kind, args] = list[0];
    const row = kind === "palace" ? L.palace.rows[args[0]] : null;
    if (!row) continue;
    out.push({ kind, act: () => c.decide(list), short: t(CHARACTERS[args[0]], lang), label: `${t("palace", lang)}: ${t(CHARACTERS[args[0]], lang)}`,
      attrs: { x: L.palace.x0 - 4, y: row.y + 1, width: 346, height: L.palace.rowH - 2, rx: 8, "data-character": args[0] } });
  }
  for (const list of c.groups.values()) {
    const [kind, args] = list[0];
    if (kind !== "upgrade") continue;
    const u = L.upgrades;
    out.push({ kind, act: () => c.decide(list), short: t(sheet.upgrades.buildings[args[0]], lang), label: `${t("upgrade", lang)}: ${t(sheet.upgrades.buildings[args[0]], lang)}`,
      attrs: { x: u.x0 - 4, y: u.top + args[0] * u.rowH + 1, width: 346, height: u.rowH - 2, rx: 8, "data-building": args[0] } });
  }
  return out;
}

// The road being laid, as a ghost on its space, with cancel, turn and confirm under it (above it on the bottom row,
// or when below it would hide other options).
function preview(c, p, cellXY) {
  const prov = layout(p.sheet).province;
  const { space, shapes, index } = c.selected;
  const { lang } = p;
  const [x, y] = cellXY(space);
  const cs = prov.cs;
  const arms = shapes[index].arms;
  const ghost = roadArms(arms, x + cs / 2, y + cs / 2, cs / 2, { width: cs * 0.17, ...GHOST, cls: "road ghost" });
  ghost.props["data-arms"] = arms;
  ghost.props.style = "pointer-events: none";
  const halves = new Set([...c.groups.values()].filter((l) => l[0][0] === "half_road").map((l) => l[0][1][0]));
  const row = Math.floor(space / prov.cols);
  const busy = (sp) => sp >= 0 && sp < prov.rows * prov.cols && (c.roads.has(sp) || halves.has(sp));
  const below = row < prov.rows - 1 && !(busy(space + prov.cols) && row > 0 && !busy(space - prov.cols));
  const cy = below ? y + cs + 20 : y - 20;
  const cx = x + cs / 2;
  const button = (bx, action, label, glyph) => el("g", { class: `road-control control-${action}`, "data-action": action, "aria-hidden": "true",
    onClick: (ev) => { ev.stopPropagation(); c[action](); } },
  el("circle", { cx: bx, cy, r: 17, fill: action === "confirm" ? "#4f8a2f" : action === "cancel" ? "#9b8b78" : "#fff", stroke: "#3b2f25", "stroke-width": 2 }),
  glyph, title(label));
  return [ghost, el("g", { class: "road-controls" },
    el("rect", { x: cx - 62, y: cy - 22, width: 124, height: 44, rx: 22, fill: "rgba(255,255,255,0.92)", stroke: "#3b2f25", "stroke-width": 1.5 }),
    button(cx - 38, "cancel", t("cancel", lang), crossMark(cx - 38, cy, 6, "#fff", 3)),
    shapes.length > 1 ? button(cx, "rotate", t("rotate", lang), el("path", {
      d: `M${cx + 8},${cy - 3} A8,8 0 1 0 ${cx + 4},${cy + 7} M${cx + 8},${cy - 10} L${cx + 8},${cy - 2} L${cx},${cy - 2}`,
      fill: "none", stroke: "#3b2f25", "stroke-width": 2.6, "stroke-linecap": "round", "stroke-linejoin": "round",
    })) : null,
    button(cx + 38, "confirm", t("confirm", lang), el("path", { d: `M${cx + 30},${cy} L${cx + 36},${cy + 6} L${cx + 46},${cy - 6}`, fill: "none", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round", "stroke-linejoin": "round" })))];
}

// ---- the choices panel ----------------------------------------------------------------------------------

// The arrow keys anywhere in the panel turn the road being laid.
export function panelKeys(c, ev) {
  if (c.selected && ev.key.startsWith("Arrow")) { ev.preventDefault(); c.rotate(); }
}

export function panel(c, p) {
  const { sheet, player, lang } = p;
  const sym = symbolsOf(sheet);
  const kids = [];
  const eff = p.effect && p.effect[0] !== "bonus" ? p.effect : null;
  if (eff) {
    const b = effectBonus(eff);
    kids.push(h("div", { class: "choices-now" }, h("span", { class: "choices-label" }, `${t("now", lang)}:`), inlineSvg(28, bonusIcon(b, 14, 14, 12, lang)), h("span", null, bonusLabel(b, lang, sym))));
  }
  if (p.pool && p.pool.length) {
    kids.push(h("div", { class: "choices-pool" }, h("span", { class: "choices-label" }, `${t("bonuses_pending", lang)}:`),
      p.pool.map((e) => { const b = effectBonus(e); return h("span", { class: "chip", title: bonusLabel(b, lang, sym) }, inlineSvg(26, bonusIcon(b, 13, 13, 11, lang))); })));
  }
  if (c.which) {
    // several bonuses allow the same decision
    kids.push(h("div", { class: "choices-title" }, t("which_bonus", lang)), h("div", { class: "choices-row" },
      c.which.map((w) => {
        const src = sourceOf(w, p);
        const b = src ? effectBonus(src) : { kind: "bonus" };
        return h("button", { type: "button", class: "choice", "data-kind": w[0], "data-option": w[0], "data-args": w[1].join(","), "data-bonus": w[2], onClick: () => c.finish(w) },
          inlineSvg(30, bonusIcon(b, 15, 15, 13, lang)), h("span", null, bonusLabel(b, lang, sym)));
      }),
      h("button", { type: "button", class: "choice secondary", onClick: () => c.cancel() }, t("cancel", lang))));
    return kids;
  }
  const board = boardOptions(c, p);
  if ([...c.groups.values()].some((l) => BOARD_KINDS.has(l[0][0]))) kids.push(h("div", { class: "choices-hint" }, t("choose_space", lang)));
  if (board.length) {
    // the board options again as buttons: in view, named, 44 px, reachable by Tab
    kids.push(h("div", { class: "choices-row board-options" },
      board.some((b) => b.kind === "road" || b.kind === "half_road") ? h("span", { class: "choices-label" }, `${t("opt_rc_hint", lang)}:`) : null,
      board.map((b) => {
        const on = b.kind === "road" && c.selected?.space === b.attrs["data-space"];
        return h("button", { type: "button", class: `choice choice-board choice-${b.kind}${on ? " selected" : ""}`, "data-kind": b.kind, "data-option": b.kind,
          "data-space": b.attrs["data-space"] ?? "", "data-arm": b.attrs["data-arm"] ?? "", "data-character": b.attrs["data-character"] ?? "", "data-building": b.attrs["data-building"] ?? "",
          "aria-label": b.label, "aria-pressed": b.kind === "road" ? String(!!on) : null, title: b.label, onClick: b.act }, b.short);
      })));
  }
  if (c.selected) {
    const n = c.selected.shapes.length;
    kids.push(h("div", { class: "choices-row road-row" },
      h("span", { class: "choices-label" }, t("shape_n", lang, { i: c.selected.index + 1, n })),
      n > 1 ? h("button", { type: "button", class: "choice", "data-action": "rotate", onClick: () => c.rotate() }, `⟳ ${t("rotate", lang)}`) : null,
      h("button", { type: "button", class: "choice primary", "data-action": "confirm", onClick: () => c.confirm() }, `✓ ${t("confirm", lang)}`),
      h("button", { type: "button", class: "choice secondary", "data-action": "cancel", onClick: () => c.cancel() }, t("cancel", lang)),
      h("span", { class: "choices-hint road-keys" }, t("road_keys", lang))));
  }
  // the panel options, grouped by the bonus (or action) they carry out
  const sections = new Map();
  for (const list of c.groups.values()) {
    const [kind, args, bonus] = list[0];
    if (!PANEL_KINDS.has(kind)) continue;
    const section = kind === "use" ? "use" : String(bonus);
    if (!sections.has(section)) sections.set(section, []);
    const { content, label } = panelButton(kind, args, list, p);
    sections.get(section).push(h("button", { type: "button", class: `choice choice-${kind}`, "data-kind": kind, "data-option": kind, "data-args": args.join(","), "data-bonus": bonus, title: label, "aria-label": label, onClick: () => c.decide(list) }, content));
  }
  for (const [section, buttons] of sections) {
    const src = section === "use" ? null : sourceOf(["", [], Number(section)], p);
    const b = src && (sections.size > 1 || board.length || !eff) ? effectBonus(src) : null;
    kids.push(h("div", { class: "choices-row" },
      b ? h("span", { class: "choices-source", title: bonusLabel(b, lang, sym) }, inlineSvg(26, bonusIcon(b, 13, 13, 11, lang)), h("span", null, `${bonusLabel(b, lang, sym)}:`)) : null,
      buttons));
  }
  return kids;

  function panelButton(kind, args, list) {
    if (kind === "goods") {
      return { label: args.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(" + "), content: [h("span", { class: "choice-sign" }, "+"), goodsButton(args)] };
    }
    if (kind === "sell") {
      if (args.every((n) => n === 0)) return { label: t("sell_nothing", lang), content: [t("sell_nothing", lang)] };
      const earn = args.reduce((sum, n, i) => sum + sheet.market.prices.slice(player.sold[GOODS[i]], player.sold[GOODS[i]] + n).reduce((a, b) => a + b, 0), 0);
      return { label: `${t("sell", lang)}: ${args.map((n, i) => (n ? `${n} ${t(GOODS[i], lang)}` : "")).filter(Boolean).join(" + ")} → ${earn}`,
        content: [goodsButton(args), " → ", inlineSvg(24, bonusIcon({ kind: "money", amount: earn }, 12, 12, 10.5, lang))] };
    }
    if (kind === "goods_die") {
      const die = sheet.dice[args[0]];
      const face = die.faces[(p.faces || [])[args[0]]];
      return { label: face ? face.map((f) => t(f, lang)).join(" + ") : `${t("b_goods_die", lang)} ${args[0]}`,
        content: face ? inlineSvg(40, dieFace("purple", face, 20, 20, 18, lang)) : [String(args[0])] };
    }
    const src = sourceOf(list[0], p);
    const b = src ? effectBonus(src) : { kind: "bonus" };
    const label = `${t("use", lang)}: ${bonusLabel(b, lang, sym)}`;
    return { label, content: [inlineSvg(30, bonusIcon(b, 15, 15, 13, lang)), h("span", null, label)] };
  }
}

function goodsButton(counts) {
  const n = counts.reduce((a, b) => a + b, 0);
  const w = Math.max(1, n) * 22 + 4;
  return inlineSvg(26, goodsRow(counts, w / 2, 13, 9.5), w);
}


// The dice tray: the 8 dice in the middle of the table, the elephant with its die, each player's depot,
// the two dice rolled with karma, and the legal die / karma / keep / reroll / pass options.
//
//   renderDice(container, sheet, state, opts) -> {root, destroy()}
//       sheet:  the sheet file as plain data (its `dice` list gives each die's colour and faces)
//       state:  GameState.to_dict() (uses faces, where, reroll, players, start_player)
//       opts:   {lang, options: pending.options, onDecide(wireDecision), names: [seat names], me: seat,
//                current: the seat to move}
//
// A tray without options is brought up to date in place by keepTray (tray_keep.js), with the looks below.

import { el, html, inlineSvg, title } from "./svg.js";
import { t } from "./i18n.js";
import { COLOURS, dieFace } from "./icons.js";

const MIDDLE = -1;
const ELEPHANT = -2;
export const DIE_KINDS = new Set(["die", "karma", "keep", "reroll", "pass"]); // the options the tray offers

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

// What a die's slot shows (its class and its words), a depot's class and label, the elephant's label: shared
// with keepTray, which writes them into the tray on the page.
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

export function renderDice(container, sheet, state, opts = {}) {
  const lang = opts.lang;
  const options = (opts.options || []).filter((w) => DIE_KINDS.has(w[0]));
  const names = opts.names || state.players.map((_, i) => t("seat", lang, { n: i + 1 }));
  const byKind = (k) => options.filter((w) => w[0] === k);
  const dieOpt = new Map(byKind("die").map((w) => [w[1][0], w]));
  const karmaOpt = new Map(byKind("karma").map((w) => [w[1][0], w]));
  const keepOpt = new Map(byKind("keep").map((w) => [w[1][0], w]));
  const rerollOpt = byKind("reroll")[0];
  const passOpt = byKind("pass")[0];
  const rerolled = new Set(state.reroll || []);
  let karmaMode = false;
  let done = false;
  const root = html("div", { class: "dice-tray" });
  container.append(root);

  const finish = (w) => {
    if (done) return;
    done = true;
    root.classList.add("decided");
    opts.onDecide?.(w);
  };

  const dieButton = (d, where) => {
    let opt = null;
    let extra = "";
    if (keepOpt.has(d)) { opt = keepOpt.get(d); extra = " opt opt-keep"; }
    else if (karmaMode && karmaOpt.has(d)) { opt = karmaOpt.get(d); extra = " opt opt-karma"; }
    else if (!karmaMode && dieOpt.has(d)) { opt = dieOpt.get(d); extra = " opt opt-die"; }
    const { cls, label } = slotLook(sheet, state, d, lang, extra);
    const attrs = { class: cls, "data-die": d, "data-where": where, title: label, "aria-label": label };
    if (opt) {
      return html("button", { ...attrs, type: "button", "data-kind": opt[0], "data-option": opt[0], onclick: () => finish(opt) }, dieSvg(sheet, state, d, lang),
        opt[0] === "keep" ? html("span", { class: "die-caption" }, t("keep", lang)) : null);
    }
    return html("span", attrs, dieSvg(sheet, state, d, lang));
  };

  const render = () => {
    root.replaceChildren();
    const middle = html("div", { class: "tray-middle" }, html("div", { class: "tray-label" }, t("middle", lang)));
    const row = html("div", { class: "tray-dice" });
    // while rerolling with karma, the two rolled dice are shown in their own box only
    state.where.forEach((w, d) => { if (w === MIDDLE && !rerolled.has(d)) row.append(dieButton(d, "middle")); });
    middle.append(row);

    const eleDie = state.where.findIndex((w, d) => w === ELEPHANT && !rerolled.has(d));
    const elephant = html("div", { class: "tray-elephant" },
      html("div", { class: "tray-label" }, elephantLabel(state, names, lang)),
      html("div", { class: "elephant-box" },
        inlineSvg(64, elephantIcon(38, 36, 24), 84),
        eleDie >= 0 ? dieButton(eleDie, "elephant") : null));

    const depots = html("div", { class: "tray-depots" });
    state.players.forEach((p, seat) => {
      const dice = [];
      state.where.forEach((w, d) => { if (w === seat) dice.push(dieButton(d, `depot-${seat}`)); });
      depots.append(html("div", { class: depotClass(seat, opts), "data-seat": seat },
        html("div", { class: "tray-label" }, depotLabel(seat, names, lang)),
        html("div", { class: "depot-dice" }, dice.length ? dice : html("span", { class: "depot-empty" }, "–"))));
    });

    root.append(html("div", { class: "tray-top" }, middle, elephant));

    if (state.reroll) {
      const box = html("div", { class: "tray-reroll" }, html("div", { class: "tray-label" }, t("rerolled", lang)),
        html("div", { class: "tray-dice" }, state.reroll.map((d) => dieButton(d, "reroll"))));
      if (rerollOpt) box.append(html("button", { type: "button", class: "action action-reroll", "data-kind": "reroll", "data-option": "reroll", onclick: () => finish(rerollOpt) }, t("reroll_again", lang)));
      root.append(box);
    }

    const actions = html("div", { class: "tray-actions" });
    if (karmaOpt.size) {
      const karmaLeft = opts.me !== undefined && state.players[opts.me] ? state.players[opts.me].karma_gained - state.players[opts.me].karma_used : null;
      actions.append(html("button", { type: "button", class: `action action-karma${karmaMode ? " active" : ""}`, "data-kind": "karma-mode", "data-option": "karma-mode", "aria-pressed": karmaMode ? "true" : "false", onclick: () => { karmaMode = !karmaMode; render(); (root.querySelector(".opt-karma") || root.querySelector(".action-karma"))?.focus(); } },
        inlineSvg(22, karmaGlyph(11, 11, 10)), ` ${t("karma_reroll", lang)}${karmaLeft !== null ? ` (${t("karma_left", lang, { n: karmaLeft })})` : ""}`));
      if (karmaMode) actions.append(html("div", { class: "tray-hint" }, t("karma_pick", lang)));
    }
    if (passOpt) actions.append(html("button", { type: "button", class: "action action-pass", "data-kind": "pass", "data-option": "pass", onclick: () => finish(passOpt) }, t("pass", lang)));
    if (actions.childNodes.length) root.append(actions);
    root.append(depots);
  };
  render();
  return { root, destroy() { root.remove(); } };
}

function karmaGlyph(x, y, r) {
  const g = el("g", null, el("circle", { cx: x, cy: y, r, fill: COLOURS.karma }), el("circle", { cx: x, cy: y, r: r * 0.5, fill: "none", stroke: "#fff", "stroke-width": r * 0.14 }));
  for (let i = 0; i < 8; i++) {
    const a = (Math.PI * i) / 4;
    g.append(el("line", { x1: x + Math.cos(a) * r * 0.15, y1: y + Math.sin(a) * r * 0.15, x2: x + Math.cos(a) * r * 0.72, y2: y + Math.sin(a) * r * 0.72, stroke: "#fff", "stroke-width": r * 0.1 }));
  }
  g.append(title("karma"));
  return g;
}

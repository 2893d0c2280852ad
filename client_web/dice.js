// The dice tray: the 8 dice in the middle of the table, the elephant with its die, each player's depot,
// the two dice rolled with karma, and the legal die / karma / keep / reroll / pass options.
//
//   renderDice(container, sheet, state, opts) -> {root, destroy()}
//   keepTray(root, sheet, state, opts) -> true, or false when the tray cannot be brought there (another number
//       of players): the caller draws it anew with renderDice
//       sheet:  the sheet file as plain data (its `dice` list gives each die's colour and faces)
//       state:  GameState.to_dict() (uses faces, where, reroll, players, start_player)
//       opts:   {lang, options: pending.options, onDecide(wireDecision), names: [seat names], me: seat,
//                current: the seat to move, settle(): brings the options into view after a karma toggle}
//
// The tray is drawn once and then brought up to date in place on every update, options and rolls included: a
// die is one node for the whole game, moved between the middle, the elephant and the depots, its face drawn
// again only when it shows another one. A die to choose is that node made a button (role, tab stop, classes);
// one listener on the tray takes the clicks and keys. Drawing the tray anew (on a roll, around each of the
// player's picks) was a third of a player's updates and their slowest (docs/benchmarks.md).

import { html, inlineSvg, put } from "./svg.js";
import { t } from "./i18n.js";
import { slotLook, dieSvg, depotClass, depotLabel, elephantLabel, elephantIcon, karmaGlyph } from "./dice_looks.js";

const MIDDLE = -1;
const ELEPHANT = -2;
export const DIE_KINDS = new Set(["die", "karma", "keep", "reroll", "pass"]); // the options the tray offers

export function renderDice(container, sheet, state, opts = {}) {
  const root = html("div", { class: "dice-tray" });
  keepTray(root, sheet, state, opts);
  container.append(root);
  return { root, destroy() { root.remove(); } };
}

export function keepTray(root, sheet, state, opts) {
  const T = root._tray || skeleton(root, state.players.length);
  if (T.depots.length !== state.players.length) return false;
  T.args = [sheet, state, opts];
  const { lang } = opts;
  const names = opts.names || state.players.map((_, i) => t("seat", lang, { n: i + 1 }));
  const options = (opts.options || []).filter((w) => DIE_KINDS.has(w[0]));
  const byKind = (k) => options.filter((w) => w[0] === k);
  const dieOpt = new Map(byKind("die").map((w) => [w[1][0], w]));
  const karmaOpt = new Map(byKind("karma").map((w) => [w[1][0], w]));
  const keepOpt = new Map(byKind("keep").map((w) => [w[1][0], w]));
  if (!karmaOpt.size) T.karmaMode = false;
  T.onDecide = opts.onDecide;
  T.done = false;
  T.chosen = new Map();
  put(root, "class", "dice-tray"); // (no longer decided: these are the new options)
  const rerolled = new Set(state.reroll || []);

  const slot = (d, where) => {
    const n = T.slots[d] || (T.slots[d] = html("span", { "data-die": d }));
    const opt = keepOpt.get(d) || (T.karmaMode ? karmaOpt.get(d) : dieOpt.get(d));
    if (opt) T.chosen.set(d, opt);
    const extra = !opt ? "" : ` opt opt-${opt[0] === "keep" ? "keep" : T.karmaMode ? "karma" : "die"}`;
    const { cls, label } = slotLook(sheet, state, d, lang, extra);
    put(n, "class", cls);
    put(n, "data-where", where);
    put(n, "title", label);
    const face = put(n, "aria-label", label);
    if (face || !n.firstChild) {
      const svg = dieSvg(sheet, state, d, lang);
      if (n.firstChild) n.firstChild.replaceWith(svg); else n.prepend(svg);
    }
    for (const [name, value] of [["role", "button"], ["tabindex", "0"], ["data-kind", opt?.[0]], ["data-option", opt?.[0]]]) {
      if (opt) put(n, name, value);
      else if (n.hasAttribute(name)) n.removeAttribute(name);
    }
    const caption = n.querySelector(":scope > .die-caption");
    if (opt?.[0] === "keep" && !caption) n.append(html("span", { class: "die-caption" }, t("keep", lang)));
    else if (opt?.[0] !== "keep" && caption) caption.remove();
    return n;
  };
  const dice = (where, place) => state.where.flatMap((w, d) => (w === where && !rerolled.has(d) ? [slot(d, place)] : []));

  put(T.middleLabel, "text", t("middle", lang));
  place(T.middle, dice(MIDDLE, "middle"));
  put(T.elephantLabel, "text", elephantLabel(state, names, lang));
  place(T.elephantBox, [T.elephant, ...dice(ELEPHANT, "elephant")]);
  // while rerolling with karma, the two rolled dice are shown in their own box only
  T.reroll.hidden = !state.reroll;
  if (state.reroll) {
    place(T.rerollDice, state.reroll.map((d) => slot(d, "reroll")));
    put(T.rerollLabel, "text", t("rerolled", lang));
  }
  // "reroll again" while it is an option, drawn again only in another language
  const rerollOpt = byKind("reroll")[0];
  const rerollKey = rerollOpt ? lang : null;
  if (rerollKey !== T.rerollKey) {
    T.rerollKey = rerollKey;
    T.rerollButton?.remove();
    T.rerollButton = rerollOpt ? html("button", { type: "button", class: "action action-reroll", "data-kind": "reroll", "data-option": "reroll", onclick: () => finish(T, root, T.rerollOpt) }, t("reroll_again", lang)) : null;
    if (T.rerollButton) T.reroll.append(T.rerollButton);
  }
  T.rerollOpt = rerollOpt;
  actions(T, root, state, opts, karmaOpt, byKind("pass")[0]);
  T.depots.forEach((depot, seat) => {
    put(depot, "class", depotClass(seat, opts));
    put(depot.firstChild, "text", depotLabel(seat, names, lang));
    const held = dice(seat, `depot-${seat}`);
    place(depot.lastChild, held.length ? held : [depot._empty]);
  });
  return true;
}

// The tray's boxes, made once: the middle and the elephant, the karma reroll's box, the actions, the depots.
function skeleton(root, players) {
  const T = { slots: [], karmaMode: false, chosen: new Map() };
  T.middle = html("div", { class: "tray-dice" });
  T.elephantLabel = html("div", { class: "tray-label" });
  T.elephant = inlineSvg(64, elephantIcon(38, 36, 24), 84);
  T.elephantBox = html("div", { class: "elephant-box" }, T.elephant);
  T.middleLabel = html("div", { class: "tray-label" });
  T.rerollLabel = html("div", { class: "tray-label" });
  T.rerollDice = html("div", { class: "tray-dice" });
  T.reroll = html("div", { class: "tray-reroll", hidden: true }, T.rerollLabel, T.rerollDice);
  T.actions = html("div", { class: "tray-actions", hidden: true });
  T.depots = Array.from({ length: players }, (_, seat) => {
    const depot = html("div", { class: "depot", "data-seat": seat }, html("div", { class: "tray-label" }), html("div", { class: "depot-dice" }));
    depot._empty = html("span", { class: "depot-empty" }, "–");
    return depot;
  });
  root.replaceChildren(
    html("div", { class: "tray-top" }, html("div", { class: "tray-middle" }, T.middleLabel, T.middle),
      html("div", { class: "tray-elephant" }, T.elephantLabel, T.elephantBox)),
    T.reroll, T.actions, html("div", { class: "tray-depots" }, T.depots));
  // a die to choose is a span made a button: its clicks, and Enter or Space on it, come here
  const choose = (ev) => {
    const n = ev.target.closest?.("[data-die][role=button]");
    const opt = n && root.contains(n) ? T.chosen.get(Number(n.dataset.die)) : null;
    if (!opt) return;
    ev.preventDefault();
    finish(T, root, opt);
  };
  root.addEventListener("click", choose);
  root.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") choose(ev); });
  root._tray = T;
  return T;
}

function finish(T, root, w) {
  if (T.done || !w) return;
  T.done = true;
  root.classList.add("decided");
  T.onDecide?.(w);
}

// The karma chooser (with the karma left) and pass, drawn again only when what they show changed.
function actions(T, root, state, opts, karmaOpt, passOpt) {
  const { lang } = opts;
  const me = opts.me !== undefined ? state.players[opts.me] : null;
  const karmaLeft = karmaOpt.size && me ? me.karma_gained - me.karma_used : null;
  const key = JSON.stringify([lang, karmaOpt.size > 0, T.karmaMode, karmaLeft, !!passOpt]);
  T.passOpt = passOpt;
  if (key === T.actionsKey) return;
  T.actionsKey = key;
  // the dice to reroll take the focus; the page (opts.settle) then brings them out from under its sticky bar, where
  // the focus's own scrolling can leave them on a phone
  const toggle = () => {
    T.karmaMode = !T.karmaMode;
    keepTray(root, ...T.args);
    (root.querySelector(".opt-karma") || root.querySelector(".action-karma"))?.focus({ preventScroll: !!opts.settle });
    opts.settle?.();
  };
  const kids = [];
  if (karmaOpt.size) {
    kids.push(html("button", { type: "button", class: `action action-karma${T.karmaMode ? " active" : ""}`, "data-kind": "karma-mode", "data-option": "karma-mode", "aria-pressed": T.karmaMode ? "true" : "false", onclick: toggle },
      inlineSvg(22, karmaGlyph(11, 11, 10)), ` ${t("karma_reroll", lang)}${karmaLeft !== null ? ` (${t("karma_left", lang, { n: karmaLeft })})` : ""}`));
    if (T.karmaMode) kids.push(html("div", { class: "tray-hint" }, t("karma_pick", lang)));
  }
  if (passOpt) kids.push(html("button", { type: "button", class: "action action-pass", "data-kind": "pass", "data-option": "pass", onclick: () => finish(T, root, T.passOpt) }, t("pass", lang)));
  T.actions.replaceChildren(...kids);
  T.actions.hidden = !kids.length;
}

// `parent`'s children made `kids`, in order, moving the nodes that are elsewhere (a node is never made twice).
function place(parent, kids) {
  const want = new Set(kids);
  for (const c of [...parent.children]) if (!want.has(c)) c.remove(); // first, so that the others need not move
  kids.forEach((k, i) => { if (parent.children[i] !== k) parent.insertBefore(k, parent.children[i] || null); });
}

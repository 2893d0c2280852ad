// The dice tray of a page without options (a spectator's, or a player's between turns) brought up to date in
// place: a die that changed places is the same node moved, a depot keeps its box, and only the classes and words
// that changed are written. Drawing the tray again (and morphing it in) created and restyled ~55 nodes per
// update, the picked die and every depot whose mark moved.
//
//   keepTray(root, sheet, state, opts) -> true, or false when the tray on the page cannot be brought there (a
//   reroll shown before or now, another number of players): the caller draws it anew with renderDice

import { html } from "./svg.js";
import { slotLook, dieSvg, depotClass, depotLabel, elephantLabel } from "./dice.js";

const MIDDLE = -1;
const ELEPHANT = -2;

export function keepTray(root, sheet, state, opts) {
  const depots = root.querySelectorAll(":scope > .tray-depots > .depot");
  const middle = root.querySelector(":scope > .tray-top > .tray-middle > .tray-dice");
  const elephant = root.querySelector(":scope > .tray-top > .tray-elephant");
  if (state.reroll || root.querySelector(":scope > .tray-reroll, :scope > .tray-actions") || !middle || !elephant || depots.length !== state.players.length) return false;
  const { lang, names } = opts;
  put(root, "class", "dice-tray"); // (the last roll's animation is over)
  const slots = new Map([...root.querySelectorAll("[data-die]")].map((n) => [Number(n.dataset.die), n]));
  if (slots.size !== state.where.length || [...slots.values()].some((n) => n.tagName !== "SPAN")) return false;
  const slot = (d, where) => {
    const n = slots.get(d);
    const { cls, label } = slotLook(sheet, state, d, lang);
    put(n, "class", cls);
    put(n, "data-where", where);
    put(n, "title", label);
    if (put(n, "aria-label", label)) n.replaceChildren(dieSvg(sheet, state, d, lang)); // another face
    return n;
  };
  const dice = (where, place) => state.where.flatMap((w, d) => (w === where ? [slot(d, place)] : []));
  place(middle, dice(MIDDLE, "middle"));
  put(elephant.querySelector(":scope > .tray-label"), "text", elephantLabel(state, names, lang));
  const box = elephant.querySelector(":scope > .elephant-box");
  place(box, [box.firstElementChild, ...dice(ELEPHANT, "elephant")]);
  depots.forEach((depot, seat) => {
    put(depot, "class", depotClass(seat, opts));
    put(depot.querySelector(":scope > .tray-label"), "text", depotLabel(seat, names, lang));
    const held = dice(seat, `depot-${seat}`);
    const row = depot.querySelector(":scope > .depot-dice");
    const empty = row.querySelector(":scope > .depot-empty") || html("span", { class: "depot-empty" }, "–");
    place(row, held.length ? held : [empty]);
  });
  return true;
}

// `parent`'s children made `kids`, in order, moving the nodes that are elsewhere (a node is never made twice).
function place(parent, kids) {
  const want = new Set(kids);
  for (const c of [...parent.children]) if (!want.has(c)) c.remove(); // first, so that the others need not move
  kids.forEach((k, i) => { if (parent.children[i] !== k) parent.insertBefore(k, parent.children[i] || null); });
}

// An attribute (or, for "text", the text) written only when it changes; true when it did.
function put(n, name, value) {
  const was = name === "text" ? n.textContent : n.getAttribute(name);
  if (was === String(value)) return false;
  if (name === "text") n.textContent = value; else n.setAttribute(name, value);
  return true;
}

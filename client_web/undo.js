// Undo within the turn (docs/rules-decisions.md, "Undo"): the Undo button in the game's bar while the player
// to move may take back a decision of this turn. The server says how many they may (`game.undo` of every
// snapshot and update, 0 when undo is off, after new dice, or when the turn passed); the button sends the
// `undo` message at the version seen, like a decision.

import { html } from "./svg.js";
import { t } from "./i18n.js";

// The bar's place for the button (the bar is drawn again only on a new round: the button lives in here).
export function undoSlot() {
  return html("span", { class: "undo-slot", "data-undo-slot": "" });
}

// Whether this page's player may take back a decision now.
export function canUndo(view) {
  const S = view.S;
  return view.myTurn() && !S.busy && (S.game?.undo || 0) > 0;
}

// Shows the button while an undo is possible, hides it otherwise; the same button stays (keyboard focus on it
// survives an update that leaves it possible).
export function renderUndo(view) {
  // looked up in the bar alone: an attribute selector over the whole game screen walks every sheet's nodes
  const slot = (view.bar || view.el).querySelector("[data-undo-slot]");
  if (!slot) return;
  const on = canUndo(view);
  let btn = slot.querySelector("[data-action=undo]");
  if (!on) {
    btn?.remove();
    return;
  }
  const label = t("undo_label", view.lang);
  if (!btn || btn.dataset.lang !== view.lang) {
    btn?.remove();
    btn = html("button", { type: "button", class: "btn small undo-btn", "data-action": "undo", "data-lang": view.lang, "aria-label": label, title: label, onclick: () => view.actions.undo() },
      html("span", { "aria-hidden": "true" }, "↶ "), t("undo", view.lang));
    slot.append(btn);
  }
}

// ---- the log line of a taken-back decision (log.js) ------------------------------------------------------

export function tookBackLine(e, ctx) {
  const p = ctx.names[e.player] ?? `#${e.player}`;
  const kind = Array.isArray(e.decision) ? e.decision[0] : "";
  const what = t(`undo_what_${kind}`, ctx.lang);
  const known = what !== `undo what ${kind}`;
  return { text: t(known ? "l_took_back_what" : "l_took_back", ctx.lang, { p, what }), seat: e.player ?? null, kind: "undo" };
}

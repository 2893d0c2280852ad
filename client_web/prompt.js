// The bar's sentence: what the player to move is asked, in a sentence a first-time player understands, with the
// round's pick order (two players: A, B, A, B), the second-die and karma cues, round news and wasted bonuses.

import { glyph } from "./glyphs.js";
import { html, inlineSvg, morph } from "./svg.js";
import { bonusIcon, bonusLabel, effectBonus, symbolsOf } from "./icons.js";
import { STATUS } from "./protocol.js";
import { pickOrder, markPick } from "./play_aids.js";
import { winnerText } from "./game_end.js";
import { SEAT_COLOURS } from "./game.js";

// The bar's sentence is drawn again only when something it says changed (its key names all that fillPrompt
// reads), and then morphed into the one on the page (it holds no listeners), so that only what changed is
// restyled; the round's pick order is kept while the round lasts and only its marks move.
export function renderPrompt(view) {
  const key = promptKey(view);
  if (key === view.promptDrawn) return;
  view.promptDrawn = key;
  const p = html("div", { class: "prompt", "data-prompt": "" });
  fillPrompt(view, p);
  p.style.minHeight = view.prompt.style.minHeight; // the height it keeps (steady.js) survives the morph
  morph(view.prompt, p);
  const order = view.prompt.querySelector(":scope > .pick-order");
  if (order) markPick(order, view.S.game.state.turn ?? 0, view.lang);
}

function promptKey(view) {
  const S = view.S;
  const { state, pending } = S.game;
  const over = S.room.status === STATUS.OVER;
  const seat = S.room.seats[pending.player];
  const kinds = [...new Set(pending.options.map((o) => o[0]))].sort();
  return JSON.stringify([view.lang, S.room.status, over ? [state.result, view.mySeat()] : null, view.names(), pending.player, pending.phase,
    pending.effect, kinds, view.myTurn(), state.order, state.turn, seat?.bot, seat?.connected, view.roundNews, view.notices]);
}

function fillPrompt(view, p) {
  const S = view.S;
  const { pending } = S.game;
  const names = view.names();
  const lang = view.lang;
  const add = (...xs) => p.append(...xs.filter((x) => x !== null && x !== undefined && x !== false));
  if (S.room.status === STATUS.OVER) {
    const res = S.game.state.result || [];
    p.className = "prompt over";
    add(glyph("trophy", 24), html("strong", { "data-winner-text": "" }, winnerText(view, res)));
    return;
  }
  const who = pending.player;
  const mine = view.myTurn();
  const kinds = new Set(pending.options.map((o) => o[0]));
  let what = "";
  if (pending.effect && pending.effect[0] !== "bonus") {
    try { what = bonusLabel(effectBonus(pending.effect), lang, symbolsOf(S.sheet)); } catch { what = String(pending.effect[0]); }
  }
  p.className = `prompt${mine ? " mine" : ""}`;
  p.style.setProperty("--seat", SEAT_COLOURS[who] || "#666");
  p.dataset.player = String(who);
  // the icon's place is kept when there is none (an empty, hidden span): the morph then changes that one node,
  // instead of every node after it shifting by one and being drawn again
  const icon = pending.effect && pending.effect[0] !== "bonus" ? inlineSvg(30, bonusIcon(effectBonus(pending.effect), 15, 15, 13, lang)) : html("span", { class: "prompt-icon", hidden: true });
  if (mine) {
    let text;
    if (pending.phase === "pick") {
      text = kinds.has("die") ? view.L("p_pick") + (kinds.has("karma") ? ` ${view.L("p_pick_karma")}` : "") : kinds.has("karma") ? view.L("p_pick_karma") : view.L("p_pass");
    } else if (pending.phase === "reroll") {
      text = view.L("p_reroll") + (kinds.has("reroll") ? ` ${view.L("p_reroll_again")}` : "");
    } else if (what) {
      text = view.L("p_resolve", { what }) + (kinds.has("road") ? ` · ${view.L("p_road")}` : "");
    } else {
      text = view.L("p_bonus");
    }
    const state = S.game.state;
    const second = pending.phase === "pick" && (state.order || []).slice(0, state.turn ?? 0).includes(who);
    add(html("span", { class: "prompt-who" }, view.L("your_turn")), icon, html("span", { class: "prompt-text" }, text),
      second ? html("span", { class: "badge second-die", "data-cue": "second-die" }, view.L("second_die")) : null,
      kinds.has("karma") ? html("span", { class: "badge karma-cue", "data-cue": "karma" }, view.L("karma_cue")) : null);
  } else {
    const name = names[who] ?? "?";
    const text = pending.phase === "pick" ? view.L("wait_pick", { p: name })
      : pending.phase === "reroll" ? view.L("wait_reroll", { p: name })
        : what ? view.L("wait_resolve_theirs", { p: name, what }) : view.L("wait_bonus_theirs", { p: name });
    const seat = S.room.seats[who];
    add(html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[who]}` }), icon, html("span", { class: "prompt-text" }, text),
      seat?.bot ? html("span", { class: "badge" }, glyph("bot", 15), ` ${view.L("bot")}`) : null,
      seat && !seat.connected && !seat.bot ? html("span", { class: "badge away" }, view.L("away")) : null);
  }
  // shown the whole round, while a die is carried out too (dropped and drawn again at every pick, it cost each
  // update a restyle and relayout of the bar); keyed by the round's order (not the turn), so that a morph keeps
  // the list on the page and renderPrompt moves its marks; a list already on the page is listed by its key alone
  const orderKey = JSON.stringify([S.game.state.order, names, view.lang]);
  const kept = [...view.prompt.children].some((n) => n.getAttribute("data-key") === orderKey);
  const order = kept ? html("ol", { "data-key": orderKey }) : pickOrder(S.game.state, names, SEAT_COLOURS, view.lang);
  order?.setAttribute("data-key", orderKey);
  add(order);
  if (view.roundNews) add(html("span", { class: `prompt-news ${view.roundNews.kind}`, "data-banner": "" }, view.roundNews.text));
  for (const n of view.notices) add(html("span", { class: "prompt-notice", role: "status", "data-notice": "wasted" }, `⚠ ${n}`));
}

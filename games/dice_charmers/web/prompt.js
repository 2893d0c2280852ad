// The bar's sentence: what the player to move is asked, in words a first-time player understands, with the round's
// pick order (two players: A, B, A, B), the second-die and karma cues, the round's news and any bonus that had to be
// wasted; and the bar's title ("Round 3").
//
//   prompt(frame) -> {kind: "" | "mine" | "over", colour, player, content, announce}
//   status(frame) -> the bar's title
//
// `frame` is what the table gives the game on every drawing (client_web/README.md, "The game interface"); its
// `events` are the last update's, so the news stays in the bar until the next update.

import { h, kept } from "/ui.js";
import { t } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { bonusIcon, inlineSvg } from "./icons.js";
import { bonusLabel, effectBonus, symbolsOf } from "./labels.js";
import { winnerText } from "./summary.js";

export function status(frame) {
  return frame.status === "over" ? t("game_over", frame.lang) : t("round", frame.lang, { n: frame.game.state.round });
}

// The order in which the players take dice this round, the current pick (and the ones done) marked; drawn again only
// when it changed.
function pickOrder(state, frame) {
  const order = state.order || [];
  if (!order.length) return null;
  const turn = state.turn ?? 0;
  return kept("order", `${order}|${turn}|${frame.names}|${frame.lang}|${frame.colours}`, () => h("ol", { class: "pick-order", "aria-label": t("pick_order", frame.lang), "data-pick-order": order.join(",") },
    order.map((seat, i) => h("li", { key: i, class: `pick${i === turn ? " now" : ""}${i < turn ? " done" : ""}`, style: `--seat:${frame.colours[seat]}`, "aria-current": i === turn ? "step" : null },
      h("span", { class: "pick-name" }, frame.names[seat] ?? "?"),
      i === turn ? h("span", { class: "visually-hidden" }, ` (${t("pick_now", frame.lang)})`) : null))));
}

// A bonus the last update had to waste, in words.
function wasted(frame) {
  const sym = symbolsOf(frame.sheet);
  const out = [];
  for (const e of frame.events || []) {
    if (e.type !== "bonus_wasted") continue;
    let b;
    try { b = bonusLabel(effectBonus(e.bonus), frame.lang, sym); } catch { b = String(e.bonus?.[0] ?? "?"); }
    out.push(e.player === frame.me ? t("wasted_mine", frame.lang, { b }) : t("wasted_theirs", frame.lang, { p: frame.names[e.player] ?? "?", b }));
  }
  return out;
}

// Round and game-end news of the last update.
function news(frame) {
  const events = frame.events || [];
  const find = (type) => events.find((e) => e.type === type);
  const ended = find("round_ended");
  const passed = find("elephant_passed");
  const trig = find("game_end_triggered");
  const started = find("game_started");
  const L = (k, v) => t(k, frame.lang, v);
  if (find("game_over")) return null; // the result says it all
  if (trig) return { text: L("end_triggered", { p: frame.names[trig.player] }), kind: "big" };
  if (ended) return { text: `${L("round_over", { n: ended.round })}${passed ? ` · ${L("elephant_to", { p: frame.names[passed.player] })}` : ""}`, kind: "" };
  if (started) return { text: L("l_game_started", { p: frame.names[started.start_player] }), kind: "" };
  return null;
}

export function prompt(frame) {
  const { lang, game, names } = frame;
  const { pending, state } = game;
  const L = (k, v) => t(k, lang, v);
  if (frame.status === "over") {
    return { kind: "over", colour: null, player: null, announce: null,
      content: [glyph("trophy", 24), h("strong", { "data-winner-text": "" }, winnerText(frame, state.result || []))] };
  }
  const who = pending.player;
  const mine = frame.mine;
  const kinds = new Set(pending.options.map((o) => o[0]));
  let what = "";
  if (pending.effect && pending.effect[0] !== "bonus") {
    try { what = bonusLabel(effectBonus(pending.effect), lang, symbolsOf(frame.sheet)); } catch { what = String(pending.effect[0]); }
  }
  // the icon's place is kept when there is none (an empty, hidden span): the nodes after it keep theirs
  const effect = pending.effect && pending.effect[0] !== "bonus" ? pending.effect : null;
  const icon = kept("icon", `${JSON.stringify(effect)}|${lang}`, () => (effect ? inlineSvg(30, bonusIcon(effectBonus(effect), 15, 15, 13, lang)) : h("span", { class: "prompt-icon", hidden: true })));
  const content = [];
  if (mine) {
    let text;
    if (pending.phase === "pick") {
      text = kinds.has("die") ? L("p_pick") + (kinds.has("karma") ? ` ${L("p_pick_karma")}` : "") : kinds.has("karma") ? L("p_pick_karma") : L("p_pass");
    } else if (pending.phase === "reroll") {
      text = L("p_reroll") + (kinds.has("reroll") ? ` ${L("p_reroll_again")}` : "");
    } else if (what) {
      text = L("p_resolve", { what }) + (kinds.has("road") ? ` · ${L("p_road")}` : "");
    } else {
      text = L("p_bonus");
    }
    const second = pending.phase === "pick" && (state.order || []).slice(0, state.turn ?? 0).includes(who);
    content.push(h("span", { class: "prompt-who" }, L("your_turn")), icon, h("span", { class: "prompt-text" }, text),
      second ? h("span", { class: "badge second-die", "data-cue": "second-die" }, L("second_die")) : null,
      kinds.has("karma") ? h("span", { class: "badge karma-cue", "data-cue": "karma" }, L("karma_cue")) : null);
  } else {
    const name = names[who] ?? "?";
    const text = pending.phase === "pick" ? L("wait_pick", { p: name })
      : pending.phase === "reroll" ? L("wait_reroll", { p: name })
        : what ? L("wait_resolve_theirs", { p: name, what }) : L("wait_bonus_theirs", { p: name });
    const seat = frame.seats[who];
    content.push(h("span", { class: "seat-dot", style: `background:${frame.colours[who]}` }), icon, h("span", { class: "prompt-text" }, text),
      seat?.bot ? h("span", { class: "badge" }, glyph("bot", 15), ` ${t("bot", lang)}`) : null,
      seat && !seat.connected && !seat.bot ? h("span", { class: "badge away" }, t("away", lang)) : null);
  }
  // the round's pick order is shown the whole round, while a die is carried out too (its marks move)
  content.push(pickOrder(state, frame));
  const said = news(frame);
  if (said) content.push(h("span", { class: `prompt-news ${said.kind}`, "data-banner": "" }, said.text));
  for (const n of wasted(frame)) content.push(h("span", { class: "prompt-notice", role: "status", "data-notice": "wasted" }, `⚠ ${n}`));
  return { kind: mine ? "mine" : "", colour: frame.colours[who] || "#666", player: who, content, announce: said ? said.text : null };
}

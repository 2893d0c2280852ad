// The card game's bar: its title ("Round 3") and its sentence, what the player to move is asked in words, with the
// last update's news (a round begun, the end of the game announced).

import { h } from "/ui.js";
import { t } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { winnerText } from "./summary.js";

export function status(frame) {
  return frame.status === "over" ? t("cg_game_over", frame.lang) : t("cg_round", frame.lang, { n: frame.game.state.round });
}

function news(frame) {
  const find = (type) => (frame.events || []).find((e) => e.type === type);
  const trig = find("game_end_triggered");
  const round = find("round_started");
  if (find("game_over")) return null;
  if (trig) return t("cg_news_end", frame.lang, { p: frame.names[trig.player] ?? "?" });
  if (round) return t("cg_news_round", frame.lang, { n: round.round, p: frame.names[round.start_player] ?? "?" });
  return null;
}

export function prompt(frame) {
  const { lang, game, names } = frame;
  const { pending, state } = game;
  const L = (k, v) => t(k, lang, v);
  if (frame.status === "over" || pending.kind === "over") {
    return { kind: "over", colour: null, player: null, announce: null,
      content: [glyph("trophy", 24), h("strong", { "data-winner-text": "" }, winnerText(frame, state.result || []))] };
  }
  const who = pending.player;
  const vars = { p: names[who] ?? "?", n: pending.count ?? 0, r: pending.reward ? L(`cg_tr_${pending.reward}`) : "" };
  const content = [];
  if (frame.mine) {
    content.push(h("span", { class: "prompt-who" }, L("cg_your_turn")), h("span", { class: "prompt-text" }, L(`cg_p_${pending.kind}`, vars)));
  } else {
    const seat = frame.seats[who];
    content.push(h("span", { class: "seat-dot", style: `background:${frame.colours[who]}` }), h("span", { class: "prompt-text" }, L("cg_wait", vars)),
      seat?.bot ? h("span", { class: "badge" }, glyph("bot", 15), ` ${L("bot")}`) : null,
      seat && !seat.connected && !seat.bot ? h("span", { class: "badge away" }, L("away")) : null);
  }
  if (state.end_triggered) content.push(h("span", { class: "badge", "data-cue": "last-round" }, L("cg_last_round")));
  const said = news(frame);
  if (said) content.push(h("span", { class: "prompt-news", "data-banner": "" }, said));
  return { kind: frame.mine ? "mine" : "", colour: frame.colours[who] || "#666", player: who, content, announce: said };
}

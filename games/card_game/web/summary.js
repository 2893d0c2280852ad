// The end of the card game: who won ("You win!" for the winner), the standings (score-track cards turned, then the
// rulebook's tie-break) and where each player's fame and coins came from (the server's breakdown).
//
//   summary(frame) -> {winner, scores, breakdown}; scoreTable(frame, attrs) -> the standings alone

import { h } from "/ui.js";
import { t, num } from "/i18n.js";
import { glyph } from "/glyphs.js";

export function winnerText(frame, res) {
  const { names, me } = frame;
  const won = res.filter((r) => r.winner);
  const L = (k, v) => t(k, frame.lang, v);
  if (won.some((r) => r.seat === me)) return won.length === 1 ? L("cg_you_win") : L("cg_you_share", { p: won.filter((r) => r.seat !== me).map((r) => names[r.seat]).join(" & ") });
  const winners = won.map((r) => names[r.seat] ?? "?");
  return winners.length > 1 ? L("cg_winners_shared", { p: winners.join(" & ") }) : L("cg_winner", { p: winners[0] ?? "?" });
}

export function scoreTable(frame, attrs = {}) {
  const res = frame.game.state.result || [];
  const { names, lang } = frame;
  const L = (k) => t(k, lang);
  return h("table", { class: "result-table", ...attrs },
    h("thead", null, h("tr", null, ["#", L("cg_name"), L("cg_turned_col"), L("cg_fame"), L("cg_coins"), L("cg_tiebreak"), L("cg_karma")].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, res.map((r) => h("tr", { class: r.winner ? "winner" : "", "data-seat": r.seat, "data-rank": r.place },
      h("td", { class: "rank" }, r.winner ? glyph("trophy", 22) : String(r.place)),
      h("td", null, h("span", { class: "seat-dot", style: `background:${frame.colours[r.seat]}` }), names[r.seat] ?? "?"),
      h("td", { class: "num" }, num(r.flipped, lang)),
      h("td", { class: "num" }, num(r.fame, lang)),
      h("td", { class: "num" }, num(r.coins, lang)),
      h("td", { class: "num" }, num(r.tiebreak, lang)),
      h("td", { class: "num" }, num(r.karma, lang))))));
}

// One table per track (fame, coins): a row per source that gave anyone something, a column per player.
function sourceTable(frame, res, bd, track) {
  const { names, lang } = frame;
  const L = (k) => t(k, lang);
  const sources = [...new Set(bd.flatMap((b) => Object.keys(b?.[track] || {})))];
  const total = (seat) => Object.values(bd[seat]?.[track] || {}).reduce((a, b) => a + b, 0);
  return h("table", { class: "result-table breakdown", "data-breakdown": track },
    h("caption", null, L(`cg_bd_${track}`)),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, L("cg_bd_source")), res.map((r) => h("th", { scope: "col", class: "num" }, names[r.seat] ?? "?")))),
    h("tbody", null, sources.map((src) => h("tr", { "data-source": src }, h("th", { scope: "row" }, L(`cg_src_${src}`)),
      res.map((r) => h("td", { class: "num" }, num(bd[r.seat]?.[track]?.[src] || 0, lang)))))),
    h("tfoot", null, h("tr", null, h("th", { scope: "row" }, L("cg_bd_total")), res.map((r) => h("td", { class: "num" }, num(total(r.seat), lang))))));
}

export function summary(frame) {
  const res = frame.game.state.result || [];
  const bd = frame.game.state.breakdown || null;
  const L = (k, v) => t(k, frame.lang, v);
  return {
    winner: winnerText(frame, res),
    scores: [h("p", { class: "muted" }, L("cg_how_won")), h("div", { class: "table-scroll" }, scoreTable(frame))],
    breakdown: bd ? h("section", { class: "breakdown-block", "aria-labelledby": "cg-bd-title" },
      h("h3", { id: "cg-bd-title" }, L("cg_bd_title")),
      h("div", { class: "table-scroll" }, sourceTable(frame, res, bd, "fame")),
      h("div", { class: "table-scroll" }, sourceTable(frame, res, bd, "coins"))) : null,
  };
}

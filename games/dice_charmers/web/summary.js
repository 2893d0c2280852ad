// The end of the game: who won in words ("You win!" for the winner), the final score table with the tie-breaks in
// plain words, why a game without a crossing ended (the server's round limit), and each player's fame and money by
// source. The table shows them in its result box, around its own parts (play again, the series, the dice check).
//
//   summary(frame) -> {winner, scores, breakdown}: the winner's sentence, the score table, the sources table
//   scoreTable(frame, attrs) -> the score table alone (the replay viewer's)

import { h } from "/ui.js";
import { t, num } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { overlapWords } from "./tracks.js";

export function winnerText(frame, res) {
  const { names, me } = frame;
  const won = res.filter((r) => r.winner);
  const mine = won.some((r) => r.seat === me);
  const L = (k, v) => t(k, frame.lang, v);
  if (mine && won.length === 1) return L("you_win");
  if (mine) return L("you_share", { p: won.filter((r) => r.seat !== me).map((r) => names[r.seat]).join(" & ") });
  const winners = won.map((r) => names[r.seat]);
  return winners.length > 1 ? L("winners_shared", { p: winners.join(" & ") }) : L("winner", { p: winners[0] ?? "?" });
}

export function scoreTable(frame, attrs = {}) {
  const res = frame.game.state.result || [];
  const { names, lang } = frame;
  const L = (k, v) => t(k, lang, v);
  const rows = res.map((r, i) => {
    const next = res[i + 1];
    const reason = r.ahead_by ? L(`tie_${r.ahead_by}`) + (next && r.ahead_by !== "shared" ? ` (> ${names[next.seat]})` : "") : "";
    return h("tr", { class: r.winner ? "winner" : "", "data-seat": r.seat, "data-rank": r.rank },
      h("td", { class: "rank" }, r.winner ? glyph("trophy", 22) : String(r.rank)),
      h("td", null, h("span", { class: "seat-dot", style: `background:${frame.colours[r.seat]}` }), names[r.seat]),
      h("td", { class: "num" }, String(r.fame)),
      h("td", { class: "num" }, String(r.money)),
      h("td", { class: `num${r.crossed ? " crossed" : ""}`, "data-overlap": r.overlap }, overlapWords(r.overlap, lang)),
      h("td", { class: "num" }, `${r.karma_gained} / ${r.karma_used}`),
      h("td", { class: "reason", "data-ahead-by": r.ahead_by || "" }, reason));
  });
  return h("table", { class: "result-table", ...attrs },
    h("thead", null, h("tr", null, ["#", L("name"), L("fame"), L("money"), L("overlap"), L("karma_col_plain"), L("decided_by")].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", null, rows));
}

export function summary(frame) {
  const res = frame.game.state.result || [];
  return {
    winner: winnerText(frame, res),
    scores: [
      // only the server's round limit ends a game in which nobody's tracks crossed
      res.some((r) => r.crossed) ? null : h("p", { class: "muted", "data-ended": "round_limit" }, t("round_limit", frame.lang, { n: frame.game.state.round })),
      h("div", { class: "table-scroll" }, scoreTable(frame)),
    ],
    breakdown: breakdown(frame, res),
  };
}

// The engine's sources of fame and money (engine/effects.py SOURCES, a test keeps them equal), in the order the
// breakdown lists them.
export const SOURCES = ["building", "market", "river", "palace", "track_bonus", "province_bonus", "tent_bonus",
  "column_bonus", "upgrade_bonus", "karma_bonus", "bonus"];

// One table per track: a row per source that gave anyone something, a column per player, and the total.
function sourceTable(frame, res, track) {
  const { names, lang } = frame;
  const L = (k) => t(k, lang);
  const key = `${track}_by_source`;
  const used = SOURCES.filter((src) => res.some((r) => (r[key] || {})[src]));
  const cell = (n) => h("td", { class: "num" }, num(n || 0, lang));
  return h("table", { class: "result-table breakdown", "data-breakdown": track },
    h("caption", null, L(`bd_${track}`)),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, L("bd_source")),
      res.map((r) => h("th", { scope: "col", class: "num", "data-seat": r.seat }, names[r.seat])))),
    h("tbody", null, used.map((src) => h("tr", { "data-source": src },
      h("th", { scope: "row" }, L(`src_${src}`)),
      res.map((r) => cell((r[key] || {})[src]))))),
    h("tfoot", null, h("tr", { "data-source": "total" }, h("th", { scope: "row" }, L("bd_total")),
      res.map((r) => cell(r[track])))));
}

function breakdown(frame, res) {
  if (!res.some((r) => r.fame_by_source && r.money_by_source)) return null; // a result from an older server
  return h("section", { class: "breakdown-block", "aria-labelledby": "bd-title" },
    h("h3", { id: "bd-title" }, t("bd_title", frame.lang)),
    h("div", { class: "table-scroll" }, sourceTable(frame, res, "fame")),
    h("div", { class: "table-scroll" }, sourceTable(frame, res, "money")));
}

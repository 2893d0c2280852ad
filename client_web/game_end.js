// The end of the game: who won in words ("You win!" for the winner), and the final score table with the
// tie-breaks in plain words, each player's fame and money by source, and the dice check behind a "Verify the
// dice" link.

import { glyph } from "./glyphs.js";
import { html } from "./svg.js";
import { num, overlapWords } from "./words.js";
import { SEAT_COLOURS } from "./game.js";
import { roomGames } from "./room_games.js";
import { playAgainBox, seriesTable } from "./series.js";

export function winnerText(view, res) {
  const names = view.names();
  const me = view.mySeat();
  const won = res.filter((r) => r.winner);
  const mine = won.some((r) => r.seat === me);
  if (mine && won.length === 1) return view.L("you_win");
  if (mine) return view.L("you_share", { p: won.filter((r) => r.seat !== me).map((r) => names[r.seat]).join(" & ") });
  const winners = won.map((r) => names[r.seat]);
  return winners.length > 1 ? view.L("winners_shared", { p: winners.join(" & ") }) : view.L("winner", { p: winners[0] ?? "?" });
}

export function showResult(view) {
  const S = view.S;
  const res = S.game.state.result;
  if (!res) return;
  view.layers.querySelectorAll("[data-overlay]").forEach((n) => n.remove());
  const names = view.names();
  const rows = res.map((r, i) => {
    const next = res[i + 1];
    const reason = r.ahead_by ? view.L(`tie_${r.ahead_by}`) + (next && r.ahead_by !== "shared" ? ` (> ${names[next.seat]})` : "") : "";
    return html("tr", { class: `${r.winner ? "winner" : ""}`, "data-seat": r.seat, "data-rank": r.rank },
      html("td", { class: "rank" }, r.winner ? glyph("trophy", 22) : String(r.rank)),
      html("td", null, html("span", { class: "seat-dot", style: `background:${SEAT_COLOURS[r.seat]}` }), names[r.seat]),
      html("td", { class: "num" }, String(r.fame)),
      html("td", { class: "num" }, String(r.money)),
      html("td", { class: `num${r.crossed ? " crossed" : ""}`, "data-overlap": r.overlap }, overlapWords(r.overlap, view.lang)),
      html("td", { class: "num" }, `${r.karma_gained} / ${r.karma_used}`),
      html("td", { class: "reason", "data-ahead-by": r.ahead_by || "" }, reason));
  });
  const table = html("table", { class: "result-table" },
    html("thead", null, html("tr", null, ...["#", view.L("name"), view.L("fame"), view.L("money"), view.L("overlap"), view.L("karma_col_plain"), view.L("decided_by")].map((h) => html("th", null, h)))),
    html("tbody", null, rows));
  const seed = S.room.seed ? html("details", { class: "seed small" }, html("summary", null, view.L("verify_dice")),
    html("p", { class: "muted" }, view.L("verify_text", { s: S.room.seed.slice(0, 16) }))) : null;
  view.overlay(html("div", { class: "result" },
    html("h2", null, view.L("final_scores")),
    html("p", { class: "result-winner", "data-winner-text": "" }, glyph("trophy", 26), ` ${winnerText(view, res)}`),
    // Only the server's round limit ends a game in which nobody's tracks crossed.
    res.some((r) => r.crossed) ? null : html("p", { class: "muted", "data-ended": "round_limit" }, view.L("round_limit", { n: S.game.state.round })),
    html("div", { class: "table-scroll" }, table),
    // the room stays together: "Play again", who is ready, and the series so far (series.js)
    playAgainBox(view.actions), seriesTable(S.room, view.lang, S.seatId),
    breakdown(view, res), seed, view.actions.diceCheck ? view.actions.diceCheck.node() : null,
    roomGames(view.lang, S.room.code, { wait: true })),
  { "data-overlay": "result" });
}

// The engine's sources of fame and money (engine/effects.py SOURCES, a test keeps them equal), in the order the
// breakdown lists them.
export const SOURCES = ["building", "market", "river", "palace", "track_bonus", "province_bonus", "tent_bonus",
  "column_bonus", "upgrade_bonus", "karma_bonus", "bonus"];

// One table per track: a row per source that gave anyone something, a column per player, and the total.
function sourceTable(view, res, track) {
  const names = view.names();
  const key = `${track}_by_source`;
  const used = SOURCES.filter((src) => res.some((r) => (r[key] || {})[src]));
  const cell = (n) => html("td", { class: "num" }, num(n || 0, view.lang));
  return html("table", { class: "result-table breakdown", "data-breakdown": track },
    html("caption", null, view.L(`bd_${track}`)),
    html("thead", null, html("tr", null, html("th", { scope: "col" }, view.L("bd_source")),
      ...res.map((r) => html("th", { scope: "col", class: "num", "data-seat": r.seat }, names[r.seat])))),
    html("tbody", null, used.map((src) => html("tr", { "data-source": src },
      html("th", { scope: "row" }, view.L(`src_${src}`)),
      ...res.map((r) => cell((r[key] || {})[src]))))),
    html("tfoot", null, html("tr", { "data-source": "total" }, html("th", { scope: "row" }, view.L("bd_total")),
      ...res.map((r) => cell(r[track])))));
}

function breakdown(view, res) {
  if (!res.some((r) => r.fame_by_source && r.money_by_source)) return null; // a result from an older server
  return html("section", { class: "breakdown-block", "aria-labelledby": "bd-title" },
    html("h3", { id: "bd-title" }, view.L("bd_title")),
    html("div", { class: "table-scroll" }, sourceTable(view, res, "fame")),
    html("div", { class: "table-scroll" }, sourceTable(view, res, "money")));
}

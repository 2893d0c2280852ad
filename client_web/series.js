// The room's series (rematch, issue 17): the table of its games so far, who wants to play again, and the
// host's "new game with this table", which takes everyone back to the lobby with the same seats, links and
// settings (server/series.py, server/lobby_changes.py; docs/protocol.md "Rematch, series and bot seats").

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { glyph } from "./glyphs.js";
import { num, plural } from "./words.js";
import { MSG, ROLES } from "./protocol.js";

let ids = 0;

/** Whether this page may do what only the host may: it holds the host's seat, or the host token while no seat is the host. */
export function amHost(actions) {
  const S = actions.state;
  const room = S.room;
  if (!room) return false;
  if (room.host !== null && room.host === S.seatId) return true;
  return !!(actions.stored ? actions.stored() : {}).host_token && room.host === null;
}

const signed = (x, lang) => (x > 0 ? `+${num(Math.round(x * 100) / 100, lang)}` : num(Math.round(x * 100) / 100, lang));

/** The series table: every seat's wins, crossing and fame over the room's finished games (none before the first). */
export function seriesTable(room, lang, seatId) {
  const s = room.series;
  if (!s || s.played < 1) return null;
  const L = (k, v) => t(k, lang, v);
  const id = `series-title-${++ids}`;
  const rows = [...s.seats].sort((a, b) => b.wins - a.wins || b.overlap - a.overlap);
  const top = rows.length ? rows[0].wins : 0;
  return html("section", { class: "series", "data-series": "", "data-played": s.played, "aria-labelledby": id },
    html("h3", { id }, glyph("trophy", 18), ` ${L("series_title")}`),
    html("p", { class: "muted small", "data-series-played": s.played }, plural("series_played", lang, s.played)),
    html("div", { class: "table-scroll" }, html("table", { class: "result-table series-table" },
      html("caption", { class: "visually-hidden" }, L("series_caption")),
      html("thead", null, html("tr", null,
        html("th", { scope: "col" }, L("name")),
        html("th", { scope: "col", class: "num" }, L("series_wins")),
        html("th", { scope: "col", class: "num" }, L("series_overlap")),
        html("th", { scope: "col", class: "num" }, L("series_fame")))),
      html("tbody", null, rows.map((r) => html("tr", { class: r.wins === top && top > 0 ? "winner" : "", "data-series-seat": r.id, "data-wins": r.wins },
        html("th", { scope: "row" }, r.name, r.id === seatId ? html("span", { class: "muted" }, ` ${L("you_paren")}`) : null),
        html("td", { class: "num" }, String(r.wins)),
        html("td", { class: "num" }, signed(r.overlap, lang)),
        html("td", { class: "num" }, String(r.fame))))))));
}

/** A seat's "ready" mark (a bot is always ready; its seat shows the bot badge instead). */
export function readyBadge(seat, lang) {
  return seat.ready && !seat.kind ? html("span", { class: "badge ready", "data-ready": "1" }, `✓ ${t("series_ready", lang)}`) : null;
}

/** The player's own "Play again" switch (a toggle button: pressed while this seat is ready). */
export function readyToggle(actions, lang) {
  const S = actions.state;
  const me = S.room.seats.find((s) => s.id === S.seatId);
  if (S.role !== ROLES.PLAYER || !me) return null;
  const b = html("button", { type: "button", class: "btn", "data-action": "ready", onclick: () => {
    const now = S.room.seats.find((s) => s.id === S.seatId);
    if (now) actions.send(MSG.READY, { ready: !now.ready });
  } });
  paintToggle(b, me, lang);
  return b;
}

function paintToggle(b, me, lang) {
  b.classList.toggle("primary", !!me.ready);
  b.setAttribute("aria-pressed", me.ready ? "true" : "false");
  b.textContent = me.ready ? `✓ ${t("play_again", lang)}` : t("play_again", lang);
}

// Who is ready: a count a screen reader reads out when it changes, and the list of seats.
function paintReady(count, list, room, lang) {
  const n = room.seats.filter((s) => s.ready).length;
  count.dataset.readyCount = String(n);
  count.textContent = t("series_ready_n", lang, { n, m: room.seats.length });
  list.replaceChildren(...room.seats.map((s) => html("li", { "data-seat-id": s.id, "data-ready": s.ready ? "1" : "0" },
    html("span", { "aria-hidden": "true" }, s.ready ? "✓ " : "… "), s.name, " · ",
    s.kind ? t("bot_seat", lang) : t(s.ready ? "series_ready" : "series_not_ready", lang))));
}

/** The end of a game: "Play again" for each player, who is ready, and the host's next game with this table.
 * Drawn once; each change of the room updates it in place, so the focus stays on the button a player pressed. */
export function playAgainBox(actions) {
  const S = actions.state;
  const lang = S.lang;
  const host = amHost(actions);
  const count = html("p", { class: "small", role: "status", "aria-live": "polite" });
  const list = html("ul", { class: "ready-list", "data-list": "ready" });
  const toggle = readyToggle(actions, lang);
  const rematch = host ? html("button", { type: "button", class: "btn primary", "data-action": "rematch" }, glyph("play", 16), ` ${t("rematch_host", lang)}`) : null;
  rematch?.addEventListener("click", async () => {
    rematch.disabled = true;
    if (!(await actions.send(MSG.REMATCH, {}))) rematch.disabled = false;
  });
  const box = html("div", { class: "play-again", "data-play-again": "" },
    html("h3", null, t("play_again_title", lang)),
    html("div", { class: "ready-box" }, count, list),
    html("div", { class: "actions" }, toggle, rematch,
      html("button", { type: "button", class: "btn secondary", "data-action": "new-game", onclick: () => actions.home() }, t("leave", lang))),
    html("p", { class: "muted small" }, t(host ? "rematch_hint" : "rematch_waiting", lang)));
  box.paint = () => {
    const room = actions.state.room;
    paintReady(count, list, room, lang);
    const me = room.seats.find((s) => s.id === actions.state.seatId);
    if (toggle && me) paintToggle(toggle, me, lang);
  };
  box.paint();
  return box;
}

/** Called on every redraw of the finished game: the open result's "Play again" box follows the room. */
export function refreshPlayAgain(layers) {
  const box = layers.querySelector("[data-play-again]");
  if (box && box.paint) box.paint();
}

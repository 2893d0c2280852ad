// The room's series (rematch): the table of its games so far, who wants to play again, the host's "new game with
// this table" (which takes everyone back to the lobby with the same seats, links and settings: server's rooms/series
// and lobby_changes; docs/protocol.md "Rematch, series and bot seats"), and the games played in the room, each with
// a link to its replay (GET /api/rooms/CODE/games, newest first; /games/ID).

import { h, Component } from "./ui.js";
import { t, num, plural } from "./i18n.js";
import { glyph } from "./glyphs.js";
import { MSG, ROLES } from "./protocol.js";
import { send, home } from "./session.js";

let ids = 0;

const signed = (x, lang) => (x > 0 ? `+${num(Math.round(x * 100) / 100, lang)}` : num(Math.round(x * 100) / 100, lang));

// The series table: every seat's wins and the sums its game keeps over the room's finished games (the Dice
// Charmers' crossing and fame, the card game's fame and coins: each a column, in the game's order, named by the
// catalogue's `series_<key>`), none before the first game.
export function seriesTable(room, lang, seatId) {
  const s = room.series;
  if (!s || s.played < 1) return null;
  const L = (k, v) => t(k, lang, v);
  const id = `series-title-${++ids}`;
  const sums = [...new Set(s.seats.flatMap((r) => Object.keys(r).filter((k) => k !== "wins" && typeof r[k] === "number")))];
  const first = sums[0];
  const rows = [...s.seats].sort((a, b) => b.wins - a.wins || (first ? (b[first] ?? 0) - (a[first] ?? 0) : 0));
  const top = rows.length ? rows[0].wins : 0;
  return h("section", { class: "series", "data-series": "", "data-played": s.played, "aria-labelledby": id },
    h("h3", { id }, glyph("trophy", 18), ` ${L("series_title")}`),
    h("p", { class: "muted small", "data-series-played": s.played }, plural("series_played", lang, s.played)),
    h("div", { class: "table-scroll" }, h("table", { class: "result-table series-table" },
      h("caption", { class: "visually-hidden" }, L("series_caption")),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, L("name")),
        h("th", { scope: "col", class: "num" }, L("series_wins")),
        sums.map((k) => h("th", { scope: "col", class: "num", "data-sum": k }, L(`series_${k}`))))),
      h("tbody", null, rows.map((r) => h("tr", { class: r.wins === top && top > 0 ? "winner" : "", "data-series-seat": r.id, "data-wins": r.wins },
        h("th", { scope: "row" }, r.name, r.id === seatId ? h("span", { class: "muted" }, ` ${L("you_paren")}`) : null),
        h("td", { class: "num" }, String(r.wins)),
        // (a crossing is said with its sign: ahead or behind)
        sums.map((k) => h("td", { class: "num" }, k === "overlap" ? signed(r[k] ?? 0, lang) : num(r[k] ?? 0, lang)))))))));
}

// A seat's "ready" mark (a bot is always ready; its seat shows the bot badge instead).
export function readyBadge(seat, lang) {
  return seat.ready && !seat.kind ? h("span", { class: "badge ready", "data-ready": "1" }, `✓ ${t("series_ready", lang)}`) : null;
}

// The player's own "Play again" switch (a toggle button: pressed while this seat is ready).
export function readyToggle(state) {
  const me = state.room.seats.find((s) => s.id === state.seatId);
  if (state.role !== ROLES.PLAYER || !me) return null;
  const label = t("play_again", state.lang);
  return h("button", { type: "button", class: `btn${me.ready ? " primary" : ""}`, "data-action": "ready", "aria-pressed": me.ready ? "true" : "false",
    onClick: () => send(MSG.READY, { ready: !me.ready }) }, me.ready ? `✓ ${label}` : label);
}

// The end of a game: "Play again" for each player, who is ready, and the host's next game with this table.
export class PlayAgain extends Component {
  async rematch() {
    this.setState({ sent: true });
    if (!(await send(MSG.REMATCH, {}))) this.setState({ sent: false });
  }

  render({ state, host }) {
    const { room, lang } = state;
    const n = room.seats.filter((s) => s.ready).length;
    return h("div", { class: "play-again", "data-play-again": "" },
      h("h3", null, t("play_again_title", lang)),
      h("div", { class: "ready-box" },
        h("p", { class: "small", role: "status", "aria-live": "polite", "data-ready-count": String(n) }, t("series_ready_n", lang, { n, m: room.seats.length })),
        h("ul", { class: "ready-list", "data-list": "ready" }, room.seats.map((s) => h("li", { key: s.id, "data-seat-id": s.id, "data-ready": s.ready ? "1" : "0" },
          h("span", { "aria-hidden": "true" }, s.ready ? "✓ " : "… "), s.name, " · ",
          s.kind ? t("bot_seat", lang) : t(s.ready ? "series_ready" : "series_not_ready", lang))))),
      h("div", { class: "actions" }, readyToggle(state),
        host ? h("button", { type: "button", class: "btn primary", "data-action": "rematch", disabled: !!this.state.sent, onClick: () => this.rematch() }, glyph("play", 16), ` ${t("rematch_host", lang)}`) : null,
        h("button", { type: "button", class: "btn secondary", "data-action": "new-game", onClick: () => home() }, t("leave", lang))),
      h("p", { class: "muted small" }, t(host ? "rematch_hint" : "rematch_waiting", lang)));
  }
}

const TRIES = 6;
const FRESH_MS = 15000; // the lobby asks again only this long after (a game may have ended since)

// The games played in the room, each a link to its replay; nothing while the room has none. The game just finished
// is archived a moment after its last decision, so the end of a game (`wait`) asks again a few times.
export class RoomGames extends Component {
  componentDidMount() {
    this.load(this.props.wait ? TRIES : 1);
  }

  componentDidUpdate() {
    if (Date.now() - this.at > FRESH_MS) this.load(1);
  }

  componentWillUnmount() {
    this.gone = true;
  }

  async load(tries) {
    this.at = Date.now();
    let games = [];
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(this.props.code)}/games`);
      if (res.ok) games = (await res.json()).games || [];
    } catch { /* offline: nothing to list */ }
    if (this.gone) return;
    if (!games.length) {
      if (tries > 1) setTimeout(() => { if (!this.gone) this.load(tries - 1); }, 500);
      return;
    }
    this.setState({ games });
  }

  render({ lang }) {
    const games = this.state.games || [];
    const n = games.length;
    return h("section", { class: "room-games", "data-room-games": "", hidden: !n },
      n ? [h("h3", null, t("replay_games", lang)), h("ul", { class: "room-games-list" }, games.map((g, i) => h("li", null, h("a", {
        class: "btn replay-link", href: `/games/${g.id}`, "data-game": g.id, "aria-label": t("replay_watch", lang, { n: n - i }),
      }, t("replay_game_n", lang, { n: n - i, p: g.players.join(", ") })))))] : null);
  }
}

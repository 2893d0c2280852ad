// The side column of the game screen: the players with their fame, money, karma and crossing, and the game
// log, drawn again only when what they show changed (the log appends its new lines).

import { glyph } from "./glyphs.js";
import { html, morph } from "./svg.js";
import { overlapWords } from "./words.js";
import { SEAT_COLOURS } from "./game.js";

const timeFormats = new Map();
function timeFormat(lang) {
  if (!timeFormats.has(lang)) timeFormats.set(lang, new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" }));
  return timeFormats.get(lang);
}

export function renderPlayers(view) {
  const S = view.S;
  if (!view.playersBox || !S.game) return;
  const { state, pending } = S.game;
  const me = view.mySeat();
  const key = JSON.stringify([S.room.seats, S.room.host, S.room.spectators, pending.player, state.start_player, state.players.map((p) => [p.fame, p.money, p.karma_gained, p.karma_used, p.overlap])]);
  if (key === view.playersKey) return;
  view.playersKey = key;
  const list = html("ul", { class: "player-list", "data-list": "players" });
  // a row already on the page under the same key is listed by its key alone: morph keeps it as it is
  const shown = view.playersBox._rows || new Set();
  const rows = new Set();
  S.room.seats.forEach((s, i) => {
    const p = state.players[i];
    if (!p) return;
    const rowKey = JSON.stringify([view.lang, s.name, s.connected, s.bot, i === me, pending.player === i, state.start_player === i, S.room.host === s.id, p.fame, p.money, p.karma_gained - p.karma_used, p.overlap]);
    rows.add(rowKey);
    if (shown.has(rowKey)) { list.append(html("li", { "data-key": rowKey })); return; }
    list.append(html("li", { class: `player${pending.player === i ? " current" : ""}${i === me ? " you" : ""}`, "data-seat": i, "data-connected": s.connected ? "1" : "0", "data-key": rowKey },
      html("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }),
      html("span", { class: "player-name" }, s.name, i === me ? html("span", { class: "muted" }, ` ${view.L("you_paren")}`) : null,
        state.start_player === i ? html("span", { class: "holder", title: view.L("elephant") }, glyph("elephant", 18)) : null,
        S.room.host === s.id ? html("span", { class: "holder", title: view.L("host") }, glyph("crown", 15)) : null),
      html("span", { class: "player-stats" },
        html("span", { class: "stat fame", title: view.L("fame") }, `★ ${p.fame}`),
        html("span", { class: "stat money", title: view.L("money") }, `₹ ${p.money}`),
        html("span", { class: "stat karma", title: view.L("karma") }, `☸ ${p.karma_gained - p.karma_used}`),
        html("span", { class: `stat overlap${p.overlap >= 0 ? " crossed" : ""}`, title: view.L("overlap") }, overlapWords(p.overlap, view.lang))),
      html("span", { class: `presence ${s.bot ? "bot" : s.connected ? "on" : "off"}` }, html("span", { class: "dot" }), s.bot ? view.L("bot") : s.connected ? view.L("online") : view.L("away"))));
  });
  // drawn afresh and morphed into the list on the page (it holds no listeners): a player's row whose key is
  // unchanged is kept as it is, so only the rows that changed restyle
  const fresh = view.playersBox.cloneNode(false);
  fresh.append(html("h2", null, view.L("players")), list,
    html("p", { class: "muted small", "data-count": "spectators", "data-n": S.room.spectators }, glyph("eye", 15), ` ${view.L("watching_n", { n: S.room.spectators })}`));
  morph(view.playersBox, fresh);
  view.playersBox._rows = rows;
}

export function renderLog(view) {
  const S = view.S;
  const lines = S.log.slice(-LOG_KEEP);
  const at = view.logList && view.logLang === S.lang ? lines.lastIndexOf(view.logLast) : -1;
  if (at < 0 || !view.logList) {
    const list = html("ol", { class: "log-list", "data-log": "", tabindex: 0, "aria-label": view.L("log") });
    // the list follows the newest line while the reader is at its end (a scroll event, layout already done)
    list.addEventListener("scroll", () => { view.logAtEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8; }, { passive: true });
    view.logList = list;
    view.logAtEnd = true;
    view.logBox.replaceChildren(html("h2", null, view.L("log")), list);
    view.logLang = S.lang;
  }
  const fresh = at < 0 ? lines : lines.slice(at + 1);
  if (!fresh.length) return;
  const list = view.logList;
  const times = timeFormat(S.lang);
  // oldest first, the new lines appended: the lines already shown keep their place (a line that moves is
  // repainted and rastered again, and a list whose lines all moved on every update cost ~2 ms per update)
  list.append(...fresh.map((line) => {
    const when = line.time ? new Date(line.time * 1000) : null;
    const stamp = when ? html("time", { class: "log-time", datetime: when.toISOString() }, times.format(when)) : null;
    return html("li", { class: `log-line log-${line.kind}`, "data-v": line.v ?? "", style: line.seat !== null && line.seat !== undefined ? `--seat:${SEAT_COLOURS[line.seat]}` : "" }, stamp, line.text);
  }));
  // the oldest lines go in batches (removing them moves every line left)
  if (list.childElementCount > LOG_KEEP + LOG_SLACK) while (list.childElementCount > LOG_KEEP) list.firstChild.remove();
  view.logLast = lines[lines.length - 1];
  // scrolled to the new end in the next frame, before its layout (so no layout of its own)
  if (view.logAtEnd && !view.logScroll) {
    view.logScroll = requestAnimationFrame(() => {
      view.logScroll = 0;
      if (view.logAtEnd) list.scrollTop = list.scrollHeight;
    });
  }
}

const LOG_KEEP = 150; // lines on the page (the state keeps 400)
const LOG_SLACK = 50;

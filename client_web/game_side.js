// The side column of the game screen: the players with their fame, money, karma and crossing, and the game
// log, drawn again only when what they show changed (the log appends its new lines).

import { glyph } from "./glyphs.js";
import { html, put } from "./svg.js";
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
  const key = JSON.stringify([view.lang, S.room.seats, S.room.host, S.room.spectators, pending.player, state.start_player, state.players.map((p) => [p.fame, p.money, p.karma_gained, p.karma_used, p.overlap])]);
  if (key === view.playersKey) return;
  view.playersKey = key;
  const box = view.playersBox;
  if (!box._list || box._lang !== view.lang) {
    box._lang = view.lang;
    box._rows = [];
    box._list = html("ul", { class: "player-list", "data-list": "players" });
    box._count = html("p", { class: "muted small", "data-count": "spectators" });
    box.replaceChildren(html("h2", null, view.L("players")), box._list, box._count);
  }
  // each row is kept and only its changed texts and classes are written: a turn passing restyles two rows'
  // borders, a score one number (a row drawn anew is styled, laid out and its text shaped again)
  let n = 0;
  S.room.seats.forEach((s, i) => {
    const p = state.players[i];
    if (!p) return;
    const r = box._rows[n] || (box._rows[n] = playerRow(view, box._list));
    n += 1;
    put(r.li, "class", `player${pending.player === i ? " current" : ""}${i === me ? " you" : ""}`);
    put(r.li, "data-seat", String(i));
    put(r.li, "data-connected", s.connected ? "1" : "0");
    const head = JSON.stringify([i, s.name, i === me, state.start_player === i, S.room.host === s.id]);
    if (r.head !== head) {
      r.head = head;
      r.colour.style.background = SEAT_COLOURS[i];
      r.name.replaceChildren(...[s.name, i === me && html("span", { class: "muted" }, ` ${view.L("you_paren")}`),
        state.start_player === i && html("span", { class: "holder", title: view.L("elephant") }, glyph("elephant", 18)),
        S.room.host === s.id && html("span", { class: "holder", title: view.L("host") }, glyph("crown", 15))].filter(Boolean));
    }
    put(r.fame, "text", `★ ${p.fame}`);
    put(r.money, "text", `₹ ${p.money}`);
    put(r.karma, "text", `☸ ${p.karma_gained - p.karma_used}`);
    put(r.overlap, "text", overlapWords(p.overlap, view.lang));
    put(r.overlap, "class", `stat overlap${p.overlap >= 0 ? " crossed" : ""}`);
    put(r.presence, "class", `presence ${s.bot ? "bot" : s.connected ? "on" : "off"}`);
    put(r.said, "text", s.bot ? view.L("bot") : s.connected ? view.L("online") : view.L("away"));
  });
  for (const r of box._rows.splice(n)) r.li.remove();
  if (box._count.dataset.n !== String(S.room.spectators)) {
    box._count.dataset.n = String(S.room.spectators);
    box._count.replaceChildren(glyph("eye", 15), ` ${view.L("watching_n", { n: S.room.spectators })}`);
  }
}

// A player's row, empty: renderPlayers fills it in and keeps it.
function playerRow(view, list) {
  const stat = (cls, k) => html("span", { class: `stat ${cls}`, title: view.L(k) });
  const r = { head: null, colour: html("span", { class: "seat-colour" }), name: html("span", { class: "player-name" }),
    fame: stat("fame", "fame"), money: stat("money", "money"), karma: stat("karma", "karma"), overlap: stat("overlap", "overlap"),
    said: html("span"), presence: html("span", { class: "presence" }) };
  r.presence.append(html("span", { class: "dot" }), r.said);
  r.li = html("li", { class: "player" }, r.colour, r.name, html("span", { class: "player-stats" }, r.fame, r.money, r.karma, r.overlap), r.presence);
  list.append(r.li);
  return r;
}

export function renderLog(view) {
  const S = view.S;
  // a log out of sight is brought up to date when it comes into view (an IntersectionObserver): at 1280x900 the
  // side column shows it only when scrolled, a phone far below the sheet, and its lines were a tenth of an update
  if (view.logList && view.logOutOfSight && view.logLang === S.lang) return;
  const lines = S.log.slice(-LOG_KEEP);
  const at = view.logList && view.logLang === S.lang ? lines.lastIndexOf(view.logLast) : -1;
  if (at < 0 || !view.logList) {
    const list = html("ol", { class: "log-list", "data-log": "", tabindex: 0, "aria-label": view.L("log") });
    // the list follows the newest line while the reader is at its end; the page's own scroll to the end counts
    // as at the end even when lines came after it and before its scroll event
    list.addEventListener("scroll", () => {
      const top = list.scrollTop;
      view.logAtEnd = top === view.logTop || top + list.clientHeight >= list.scrollHeight - 8;
    }, { passive: true });
    view.logSight?.disconnect();
    view.logOutOfSight = false; // (until the observer says otherwise)
    view.logSight = new IntersectionObserver((entries) => {
      const away = !entries[entries.length - 1].isIntersecting;
      const back = view.logOutOfSight && !away;
      view.logOutOfSight = away;
      if (back && view.logList === list) renderLog(view);
    });
    view.logSight.observe(list);
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
  // repainted and rastered again: prepended, all 150 moved on every update, ~400 display items)
  list.append(...fresh.map((line) => {
    const when = line.time ? new Date(line.time * 1000) : null;
    const stamp = when ? html("time", { class: "log-time", datetime: when.toISOString() }, times.format(when)) : null;
    return html("li", { class: `log-line log-${line.kind}`, "data-v": line.v ?? "", style: line.seat !== null && line.seat !== undefined ? `--seat:${SEAT_COLOURS[line.seat]}` : "" }, stamp, line.text);
  }));
  // the oldest lines go in batches (removing them moves every line up)
  if (list.childElementCount > LOG_KEEP + LOG_SLACK) while (list.childElementCount > LOG_KEEP) list.firstChild.remove();
  view.logLast = lines[lines.length - 1];
  // scrolled to the new end now, at the end of the update's drawing: its layout is the one the next frame needs
  // anyway, and the scroll's events fire in that frame (scrolled in the frame, they asked for one more)
  logToEnd(view);
}

function logToEnd(view) {
  const list = view.logList;
  if (!list || !view.logAtEnd) return;
  // a hidden tab lays nothing out: scrolled when it is seen again
  if (document.hidden) {
    if (!view.logLater) {
      view.logLater = true;
      document.addEventListener("visibilitychange", () => { view.logLater = false; logToEnd(view); }, { once: true });
    }
    return;
  }
  list.scrollTop = list.scrollHeight;
  view.logTop = list.scrollTop;
}

const LOG_KEEP = 150; // lines on the page (the state keeps 400)
const LOG_SLACK = 50;

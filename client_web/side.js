// The game screen's side column: the players (colour, name, host and the game's marks, the game's numbers, who is
// connected) and the room's log (oldest line first, each in the player's language: the room's events described here,
// the game's by the game), written only while it can be seen, kept scrolled to its end while the reader is there.

import { h, Component, kept } from "./ui.js";
import { t } from "./i18n.js";
import { glyph, SEAT_COLOURS } from "./glyphs.js";

// ---- the log's lines ---------------------------------------------------------------------------------------

// A line for a room's event (who holds a seat, settings, bots, the clock), or null: the game's events are the game's.
function describeRoom(e, ctx) {
  const { lang } = ctx;
  const p = e.player !== undefined && e.player !== null ? ctx.names[e.player] ?? `#${e.player}` : "";
  const line = (key, vars, kind, seat = e.player ?? null) => ({ text: t(key, lang, { p, ...vars }), seat, kind });
  switch (e.type) {
    case "seat_taken": return line("l_seat_taken", { p: e.name }, e.type, e.seat);
    case "seat_left": return line("l_seat_left", { p: e.name }, e.type, null);
    case "kicked": return line("l_kicked", { p: e.name }, e.type, null);
    case "away": return line("l_away", {}, "minor");
    case "back": return line("l_back", {}, "minor");
    case "left_game": return line("l_left_game", { p: e.name }, "big");
    case "seat_moved": return line("l_seat_moved", {}, "minor");
    case "seat_taken_over": return line("l_seat_taken_over", { p: e.name, q: e.left_name }, "big");
    case "settings_changed": return line("l_settings", {}, e.type, null);
    case "rematch": return line("l_rematch", { n: e.game }, "big", null);
    case "bot_added": return line("l_bot_added", { p: e.name, k: t(`bot_${e.kind}`, lang) }, e.type, e.seat);
    case "bot_removed": return line("l_bot_removed", { p: e.name }, e.type, null);
    case "host_changed": return e.host ? line("l_host", { p: ctx.seatIds[e.host] ?? "?" }, e.type, null) : null;
    case "game_starting": return line("l_game_starting", { n: e.players }, "big");
    case "bot_took_over": return line("l_bot_took_over", {}, "big");
    case "bot_released": return line("l_bot_released", {}, e.type);
    case "clock_expired": return line("l_clock_expired", {}, "big");
    case "seed_revealed": return line("l_seed_revealed", {}, "minor", null);
    default: return undefined;
  }
}

const described = new WeakMap(); // log entry -> {lang, line}: each is described once per language

// The line of a log entry, or null (an event not worth a line); `describe` is the game's.
export function logLine(entry, ctx, describe) {
  const kept = described.get(entry);
  if (kept && kept.lang === ctx.lang && (kept.line || !describe === !kept.game)) return kept.line;
  let line = null;
  if (entry.key) line = { text: t(entry.key, ctx.lang, entry.vars), seat: null, kind: "minor" };
  else {
    line = describeRoom(entry.event, ctx);
    if (line === undefined) line = describe ? describe(entry.event, ctx) : null;
  }
  described.set(entry, { lang: ctx.lang, line, game: !!describe });
  return line;
}

export function logContext(state) {
  const seats = state.room?.seats || [];
  return { lang: state.lang, names: seats.map((s) => s.name), sheet: state.sheet, seatIds: Object.fromEntries(seats.map((s) => [s.id, s.name])) };
}

let lastLines = null; // the last log described: {log, lang, describe, lines: [{entry, line, at}]}

// The log's entries that make a line, each with its line ({entry, line}), oldest first. The same array while the log,
// the language and the game's describe are; an update appends entries (and the oldest may go): only the new ones are
// described.
export function logLines(state, describe) {
  const { log, lang } = state;
  const last = lastLines;
  if (last && last.log === log && last.lang === lang && last.describe === describe) return last.lines;
  const ctx = logContext(state);
  let lines = [];
  let from = 0;
  // the entries of the last log still here: its last entry's new place says how many went at the front
  const tail = last && last.lang === lang && last.describe === describe && last.log.length ? last.log[last.log.length - 1] : null;
  const at = tail ? log.lastIndexOf(tail) : -1;
  if (at >= 0) {
    const gone = last.log.length - 1 - at;
    lines = last.lines.filter((l) => l.at >= gone).map((l) => (gone ? { ...l, at: l.at - gone } : l));
    from = at + 1;
  }
  for (let i = from; i < log.length; i++) {
    const line = logLine(log[i], ctx, describe);
    if (line) lines.push({ entry: log[i], line, at: i });
  }
  lastLines = { log, lang, describe, lines };
  return lines;
}

const LOG_KEEP = 150; // lines on the page (the state keeps more)
const LOG_SLACK = 50; // the oldest lines go in batches of this many (removing them moves every line up)
const CHUNK = 25; // lines drawn together: a chunk whose lines are all there already is not drawn again

const timeFormats = new Map();
function timeFormat(lang) {
  if (!timeFormats.has(lang)) timeFormats.set(lang, new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" }));
  return timeFormats.get(lang);
}

// The log, written only while it can be seen: at 1280x900 the side column shows it only when scrolled, a phone far
// below the sheet, and its lines were a tenth of an update. An IntersectionObserver brings it up to date when it comes
// into view. A line appended is the only one laid out (the list is a box of its own size, app.css).
export class Log extends Component {
  constructor(props) {
    super(props);
    this.list = null;
    this.inSight = false; // (until the observer's first word, after the screen is first shown: the lines wait for it)
    this.atEnd = true;
    this.first = 0; // the index of the first entry drawn
    this.onScroll = () => {
      const top = this.list.scrollTop;
      // the page's own scroll to the end counts as at the end, even when lines came after it and before its event
      this.atEnd = top === this.scrolledTo || top + this.list.clientHeight >= this.list.scrollHeight - 8;
    };
  }

  componentDidMount() {
    this.sight = new IntersectionObserver((entries) => {
      const away = !entries[entries.length - 1].isIntersecting;
      const back = !this.inSight && !away;
      this.inSight = !away;
      if (back) this.forceUpdate();
    });
    this.sight.observe(this.list);
    this.toEnd();
  }

  componentWillUnmount() {
    this.sight.disconnect();
  }

  shouldComponentUpdate(next) {
    return this.inSight || next.lang !== this.props.lang;
  }

  componentDidUpdate() {
    this.toEnd();
  }

  // Scrolled to the new end at the end of the update's drawing: its layout is the one the next frame needs anyway.
  toEnd() {
    if (!this.list || !this.atEnd) return;
    if (document.hidden) { // a hidden tab lays nothing out: scrolled when it is seen again
      if (!this.later) {
        this.later = true;
        document.addEventListener("visibilitychange", () => { this.later = false; this.toEnd(); }, { once: true });
      }
      return;
    }
    if (this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight) return;
    this.list.scrollTop = this.list.scrollHeight;
    this.scrolledTo = this.list.scrollTop;
  }

  render({ lines, lang }) {
    if (lines.length - this.first > LOG_KEEP + LOG_SLACK || lines.length < this.first) this.first = Math.max(0, lines.length - LOG_KEEP);
    const times = timeFormat(lang);
    const line = ({ entry, line: l }) => {
      const when = entry.time ? new Date(entry.time * 1000) : null;
      return h("li", { key: entry, class: `log-line log-${l.kind}`, "data-v": entry.v ?? "", style: l.seat !== null && l.seat !== undefined ? `--seat:${SEAT_COLOURS[l.seat]}` : "" },
        when ? h("time", { class: "log-time", datetime: when.toISOString() }, times.format(when)) : null, l.text);
    };
    // the lines in chunks of CHUNK from the first shown: an update draws the last chunk again, and its new lines
    const chunks = [];
    for (let at = this.first; at < lines.length; at += CHUNK) {
      const part = lines.slice(at, at + CHUNK);
      chunks.push(kept(part[0].entry, `${part.length}|${lang}|${part[part.length - 1].entry.v}`, () => part.map(line)));
    }
    return h("section", { class: "log-box card" }, h("h2", null, t("log", lang)),
      h("ol", { class: "log-list", "data-log": "", tabindex: 0, "aria-label": t("log", lang), ref: (n) => { this.list = n; }, onScroll: this.onScroll }, chunks));
  }
}

// ---- the players -------------------------------------------------------------------------------------------

const ids = new WeakMap(); // the game's part of a row -> a number: a row is drawn again when it is another one
let count = 0;
const idOf = (x) => ids.get(x) ?? (ids.set(x, ++count), count);

// `stats(seat)`: the game's part of a seat's row ({marks, stats}: its numbers and marks by the name), the same object
// while they are the same. A row is drawn again only when what it shows changed.
export function Players({ state, me, current, stats }) {
  const { room, lang } = state;
  const L = (k, v) => t(k, lang, v);
  return h("section", { class: "players-box card" },
    h("h2", null, L("players")),
    h("ul", { class: "player-list", "data-list": "players" }, room.seats.map((s, i) => {
      const own = stats(i);
      if (!own) return null;
      const host = room.host === s.id;
      return kept(s.id, `${lang}|${i}|${s.name}|${s.connected}|${s.bot}|${host}|${current === i}|${i === me}|${idOf(own)}`, () => h("li", {
        class: `player${current === i ? " current" : ""}${i === me ? " you" : ""}`, "data-seat": i, "data-connected": s.connected ? "1" : "0" },
      h("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }),
      h("span", { class: "player-name" }, s.name, i === me ? h("span", { class: "muted" }, ` ${L("you_paren")}`) : null, own.marks,
        host ? h("span", { class: "holder", title: L("host") }, glyph("crown", 15)) : null),
      h("span", { class: "player-stats" }, own.stats),
      h("span", { class: `presence ${s.bot ? "bot" : s.connected ? "on" : "off"}` }, h("span", { class: "dot" }), h("span", null, s.bot ? L("bot") : s.connected ? L("online") : L("away")))));
    })),
    h("p", { class: "muted small", "data-count": "spectators", "data-n": room.spectators }, glyph("eye", 15), ` ${L("watching_n", { n: room.spectators })}`));
}

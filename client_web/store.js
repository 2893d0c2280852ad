// The page's state, in one place: a plain object replaced (never changed in place) by the named actions below,
// and the views read it. dispatch(name, payload) runs one action and tells every subscriber (app.js draws the page
// again). Nothing else writes the state; what talks to the server is session.js, which dispatches what it learns.

// An update names only the players whose sheets changed (null for the others): they are as in the version before,
// which this page holds (net.js asks for a snapshot when a version is missed). Kept as the same objects, so a view
// compares them by identity.
function withPlayers(game, before) {
  const players = game?.state?.players;
  if (!Array.isArray(players) || !players.includes(null)) return game; // (a game may keep its players otherwise)
  const was = before?.state?.players || [];
  return { ...game, state: { ...game.state, players: players.map((p, i) => p ?? was[i]) } };
}

const LOG_MAX = 1000; // events the page keeps for its log (the server keeps the last updates for a reload)
const CHAT_MAX = 200; // chat lines the page keeps (the server keeps the last 50 for a reload)

export const INITIAL = Object.freeze({
  lang: "en",
  screen: "loading", // loading | home | join | lobby | game | error | moved
  code: null, // the room code from the URL, normalised
  watchMode: false, // the URL is a spectator link
  intent: null, // {role, name, seat} chosen on the home or join screen, used by the next join
  joined: false,
  role: null,
  seatId: null,
  room: null,
  game: null,
  sheet: null, // the room's game file (a snapshot's `sheet`)
  sheetFresh: false, // no settings change since that snapshot: `sheet` is the room's now
  v: null,
  events: [], // the last update's events (what it tells besides the state: news, flashes)
  log: [], // {event, v, time} of the room's updates, and {key, vars} of the page's own lines, oldest first
  preview: null, // the room as GET /api/rooms/CODE showed it before joining
  error: null, // what the error screen says
  conn: "offline",
  retryIn: 0,
  busy: false, // a decision or an undo is on its way
  decideSent: 0,
  chat: { lines: [], spectators: true, open: false, unread: 0, said: "" },
  toasts: [], // {id, text, kind, leaving}
  dice: null, // the dice check of the finished game (fairplay.js): {key, commitment, result}
  games: {}, // id -> "index" once the game's interface and words are loaded, "board" once its board is too
});

const addLog = (log, entries) => {
  const out = log.concat(entries);
  return out.length > LOG_MAX ? out.slice(out.length - LOG_MAX) : out;
};

const logOf = (events, v, time) => (events || []).map((event) => ({ event, v, time: typeof time === "number" ? time : null }));

const newest = (log) => log.reduce((m, l) => (typeof l.v === "number" && l.v > m ? l.v : m), 0);

function chatLines(lines, more) {
  const ids = new Set(lines.map((l) => l.id));
  const fresh = more.filter((l) => !ids.has(l.id));
  if (!fresh.length) return lines;
  const out = lines.concat(fresh);
  return out.length > CHAT_MAX ? out.slice(out.length - CHAT_MAX) : out;
}

const ACTIONS = {
  language: (s, lang) => ({ ...s, lang }),
  connection: (s, { status, retryIn }) => ({ ...s, conn: status, retryIn }),

  // A new address: another room (or none) forgets the last one.
  route: (s, { code, watch }) => {
    const other = code !== s.code || watch !== s.watchMode;
    const base = other ? { ...s, joined: false, room: null, game: null, sheet: null, sheetFresh: false, preview: null, log: [], events: [], v: null, role: null, seatId: null, chat: INITIAL.chat } : s;
    return { ...base, code, watchMode: watch, screen: code ? (base.joined ? base.screen : "loading") : "home", intent: code ? base.intent : null };
  },
  intent: (s, intent) => ({ ...s, intent }),
  screen: (s, { screen, error = null, preview = s.preview }) => ({ ...s, screen, error, preview }),
  joined: (s, { role, seatId }) => ({
    ...s, joined: true, role, seatId, intent: null,
    log: s.log.length ? s.log : [{ key: "l_joined", vars: { c: s.code } }],
    screen: s.room ? (s.room.status === "lobby" ? "lobby" : "game") : s.screen,
  }),
  left: (s, { screen = s.screen } = {}) => ({ ...s, joined: false, intent: null, screen }),

  snapshot: (s, msg) => {
    // the room's last updates: a reloaded page (or one that missed some) gets its game log back
    const seen = newest(s.log);
    const recent = (msg.recent || []).filter((u) => u.v > seen).flatMap((u) => logOf(u.events, u.v, u.time));
    const sheet = msg.sheet ? { sheet: msg.sheet, sheetFresh: true } : {};
    const screen = s.joined && ["loading", "lobby", "game", "join"].includes(s.screen) ? (msg.room.status === "lobby" ? "lobby" : "game") : s.screen;
    return { ...s, ...sheet, room: msg.room, game: msg.game, v: msg.v, events: [], log: addLog(s.log, recent), screen,
      chat: msg.chat ? { ...s.chat, spectators: msg.chat.spectators, lines: chatLines(s.chat.lines, msg.chat.lines || []) } : s.chat };
  },
  update: (s, msg) => {
    // the sheet file only comes in snapshots: a change of sheet in the lobby makes the one held stale
    const before = s.room?.settings?.sheet;
    const stale = (msg.events || []).some((e) => e.type === "settings_changed" && (typeof e.settings?.sheet !== "string" || e.settings.sheet !== before));
    const screen = s.joined && ["lobby", "game"].includes(s.screen) ? (msg.room.status === "lobby" ? "lobby" : "game") : s.screen;
    return { ...s, room: msg.room, game: withPlayers(msg.game, s.game), v: msg.v, events: msg.events || [],
      log: addLog(s.log, logOf(msg.events, msg.v, msg.time)), sheetFresh: s.sheetFresh && !stale, screen };
  },
  presence: (s, msg) => {
    if (!s.room) return s;
    const on = new Set(msg.connected);
    return { ...s, room: { ...s.room, spectators: msg.spectators, seats: s.room.seats.map((seat) => ({ ...seat, connected: on.has(seat.id) })) } };
  },

  busy: (s, busy) => ({ ...s, busy }),
  decideSent: (s) => ({ ...s, decideSent: s.decideSent + 1 }),

  chat: (s, msg) => {
    if (msg.type === "chat_rules") return { ...s, chat: { ...s.chat, spectators: msg.spectators, said: msg.spectators ? "chat_opened" : "chat_closed_note" } };
    const lines = chatLines(s.chat.lines, [msg.line]);
    if (lines === s.chat.lines) return s;
    const mine = msg.line.seat !== null && msg.line.seat === s.seatId;
    return { ...s, chat: { ...s.chat, lines, unread: s.chat.open || mine ? s.chat.unread : s.chat.unread + 1, said: msg.line } };
  },
  chatOpen: (s, open) => ({ ...s, chat: { ...s.chat, open, unread: open ? 0 : s.chat.unread } }),

  toast: (s, toast) => ({ ...s, toasts: [...s.toasts, toast] }),
  toastLeaving: (s, id) => ({ ...s, toasts: s.toasts.map((x) => (x.id === id ? { ...x, leaving: true } : x)) }),
  toastGone: (s, id) => ({ ...s, toasts: s.toasts.filter((x) => x.id !== id) }),

  dice: (s, dice) => ({ ...s, dice }),
  gameLoaded: (s, { id, part }) => (s.games[id] === "board" ? s : { ...s, games: { ...s.games, [id]: part } }),
};

// This page's seat index (null for a spectator), and whether it is this page's turn now.
export function mySeat(s) {
  if (!s.room || s.role !== "player" || !s.seatId) return null;
  const i = s.room.seats.findIndex((x) => x.id === s.seatId);
  return i >= 0 ? i : null;
}

export function myTurn(s) {
  const me = mySeat(s);
  return me !== null && s.room.status === "playing" && s.game?.pending?.player === me;
}

let state = INITIAL;
const listeners = new Set();

export function getState() {
  return state;
}

export function subscribe(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

export function dispatch(name, payload) {
  const action = ACTIONS[name];
  if (!action) throw new Error(`no action ${name}`);
  const next = action(state, payload);
  if (next === state) return;
  state = next;
  for (const f of listeners) f(state, name);
}

// The app shell: routing between home, lobby and game by URL (/?room=CODE, /?watch=CODE, /#CODE),
// the connection (net.js), seat and host tokens per room in localStorage, toasts, and the app state
// the end-to-end tests read from window.__app.

import { Net } from "./net.js";
import { MSG, ROLES, STATUS, SETTINGS } from "./protocol.js";
import { t, setLang, LANGS, LANG_NAMES } from "./i18n.js";
import { glyph } from "./glyphs.js";
import { html } from "./svg.js";
import { renderLobby } from "./lobby.js";
import { GameView } from "./game.js";
import { describe } from "./log.js";
import { DiceCheck } from "./fairplay.js";
import { helpButton } from "./help.js";
import { turnAlert, setPageTitle, alertSettings } from "./alerts.js";
import { resumeCard, publicRoomsCard } from "./home_lists.js";
import { confirmDialog } from "./confirm.js";
import { ChatPanel } from "./chat.js";
import { noteServerTime } from "./away.js";
import { takeSeatFromLink, moveFlag, moveDone, deviceButton, seatLink, movedScreen } from "./device.js";
import { takeoverOffer } from "./takeover.js";
import { turnFields, seatFromLink } from "./turns.js";
import {
  FILE_CHOICE, readSheetFile, sheetFileRow, sheetTitle, rememberSheet, isSheetRefusal, refusalStatus, fileErrorStatus,
} from "./sheet_file.js";

// ---- state -----------------------------------------------------------------------------------------------

const S = {
  lang: "en",
  screen: "home", // home | join | lobby | game | error
  code: null, // the room code from the URL, normalised
  watchMode: false, // the URL is a spectator link
  intent: null, // {role, name} chosen on the home or join screen, used by the next join
  joined: false,
  role: null,
  seatId: null,
  room: null,
  game: null,
  sheet: null, // the room's sheet file, from the last snapshot
  sheetFresh: false, // no settings change since that snapshot: `sheet` is the room's sheet now
  v: null,
  preview: null, // RoomView fetched over HTTP before joining
  conn: "offline",
  log: [],
  logV: 0, // the newest version whose events are in the log
  busy: false, // a decision is on its way
  decideSent: 0,
  error: null,
};

const root = document.getElementById("app");
const toasts = document.getElementById("toasts");
let game = null; // GameView while the game screen is shown
let chat = null; // the room's chat panel (chat.js), made once the actions exist

// ---- storage: seat token and host token per room ---------------------------------------------------------

const KEY = (code) => `rajas.room.${code}`;
export function loadRoom(code) {
  try { return JSON.parse(localStorage.getItem(KEY(code))) || {}; } catch { return {}; }
}
function saveRoom(code, patch) {
  // `at`: when this browser last joined it (the home page's Resume list shows the newest first)
  localStorage.setItem(KEY(code), JSON.stringify({ ...loadRoom(code), ...patch, at: Date.now() }));
}
function forgetSeat(code) {
  const r = loadRoom(code);
  delete r.token;
  delete r.seat_id;
  localStorage.setItem(KEY(code), JSON.stringify(r));
}

// What a person typed or pasted (a code, a link with ?room= / ?watch= / #code) as {code, watch}.
export function parseCode(input) {
  let s = String(input || "").trim();
  let watch = false;
  const m = s.match(/[?&](room|watch)=([^&#]+)/);
  if (m) { s = decodeURIComponent(m[2]); watch = m[1] === "watch"; }
  else if (s.includes("#")) s = s.slice(s.indexOf("#") + 1);
  const raw = s.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!raw) return null;
  const code = raw.length === 11 ? `${raw.slice(0, 3)}-${raw.slice(3, 7)}-${raw.slice(7)}` : raw;
  return { code, watch };
}

function routeFromUrl() {
  const q = new URLSearchParams(location.search);
  if (q.get("room")) return parseCode(`?room=${q.get("room")}`);
  if (q.get("watch")) return parseCode(`?watch=${q.get("watch")}`);
  if (location.hash.length > 1) return parseCode(location.hash);
  return null;
}

// ---- toasts ----------------------------------------------------------------------------------------------

export function toast(message, kind = "error") {
  const n = html("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  toasts.append(n);
  setTimeout(() => n.classList.add("leaving"), 3600);
  setTimeout(() => n.remove(), 4000);
}

function errorText(e) {
  const key = `err_${e.code}`;
  const s = t(key, S.lang);
  return s === key.replace(/_/g, " ") ? (e.message || e.code) : s;
}

// ---- the connection --------------------------------------------------------------------------------------

// An update names only the players whose sheets changed (null for the others): they are as in the version
// before, which this page holds (net.js asks for a snapshot when a version is missed).
function withPlayers(game, before) {
  const players = game?.state?.players;
  if (!players || !players.includes(null)) return game;
  const was = before?.state?.players || [];
  game.state.players = players.map((p, i) => p ?? was[i]);
  return game;
}

const net = new Net({
  onStatus: (s) => { S.conn = s; renderStatus(); expose(); },
  onSnapshot: (msg) => {
    S.room = msg.room;
    S.game = msg.game;
    if (msg.sheet) {
      S.sheet = msg.sheet;
      S.sheetFresh = true;
      if (typeof msg.room?.settings?.sheet === "object") rememberSheet(msg.sheet);
    }
    S.v = msg.v;
    // the room's last updates: a reloaded page (or one that missed some) gets its game log back
    for (const u of msg.recent || []) if (u.v > S.logV) addLog(u.events, u.v, u.time);
    chat?.onSnapshot(msg.chat);
    if (S.joined) render(null);
  },
  onUpdate: (msg) => {
    // the sheet file only comes in snapshots: after a change of sheet in the lobby, ask for one
    const before = S.room?.settings?.sheet;
    const changed = (msg.events || []).some((e) => e.type === "settings_changed" && (typeof e.settings?.sheet !== "string" || e.settings.sheet !== before));
    if (changed) {
      S.sheetFresh = false;
      net.askSnapshot();
    }
    S.room = msg.room;
    S.game = withPlayers(msg.game, S.game);
    S.v = msg.v;
    addLog(msg.events, msg.v, msg.time);
    render(msg.events);
  },
  onPresence: (msg) => {
    if (!S.room) return;
    const on = new Set(msg.connected);
    S.room.seats.forEach((s) => { s.connected = on.has(s.id); });
    S.room.spectators = msg.spectators;
    if (game) game.renderPlayers(); else if (S.screen === "lobby") render(null);
    expose();
  },
  onNotice: (msg) => {
    if (msg.code === "kicked") {
      toast(t("kicked", S.lang));
      S.joined = false; // (the server took this connection out of the room already)
      if (S.code) forgetSeat(S.code);
      goHome();
    } else if (msg.code === "seat_moved") { // the seat was opened on another device (device.js): not an error
      if (S.code) forgetSeat(S.code);
      S.joined = false;
      S.intent = null;
      S.screen = "moved";
      render(null);
    } else if (msg.code === "seat_taken_over") {
      toast(t("seat_taken_over", S.lang));
      S.joined = false;
      if (S.code) forgetSeat(S.code);
      goHome();
    } else if (msg.message) toast(msg.message, "info");
  },
  onChat: (msg) => { chat?.onMessage(msg); expose(); },
  onReconnect: () => (S.screen === "moved" ? null : joinRoom()), // (a seat that moved away is not taken back by a reconnect)
  onFatal: (e) => toast(errorText(e)),
});

function names() {
  return (S.room?.seats || []).map((s) => s.name);
}

// Log lines for one update's events; `time` is the update's unix time (seconds), when the server sent one.
function addLog(events, v = S.v, time = null) {
  const seatIds = Object.fromEntries((S.room?.seats || []).map((s) => [s.id, s.name]));
  const ctx = { lang: S.lang, names: names(), sheet: S.sheet, seatIds };
  for (const e of events || []) {
    const line = describe(e, ctx);
    if (line) S.log.push({ ...line, v, time: typeof time === "number" ? time : null, event: e });
  }
  if (typeof v === "number" && v > S.logV) S.logV = v;
  if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
}

async function joinRoom() {
  if (!S.code) return;
  const stored = loadRoom(S.code);
  const host = stored.host_token ? { host_token: stored.host_token } : {};
  let reply;
  net.resetVersion();
  try {
    // a spectator's name is what the chat shows for them (none: "Spectator")
    const seen = localStorage.getItem("rajas.name") ? { name: localStorage.getItem("rajas.name").slice(0, SETTINGS.name_max) } : {};
    if (S.watchMode) {
      reply = await net.request(MSG.JOIN, { room: S.code, role: ROLES.SPECTATOR, ...seen });
    } else if (stored.token) {
      reply = await net.request(MSG.JOIN, { room: S.code, token: stored.token, ...host, ...moveFlag(S.code) });
    } else if (S.intent?.role === ROLES.PLAYER) {
      const seat = Number.isInteger(S.intent.seat) ? { seat: S.intent.seat } : {}; // a left seat taken over (takeover.js)
      reply = await net.request(MSG.JOIN, { room: S.code, role: ROLES.PLAYER, name: S.intent.name, ...host, ...seat });
    } else if (S.intent?.role === ROLES.SPECTATOR) {
      reply = await net.request(MSG.JOIN, { room: S.code, role: ROLES.SPECTATOR, ...seen, ...host });
    } else {
      await showJoinScreen();
      return;
    }
  } catch (e) {
    if (e.code === "disconnected" || e.code === "timeout") return; // the reconnect joins again
    if (e.code === "bad_token") { forgetSeat(S.code); moveDone(); S.intent = null; return joinRoom(); }
    if (e.code === "wrong_phase" && S.intent?.role === ROLES.PLAYER) {
      toast(t("game_running", S.lang), "info");
      S.intent = { role: ROLES.SPECTATOR };
      return joinRoom();
    }
    if (e.code === "room_not_found") {
      localStorage.removeItem(KEY(S.code)); // an expired room: its tokens open nothing (the home page stops offering it)
      S.error = errorText(e);
      S.screen = "error";
      render(null);
      return;
    }
    toast(errorText(e));
    S.intent = null;
    await showJoinScreen();
    return;
  }
  S.joined = true;
  moveDone();
  noteServerTime(reply.time);
  S.role = reply.role;
  S.seatId = reply.seat_id;
  if (reply.role === ROLES.PLAYER && reply.token) {
    saveRoom(S.code, { token: reply.token, seat_id: reply.seat_id, name: S.intent?.name || stored.name });
  }
  if (!S.log.length) S.log.push({ text: t("l_joined", S.lang, { c: S.code }), seat: null, kind: "minor" });
  render(null);
}

async function showJoinScreen() {
  S.joined = false;
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(S.code)}`);
    if (res.status === 404) { S.error = t("err_room_not_found", S.lang); S.screen = "error"; render(null); return; }
    S.preview = await res.json();
  } catch {
    S.preview = null;
  }
  S.screen = "join";
  render(null);
}

// ---- actions ---------------------------------------------------------------------------------------------

function go(url) {
  history.pushState(null, "", url);
  route();
}

function goHome() {
  // leaving a room this page is in says so (mid-game the seat is then left: the bot plays it at once)
  if (S.code && S.joined) net.request(MSG.LEAVE).catch(() => {});
  S.joined = false;
  S.code = null;
  go("/");
}

// Creates the room and goes to its lobby; a refusal is thrown (the home form shows it).
async function createRoom(settings, name) {
  const r = await net.request(MSG.CREATE_ROOM, { settings });
  saveRoom(r.code, { host_token: r.host_token, watch: r.watch, link: r.link, watch_link: r.watch_link, name });
  localStorage.setItem("rajas.name", name);
  S.intent = { role: ROLES.PLAYER, name };
  go(`/?room=${r.code}`);
}

// A player leaving a game in progress is asked first (the lobby and the final scores are left at once).
async function leaveAllowed() {
  if (S.role !== ROLES.PLAYER || S.room?.status !== STATUS.PLAYING) return true;
  return confirmDialog(S.lang, { title: t("leave_title", S.lang), text: t("leave_text", S.lang), yes: t("leave_yes", S.lang) });
}

const diceCheck = new DiceCheck(net);

const actions = {
  diceCheck,
  lang: () => S.lang,
  net,
  state: S,
  toast,
  errorText,
  takeSeat(name) {
    localStorage.setItem("rajas.name", name);
    S.intent = { role: ROLES.PLAYER, name };
    joinRoom();
  },
  watch() {
    S.intent = { role: ROLES.SPECTATOR };
    joinRoom();
  },
  takeOver(name, seat) {
    localStorage.setItem("rajas.name", name);
    S.intent = { role: ROLES.PLAYER, name, seat };
    joinRoom();
  },
  // "Continue on another device" (device.js): for a seated player only, with this browser's seat token
  deviceButton: () => (S.role === ROLES.PLAYER && S.code && loadRoom(S.code).token ? deviceButton(S.lang, () => seatLink(S.code, loadRoom(S.code).token)) : null),
  async send(type, fields) {
    try {
      return await net.request(type, fields);
    } catch (e) {
      toast(errorText(e));
      return null;
    }
  },
  async leave() {
    if (!(await leaveAllowed())) return;
    try { await net.request(MSG.LEAVE); } catch { /* leaving anyway */ }
    S.joined = false;
    if (S.code && S.room?.status === STATUS.LOBBY) forgetSeat(S.code);
    goHome();
  },
  // A decision: exactly one of the legal options, at the version it was chosen at.
  async decide(wire) {
    if (S.busy) return;
    S.busy = true;
    S.decideSent += 1;
    window.__decideSent = S.decideSent;
    expose();
    try {
      await net.request(MSG.DECIDE, { decision: wire, v: net.v });
    } catch (e) {
      toast(errorText(e));
      S.busy = false;
      render(null); // the options come back as they were
      return;
    }
    S.busy = false;
    // the update usually arrives before the reply and was drawn without controls: draw them now
    if (game && !game.controlsReady && game.myTurn()) render(null);
    else expose();
  },
  // Takes back this player's last decision of the turn (undo.js), at the version seen.
  async undo() {
    if (S.busy) return;
    S.busy = true;
    render(null);
    try { await net.request(MSG.UNDO, { v: net.v }); } catch (e) { toast(errorText(e)); }
    S.busy = false;
    render(null);
  },
  async home() {
    if (await leaveAllowed()) goHome();
  },
  setLang(lang) {
    S.lang = setLang(lang);
    localStorage.setItem("rajas.lang", S.lang);
    document.documentElement.lang = S.lang;
    // the log speaks the new language too: its lines are described again from their events
    const seatIds = Object.fromEntries((S.room?.seats || []).map((s) => [s.id, s.name]));
    const ctx = { lang: S.lang, names: names(), sheet: S.sheet, seatIds };
    S.log = S.log.map((l) => (l.event ? { ...l, ...(describe(l.event, ctx) || {}) } : l));
    render(null);
  },
  stored: () => (S.code ? loadRoom(S.code) : {}),
  redraw: () => render(null),
  // The room's sheet file as the server has it now (a custom room's settings are sent with it again).
  async roomSheet() {
    if (!S.sheetFresh) {
      try { await net.request(MSG.SNAPSHOT); } catch { return null; } // the snapshot arrives before the reply
    }
    return S.sheetFresh ? S.sheet : null;
  },
  statusBadge: () => statusBadge(),
  alertMenu: () => (S.role === ROLES.PLAYER && S.room?.status === STATUS.PLAYING ? alertSettings(S.lang, true) : null),
  langSelect: () => langSelect(),
};

chat = new ChatPanel(actions);

// ---- rendering -------------------------------------------------------------------------------------------

function statusText() {
  if (S.conn === "online") return t("conn_online", S.lang);
  if (S.conn === "connecting") return t("conn_connecting", S.lang);
  return t("conn_offline", S.lang, { n: net.retryIn });
}

function renderStatus() {
  document.querySelectorAll(".conn-status").forEach((n) => {
    n.className = `conn-status conn-${S.conn}`;
    n.dataset.status = S.conn;
    n.querySelector(".conn-text").textContent = statusText();
    n.querySelector("button").hidden = S.conn !== "offline";
  });
}

export function statusBadge() {
  const n = html("span", { class: `conn-status conn-${S.conn}`, "data-status": S.conn, role: "status", "aria-live": "polite" },
    html("span", { class: "conn-dot" }), html("span", { class: "conn-text" }, statusText()),
    html("button", { type: "button", class: "link-button", hidden: S.conn !== "offline", onclick: () => net.reconnectNow() }, t("reconnect_now", S.lang)));
  return n;
}

export function langSelect() {
  const sel = html("select", { class: "lang-select", "aria-label": t("language", S.lang), onchange: (e) => actions.setLang(e.target.value) },
    LANGS.map((l) => html("option", { value: l, selected: l === S.lang }, LANG_NAMES[l])));
  sel.value = S.lang;
  return sel;
}

function render(events) {
  if (S.screen !== "home" && S.screen !== "error" && S.screen !== "moved" && S.joined && S.room) {
    S.screen = S.room.status === STATUS.LOBBY ? "lobby" : "game";
  }
  if (S.screen !== "game" && game) { game.destroy(); game = null; }
  if (S.screen === "game") {
    if (!game) { root.replaceChildren(); game = new GameView(root, actions); }
    game.render(events);
  } else if (S.screen === "lobby") {
    root.replaceChildren(renderLobby(actions, { statusBadge, langSelect }));
  } else if (S.screen === "join") {
    root.replaceChildren(renderJoin());
  } else if (S.screen === "error") {
    root.replaceChildren(renderError());
  } else if (S.screen === "moved") {
    root.replaceChildren(movedScreen(S.lang, { topBar: topBar(), spectators: !!S.room?.settings?.spectators, home: goHome, watch: () => { S.screen = "lobby"; actions.watch(); } }));
  } else {
    root.replaceChildren(renderHome());
  }
  diceCheck.sync(S, mySeat());
  chat.sync();
  setPageTitle(S.lang, S.room && S.screen !== "home" ? `${t("app_title", S.lang).split(" · ")[0]} · ${S.code || S.room.code}` : t("app_title", S.lang));
  expose();
}

function field(label, input) {
  return html("label", { class: "field" }, html("span", { class: "field-label" }, label), input);
}

function topBar() {
  return html("header", { class: "app-bar" },
    html("a", { class: "brand", href: "/", onclick: (e) => { e.preventDefault(); goHome(); } }, html("span", { class: "brand-mark" }, glyph("elephant", 26)), html("span", null, "Rajas")),
    html("span", { class: "spacer" }), helpButton(S.lang, () => ({ sheet: S.sheet })), statusBadge(), langSelect());
}

// The home form's sheet choice, kept when the form is drawn again (another language): a file is not picked twice.
const homeSheet = { choice: SETTINGS.sheets[0], sheet: null, file: null, status: null };

function renderHome() {
  const L = (k, v) => t(k, S.lang, v);
  const lastName = localStorage.getItem("rajas.name") || "";
  const name = html("input", { name: "name", value: lastName, maxlength: SETTINGS.name_max, autocomplete: "nickname", required: true, "data-field": "create-name" });
  const seats = html("select", { name: "seats", "data-field": "seats" },
    [2, 3, 4, 5].map((n) => html("option", { value: n, selected: n === 4 }, String(n))));
  seats.value = "4";
  const sheet = html("select", { name: "sheet", "data-field": "sheet", onchange: () => {
    homeSheet.choice = sheet.value;
    const file = sheet.value === FILE_CHOICE;
    fileRow.show(file);
    if (file && !homeSheet.sheet) fileRow.pick();
  } },
  SETTINGS.sheets.map((s) => html("option", { value: s, selected: s === homeSheet.choice }, L(`sheet_${s}`))),
  html("option", { value: FILE_CHOICE, selected: homeSheet.choice === FILE_CHOICE }, L("sheet_file")));
  sheet.value = homeSheet.choice;
  const fileRow = sheetFileRow({ lang: S.lang, status: homeSheet.status, open: homeSheet.choice === FILE_CHOICE, onFile: async (file) => {
    homeSheet.sheet = null;
    homeSheet.file = file.name;
    try {
      homeSheet.sheet = await readSheetFile(file);
      homeSheet.status = { kind: "ok", key: "sheet_loaded", vars: { t: sheetTitle(homeSheet.sheet), f: file.name } };
    } catch (e) {
      homeSheet.status = fileErrorStatus(e);
    }
    if (fileRow.isConnected) fileRow.paint(homeSheet.status);
    else if (S.screen === "home") render(null); // drawn again (another language) while the chooser was open
  } });
  const spect = html("input", { type: "checkbox", name: "spectators", checked: true, "data-field": "spectators" });
  const clock = html("select", { name: "clock", "data-field": "clock" },
    [[0, L("no_clock")], [60, L("minutes", { n: 1 })], [120, L("minutes", { n: 2 })], [300, L("minutes", { n: 5 })]].map(([v, l]) => html("option", { value: v }, l)));
  const turns = turnFields(L);
  const submit = html("button", { type: "submit", class: "btn primary", "data-action": "create" }, L("create"));
  const create = html("form", { class: "card create-card", "data-form": "create", onsubmit: async (e) => {
    e.preventDefault();
    const n = name.value.trim();
    if (!n) { toast(L("err_name")); name.focus(); return; }
    const custom = sheet.value === FILE_CHOICE;
    const spec = custom ? homeSheet.sheet : sheet.value;
    if (!spec) {
      // no file yet, or the chosen one is not a sheet file: the status under the input says which
      if (!homeSheet.status || homeSheet.status.kind !== "error") homeSheet.status = { kind: "error", key: "sheet_err_none" };
      fileRow.paint(homeSheet.status);
      fileRow.input.focus();
      return;
    }
    const clockS = Number(clock.value);
    submit.disabled = true;
    try {
      await createRoom({ seats: Number(seats.value), sheet: spec, spectators: spect.checked, turn_clock: clockS || null, ...turns.values() }, n);
      if (custom) rememberSheet(spec, homeSheet.file);
    } catch (err) {
      submit.disabled = false;
      if (custom && isSheetRefusal(err)) {
        homeSheet.status = refusalStatus(err, homeSheet.file);
        fileRow.paint(homeSheet.status);
      } else {
        toast(errorText(err));
      }
    }
  } },
  html("h2", null, L("create_room")),
  field(L("your_name"), name),
  html("div", { class: "field-row" }, field(L("players_count"), seats), field(L("sheet"), sheet), field(L("turn_clock"), clock)),
  fileRow,
  turns.row,
  html("label", { class: "check" }, spect, html("span", null, L("allow_spectators"))),
  submit);

  const code = html("input", { name: "code", placeholder: "k7p-xq4m-9rtz", autocomplete: "off", autocapitalize: "off", spellcheck: "false", "data-field": "join-code" });
  const joinName = html("input", { name: "name", value: lastName, maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "join-name" });
  const join = html("form", { class: "card join-card", "data-form": "join", onsubmit: (e) => {
    e.preventDefault();
    const parsed = parseCode(code.value);
    if (!parsed) { toast(L("err_code")); code.focus(); return; }
    const n = joinName.value.trim();
    if (!n && !parsed.watch) { toast(L("err_name")); joinName.focus(); return; }
    if (n) localStorage.setItem("rajas.name", n);
    S.intent = parsed.watch ? { role: ROLES.SPECTATOR } : { role: ROLES.PLAYER, name: n };
    go(parsed.watch ? `/?watch=${parsed.code}` : `/?room=${parsed.code}`);
  } },
  html("h2", null, L("join_room")),
  field(L("invite_code"), code),
  field(L("your_name"), joinName),
  html("button", { type: "submit", class: "btn", "data-action": "join" }, L("join")));

  return html("div", { class: "screen home", "data-screen": "home" }, topBar(),
    html("main", { class: "home-main" },
      html("section", { class: "hero" }, html("div", { class: "hero-mark" }, glyph("elephant", 72)), html("h1", null, L("app_title")), html("p", null, L("tagline"))),
      html("div", { class: "home-cards" }, create, join),
      resumeCard(S.lang, go),
      publicRoomsCard(S.lang, {
        lastName,
        join: (code, n) => { localStorage.setItem("rajas.name", n); S.intent = { role: ROLES.PLAYER, name: n }; go(`/?room=${code}`); },
        watch: (code) => { S.intent = { role: ROLES.SPECTATOR }; go(`/?room=${code}`); },
      }),
      alertSettings(S.lang)));
}

function renderJoin() {
  const L = (k, v) => t(k, S.lang, v);
  const p = S.preview;
  const lobby = p && p.status === STATUS.LOBBY;
  const name = html("input", { name: "name", value: localStorage.getItem("rajas.name") || "", maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "seat-name" });
  const seats = p ? html("ul", { class: "seat-list" }, p.seats.map((s) => html("li", { class: "seat" }, html("span", { class: `dot ${s.connected ? "on" : "off"}` }), s.name))) : null;
  const form = html("form", { class: "card", "data-form": "seat", onsubmit: (e) => {
    e.preventDefault();
    const n = name.value.trim();
    if (!n) { toast(L("err_name")); return; }
    actions.takeSeat(n);
  } },
  html("h2", null, `${L("room")} ${S.code}`),
  p ? html("p", { class: "muted" }, L("seats_of", { n: p.seats.length, m: p.settings.seats })) : null,
  seats,
  lobby ? field(L("your_name"), name) : takeoverOffer(S.lang, p, (n, seat) => actions.takeOver(n, seat)) || html("p", null, L("game_running")),
  html("div", { class: "actions" },
    lobby ? html("button", { type: "submit", class: "btn primary", "data-action": "take-seat", disabled: p.seats.length >= p.settings.seats }, L("take_seat")) : null,
    !p || p.settings.spectators ? html("button", { type: "button", class: "btn", "data-action": "watch", onclick: () => actions.watch() }, L("watch")) : null));
  return html("div", { class: "screen join", "data-screen": "join" }, topBar(), html("main", { class: "home-main narrow" }, form));
}

function renderError() {
  return html("div", { class: "screen error", "data-screen": "error" }, topBar(),
    html("main", { class: "home-main narrow" }, html("div", { class: "card" }, html("h2", null, S.error || "?"),
      html("button", { type: "button", class: "btn primary", onclick: goHome }, t("new_game", S.lang)))));
}

// ---- routing ---------------------------------------------------------------------------------------------

function route() {
  const r = routeFromUrl();
  const code = r?.code || null;
  if (code !== S.code || (r && r.watch !== S.watchMode)) {
    if (S.code && S.joined) net.request(MSG.LEAVE).catch(() => {});
    S.joined = false;
    S.room = S.game = S.sheet = S.preview = null;
    S.sheetFresh = false;
    S.log = [];
    S.logV = 0;
    S.role = S.seatId = null;
    chat.reset();
  }
  S.code = code;
  S.watchMode = !!r?.watch;
  if (!code) {
    S.screen = "home";
    S.intent = null;
    render(null);
    return;
  }
  S.screen = "lobby";
  if (!S.joined) {
    root.replaceChildren(html("div", { class: "screen loading", "data-screen": "loading" }, topBar(), html("main", { class: "home-main narrow" }, html("div", { class: "spinner" }))));
    if (net.status === "online") joinRoom();
  }
}

// ---- what the tests (and curious people) can read ---------------------------------------------------------

function mySeat() {
  if (!S.room || !S.seatId) return null;
  const i = S.room.seats.findIndex((s) => s.id === S.seatId);
  return i >= 0 ? i : null;
}

let wasMyTurn = false;

function expose() {
  const seat = mySeat();
  const pending = S.game?.pending;
  const myTurn = S.role === ROLES.PLAYER && S.room?.status === STATUS.PLAYING && pending && pending.player === seat;
  window.__app = {
    screen: S.screen,
    conn: S.conn,
    code: S.code, // the code this page joined with (RoomView.code is the spectator code)
    role: S.role,
    seat,
    seatId: S.seatId,
    status: S.room?.status ?? null,
    v: S.v,
    netV: net.v,
    round: S.game?.state?.round ?? null,
    pendingPlayer: pending?.player ?? null,
    phase: pending?.phase ?? null,
    myTurn: !!myTurn,
    busy: S.busy,
    ready: !!myTurn && !S.busy && S.v === net.v && !!game?.controlsReady,
    decideSent: S.decideSent,
    sent: { ...net.sent },
    over: S.room?.status === STATUS.OVER,
    logLines: S.log.length,
    logFirstV: S.log.find((l) => typeof l.v === "number")?.v ?? null,
    sheetName: S.sheet?.name ?? null, // the sheet this page draws
    sheetFresh: S.sheetFresh,
    undo: S.game?.undo ?? 0, // decisions the player to move may take back now
    chatLines: chat ? chat.lines.length : 0,
    chatSpectators: chat ? chat.spectators : null,
  };
  window.__net = net;
  // the turn alert: once when this player's turn begins (a hidden tab only)
  const turnOwn = !!myTurn && S.screen === "game";
  if (turnOwn && !wasMyTurn) turnAlert(S.lang, S.code);
  wasMyTurn = turnOwn;
}

export function mySeatIndex() {
  return mySeat();
}

// ---- start -----------------------------------------------------------------------------------------------

const q = new URLSearchParams(location.search);
seatFromLink((room, token) => { const r = parseCode(`?room=${room}`); if (r) saveRoom(r.code, { token }); });
S.lang = setLang(q.get("lang") || localStorage.getItem("rajas.lang") || (navigator.language || "en").slice(0, 2));
document.documentElement.lang = S.lang;
window.__decideSent = 0;
takeSeatFromLink(saveRoom); // a "continue on another device" link: its seat token kept, the address cleaned
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
route();
net.connect();

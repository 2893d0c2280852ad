// The page's dealings with the server: the connection (net.js) and what the player does that goes to the server
// (join, create a room, decide, undo, leave, settings, chat, ...), the seat and host tokens kept per room in
// localStorage (rajas.room.<code>) and those a link brings, and the page's navigation between rooms. What it learns
// it dispatches to the store (store.js); the views call these functions.

import { Net } from "./net.js";
import { MSG, ROLES, STATUS, SETTINGS } from "./protocol.js";
import { t, getLang, setLang, loadWords } from "./i18n.js";
import { dispatch, getState } from "./store.js";
import { loadGame, gameOf } from "./games.js";

// ---- what this browser keeps: a seat token and host token per room -------------------------------------------

const KEY = (code) => `rajas.room.${code}`;
let read = { code: null, room: null }; // the last room read (the screens read it on every drawing)
window.addEventListener("storage", () => { read = { code: null, room: null }; }); // another tab wrote: read again
export function loadRoom(code) {
  if (read.code !== code) {
    let room = {};
    try { room = JSON.parse(localStorage.getItem(KEY(code))) || {}; } catch { room = {}; }
    read = { code, room };
  }
  return { ...read.room };
}
function keepRoom(code, room) {
  localStorage.setItem(KEY(code), JSON.stringify(room));
  read = { code, room };
}
export function saveRoom(code, patch) {
  // `at`: when this browser last joined it (the home page's Resume list shows the newest first)
  keepRoom(code, { ...loadRoom(code), ...patch, at: Date.now() });
}
function forgetSeat(code) {
  const r = loadRoom(code);
  delete r.token;
  delete r.seat_id;
  keepRoom(code, r);
}
export const stored = () => (getState().code ? loadRoom(getState().code) : {});

// Whether this page may do what only the host may: it holds the host's seat, or the host token while no seat is host.
export function isHost(state = getState()) {
  const { room, seatId, role } = state;
  if (!room || role !== ROLES.PLAYER) return false;
  if (room.host !== null) return room.host === seatId;
  return !!stored().host_token && room.seats.some((s) => s.id === seatId);
}

// A seat token carried by a link, /?room=CODE#NAME=TOKEN: the token rides in the fragment, which browsers never send
// to a server, so no access log holds it. {room, token} when the address has both (and `valid(token)`), the token
// then taken off the address bar; null otherwise.
function tokenFromLink(name, valid = () => true) {
  const room = new URLSearchParams(location.search).get("room");
  const token = new URLSearchParams(location.hash.slice(1)).get(name);
  if (!room || !token || !valid(token)) return null;
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  return { room, token };
}

// At start: a turn e-mail's link (#resume=TOKEN) or an "another device" link (#seat=TOKEN, device.js) keeps its seat
// token for the room; the latter's next join asks the server to move the seat here.
export function seatFromLink() {
  const resume = tokenFromLink("resume");
  const moved = resume ? null : tokenFromLink("seat", (token) => /^[A-Za-z0-9_-]{8,128}$/.test(token));
  const link = resume || moved;
  const r = link && parseCode(`?room=${link.room}`);
  if (!r) return;
  saveRoom(r.code, { token: link.token });
  if (moved) {
    try { sessionStorage.setItem(MOVING, r.code); } catch { /* the join then resumes without moving */ }
  }
}

const MOVING = "rajas.moving"; // sessionStorage: the room code whose next join moves the seat here

// {move: true} for the next join of a room opened by an "another device" link, else {}.
function moveFlag(code) {
  let moving = null;
  try { moving = sessionStorage.getItem(MOVING); } catch { moving = null; }
  return moving && moving === code ? { move: true } : {};
}
function moveDone() {
  try { sessionStorage.removeItem(MOVING); } catch { /* nothing kept */ }
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

// ---- toasts ------------------------------------------------------------------------------------------------

let toastIds = 0;
export function toast(text, kind = "error") {
  const id = ++toastIds;
  dispatch("toast", { id, text, kind, leaving: false });
  setTimeout(() => dispatch("toastLeaving", id), 3600);
  setTimeout(() => dispatch("toastGone", id), 4000);
}

export function errorText(e) {
  const key = `err_${e.code}`;
  const s = t(key, getState().lang);
  return s === key.replace(/_/g, " ") ? (e.message || e.code) : s;
}

// ---- the connection ----------------------------------------------------------------------------------------

let serverSkew = 0; // the server's clock minus this device's, seconds (away.js counts down on the server's)
export const serverNow = () => Date.now() / 1000 + serverSkew;

export const net = new Net({
  onStatus: (status, n) => dispatch("connection", { status, retryIn: n.retryIn }),
  onSnapshot: (msg) => {
    dispatch("snapshot", msg);
    useGame(gameOf(msg.room), true);
  },
  onUpdate: (msg) => {
    const wasFresh = getState().sheetFresh;
    dispatch("update", msg);
    if (wasFresh && !getState().sheetFresh) net.askSnapshot(); // the sheet file only comes in snapshots
  },
  onPresence: (msg) => dispatch("presence", msg),
  onNotice: (msg) => {
    const { code } = getState();
    if (msg.code === "kicked" || msg.code === "seat_taken_over") {
      toast(t(msg.code === "kicked" ? "kicked" : "seat_taken_over", getState().lang));
      dispatch("left"); // (the server took this connection out of the room already)
      if (code) forgetSeat(code);
      goHome();
    } else if (msg.code === "seat_moved") { // the seat was opened on another device: not an error
      if (code) forgetSeat(code);
      dispatch("left", { screen: "moved" });
    } else if (msg.message) toast(msg.message, "info");
  },
  onChat: (msg) => dispatch("chat", msg),
  onReconnect: () => (getState().screen === "moved" ? null : joinRoom()), // (a seat that moved away is not taken back)
  onFatal: (e) => toast(errorText(e)),
});

// The game's interface and words loaded in the page's language (with `board`, its board too: a room's), then drawn.
export async function useGame(id, board = false) {
  const want = board ? "board" : "index";
  if (getState().games[id] === want || getState().games[id] === "board") return;
  try {
    await loadGame(id, getLang(), { board }); // (the page's language, also before its words are drawn)
    dispatch("gameLoaded", { id, part: want });
  } catch {
    toast(errorText({ code: "disconnected" }));
  }
}

export async function joinRoom() {
  const { code, watchMode, intent } = getState();
  if (!code) return;
  const kept = loadRoom(code);
  const host = kept.host_token ? { host_token: kept.host_token } : {};
  // a spectator's name is what the chat shows for them (none: "Spectator")
  const name = localStorage.getItem("rajas.name");
  const seen = name ? { name: name.slice(0, SETTINGS.name_max) } : {};
  let reply;
  net.resetVersion();
  try {
    if (watchMode) {
      reply = await net.request(MSG.JOIN, { room: code, role: ROLES.SPECTATOR, ...seen });
    } else if (kept.token) {
      reply = await net.request(MSG.JOIN, { room: code, token: kept.token, ...host, ...moveFlag(code) });
    } else if (intent?.role === ROLES.PLAYER) {
      const seat = Number.isInteger(intent.seat) ? { seat: intent.seat } : {}; // a left seat taken over
      reply = await net.request(MSG.JOIN, { room: code, role: ROLES.PLAYER, name: intent.name, ...host, ...seat });
    } else if (intent?.role === ROLES.SPECTATOR) {
      reply = await net.request(MSG.JOIN, { room: code, role: ROLES.SPECTATOR, ...seen, ...host });
    } else {
      await showJoinScreen();
      return;
    }
  } catch (e) {
    if (e.code === "disconnected" || e.code === "timeout") return; // the reconnect joins again
    if (e.code === "bad_token") { forgetSeat(code); moveDone(); dispatch("intent", null); return joinRoom(); }
    if (e.code === "wrong_phase" && intent?.role === ROLES.PLAYER) {
      toast(t("game_running", getState().lang), "info");
      dispatch("intent", { role: ROLES.SPECTATOR });
      return joinRoom();
    }
    if (e.code === "room_not_found") {
      localStorage.removeItem(KEY(code)); // an expired room: its tokens open nothing (the home page stops offering it)
      read = { code: null, room: null };
      dispatch("screen", { screen: "error", error: errorText(e) });
      return;
    }
    toast(errorText(e));
    dispatch("intent", null);
    await showJoinScreen();
    return;
  }
  moveDone();
  if (typeof reply.time === "number" && Number.isFinite(reply.time)) serverSkew = reply.time - Date.now() / 1000;
  if (reply.role === ROLES.PLAYER && reply.token) {
    saveRoom(code, { token: reply.token, seat_id: reply.seat_id, name: intent?.name || kept.name });
  }
  dispatch("joined", { role: reply.role, seatId: reply.seat_id });
}

async function showJoinScreen() {
  dispatch("left");
  let preview = null;
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(getState().code)}`);
    if (res.status === 404) { dispatch("screen", { screen: "error", error: t("err_room_not_found", getState().lang) }); return; }
    preview = await res.json();
  } catch {
    preview = null;
  }
  dispatch("screen", { screen: "join", preview });
}

// ---- navigation ----------------------------------------------------------------------------------------------

function routeFromUrl() {
  const q = new URLSearchParams(location.search);
  if (q.get("room")) return parseCode(`?room=${q.get("room")}`);
  if (q.get("watch")) return parseCode(`?watch=${q.get("watch")}`);
  if (location.hash.length > 1) return parseCode(location.hash);
  return null;
}

export function route() {
  const r = routeFromUrl();
  const code = r?.code || null;
  const s = getState();
  if ((code !== s.code || (r && r.watch !== s.watchMode)) && s.code && s.joined) net.request(MSG.LEAVE).catch(() => {});
  dispatch("route", { code, watch: !!r?.watch });
  if (code && !getState().joined && net.status === "online") joinRoom();
}

export function go(url) {
  history.pushState(null, "", url);
  route();
}

export function goHome() {
  // leaving a room this page is in says so (mid-game the seat is then left: the bot plays it at once)
  const { code, joined } = getState();
  if (code && joined) net.request(MSG.LEAVE).catch(() => {});
  dispatch("left");
  go("/");
}

// ---- what the player does ------------------------------------------------------------------------------------

// A request whose refusal the toast says; null then. With `quiet`, a refusal is thrown instead (with its `text`).
export async function send(type, fields = {}, { quiet = false } = {}) {
  try {
    return await net.request(type, fields);
  } catch (e) {
    if (quiet) { e.text = errorText(e); throw e; }
    toast(errorText(e));
    return null;
  }
}

// Creates the room and goes to its lobby; a refusal is thrown (the home form shows it).
export async function createRoom(settings, name) {
  const r = await net.request(MSG.CREATE_ROOM, { settings });
  saveRoom(r.code, { host_token: r.host_token, watch: r.watch, link: r.link, watch_link: r.watch_link, name });
  localStorage.setItem("rajas.name", name);
  dispatch("intent", { role: ROLES.PLAYER, name });
  go(`/?room=${r.code}`);
}

export function takeSeat(name, seat = null) {
  localStorage.setItem("rajas.name", name);
  dispatch("intent", { role: ROLES.PLAYER, name, ...(seat !== null ? { seat } : {}) });
  joinRoom();
}

export function watch() {
  dispatch("intent", { role: ROLES.SPECTATOR });
  dispatch("screen", { screen: "loading" });
  joinRoom();
}

// A player leaving a game in progress is asked first (the lobby and the final scores are left at once).
async function leaveAllowed() {
  const { role, room, lang } = getState();
  if (role !== ROLES.PLAYER || room?.status !== STATUS.PLAYING) return true;
  const { confirmDialog } = await import("./confirm.js");
  return confirmDialog(lang, { title: t("leave_title", lang), text: t("leave_text", lang), yes: t("leave_yes", lang) });
}

export async function leave() {
  if (!(await leaveAllowed())) return;
  try { await net.request(MSG.LEAVE); } catch { /* leaving anyway */ }
  const { code, room } = getState();
  dispatch("left");
  if (code && room?.status === STATUS.LOBBY) forgetSeat(code);
  goHome();
}

export async function home() {
  if (await leaveAllowed()) goHome();
}

// A decision: exactly one of the legal options, at the version it was chosen at.
export async function decide(wire) {
  if (getState().busy) return;
  dispatch("decideSent");
  window.__decideSent = getState().decideSent;
  dispatch("busy", true);
  try {
    await net.request(MSG.DECIDE, { decision: wire, v: net.v });
  } catch (e) {
    toast(errorText(e));
  }
  dispatch("busy", false); // the update usually came first and was drawn without controls: they are drawn now
}

// Takes back this player's last decision of the turn, at the version seen.
export async function undo() {
  if (getState().busy) return;
  dispatch("busy", true);
  try { await net.request(MSG.UNDO, { v: net.v }); } catch (e) { toast(errorText(e)); }
  dispatch("busy", false);
}

// The room's sheet file as the server has it now (a custom room's settings are sent with it again).
export async function roomSheet() {
  if (!getState().sheetFresh) {
    try { await net.request(MSG.SNAPSHOT); } catch { return null; } // the snapshot arrives before the reply
  }
  return getState().sheetFresh ? getState().sheet : null;
}

export async function setLanguage(lang) {
  try { await loadWords(lang); } catch { return; } // not loaded: the page stays in its language
  const l = setLang(lang);
  localStorage.setItem("rajas.lang", l);
  document.documentElement.lang = l;
  dispatch("language", l);
}

export function openChat(open) {
  dispatch("chatOpen", open);
}

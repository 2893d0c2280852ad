// The page: its start (the language, a seat token from a link, the address's room, the connection) and its drawing.
// Every change of the state (store.js) draws the page again from it: the screen the address and the room call for
// (home, the join screen, the lobby, the game, ...), the chat beside it, the toasts. The screens of a room load with
// the first room the page opens; the room's game loads with its words (games.js). `window.__app` is what the
// end-to-end tests read of the state.

import { h, render } from "./ui.js";
import { t, setLang, loadWords } from "./i18n.js";
import { STATUS } from "./protocol.js";
import { dispatch, getState, subscribe, mySeat, myTurn } from "./store.js";
import { net, route, seatFromLink, useGame, goHome, watch } from "./session.js";
import { Home } from "./home.js";
import { Join, Failed, Loading, Moved } from "./join.js";
import { TopBar } from "./bar.js";
import { turnAlert, setPageTitle } from "./alerts.js";
import { GAMES, gameOf, game, preload } from "./games.js";

// The screens of a room (room.js), loaded with the first room the page opens (the page's first script asked for their
// files already on a room's address: index.html).
let room = null; // the room.js module once loaded
let roomLoading = null;
function loadRoomScreens() {
  if (!roomLoading) {
    preload("/room.js");
    roomLoading = import("./room.js").then((m) => {
      room = m;
      if (drawing) draw(getState());
    }, () => { roomLoading = null; });
  }
  return roomLoading;
}

const root = document.getElementById("app");
root.replaceChildren(); // (its <noscript>: the page draws in it from now on)
const toasts = document.getElementById("toasts");
const chatBox = document.body.appendChild(document.createElement("div"));

function Screen({ state }) {
  const { screen } = state;
  if (screen === "home") return h(Home, { state });
  if (screen === "join") return h(Join, { state });
  if (screen === "error") return h(Failed, { state });
  if (screen === "moved") {
    return h(Moved, { lang: state.lang, bar: h(TopBar, { state, onHome: goHome }), spectators: !!state.room?.settings?.spectators, home: goHome, watch });
  }
  if (!room || !state.room) return h(Loading, { state });
  if (screen === "lobby") return h(room.Lobby, { state });
  if (screen === "game") return h(room.Table, { state });
  return h(Loading, { state });
}

function draw(state) {
  if (state.code && !room) loadRoomScreens();
  render(h(Screen, { state }), root);
  render(state.toasts.map((x) => h("div", { key: x.id, class: `toast toast-${x.kind}${x.leaving ? " leaving" : ""}`, role: x.kind === "error" ? "alert" : "status" }, x.text)), toasts);
  if (room) {
    render(h(room.Chat, { state }), chatBox);
    room.syncDice(state, mySeat(state));
  }
  // written only when it changes: a class written on <body> restyles the whole page
  const chat = !!room && state.joined && !!state.room && (state.screen === "lobby" || state.screen === "game");
  if (document.body.classList.contains("has-chat") !== chat) document.body.classList.toggle("has-chat", chat);
  const name = t("app_title", state.lang);
  setPageTitle(state.lang, state.room && state.screen !== "home" ? `${name.split(" · ")[0]} · ${state.code || state.room.code}` : name);
  expose(state);
}

// ---- what the tests (and curious people) can read ------------------------------------------------------------

let wasMyTurn = false;

function expose(state) {
  const seat = mySeat(state);
  const pending = state.game?.pending;
  const mine = myTurn(state);
  const index = game(gameOf(state.room))?.index;
  const logLines = room ? room.logLines(state, index?.describe).length : 0;
  window.__app = {
    screen: state.screen,
    conn: state.conn,
    code: state.code, // the code this page joined with (RoomView.code is the spectator code)
    role: state.role,
    seat,
    seatId: state.seatId,
    status: state.room?.status ?? null,
    v: state.v,
    netV: net.v,
    round: state.game?.state?.round ?? null,
    pendingPlayer: pending?.player ?? null,
    phase: pending?.phase ?? null,
    myTurn: mine,
    busy: state.busy,
    ready: mine && !state.busy && state.v === net.v && !!room?.controls.ready,
    decideSent: state.decideSent,
    sent: { ...net.sent },
    over: state.room?.status === STATUS.OVER,
    logLines,
    logFirstV: state.log.find((l) => typeof l.v === "number")?.v ?? null,
    sheetName: state.sheet?.name ?? null, // the sheet this page draws
    sheetFresh: state.sheetFresh,
    undo: state.game?.undo ?? 0, // decisions the player to move may take back now
    chatLines: state.chat.lines.length,
    chatSpectators: state.joined ? state.chat.spectators : null,
  };
  window.__net = net;
  // the turn alert: once when this player's turn begins (a hidden tab only)
  const turnOwn = mine && state.screen === "game";
  if (turnOwn && !wasMyTurn) turnAlert(state.lang, state.code);
  wasMyTurn = turnOwn;
}

// ---- start ---------------------------------------------------------------------------------------------------

const q = new URLSearchParams(location.search);
seatFromLink(); // a turn e-mail's or another device's link: its seat token kept, the address cleaned
const lang = setLang(q.get("lang") || localStorage.getItem("rajas.lang") || (navigator.language || "en").slice(0, 2));
document.documentElement.lang = lang;
window.__decideSent = 0;
let drawing = false; // nothing is drawn before the words are there
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
net.connect();
// the words first, the room's screens and game meanwhile
preload(`/i18n/${lang}.js`);
if (routeHasRoom()) { loadRoomScreens(); useGame(gameOf(null), true); } else GAMES.forEach((id) => useGame(id)); // (the home page offers each)
loadWords(lang).then(() => {
  drawing = true;
  subscribe(draw);
  dispatch("language", lang);
  route();
});

function routeHasRoom() {
  return q.has("room") || q.has("watch") || location.hash.length > 1;
}


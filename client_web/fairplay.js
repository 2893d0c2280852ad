// The page's side of fair dice (docs/fairness.md): remember the room's commitment as first seen, contribute a random
// value for the dice while in the lobby, and at the end of the game fetch the log and have the game check every roll
// (its checkDice). What it remembers lives in localStorage (rajas.dice.<spectator code>, `.<n>` added for game n > 1
// of a room's series), so a reload keeps it; the check's result goes to the store, and DiceCheck shows it.

import { h } from "./ui.js";
import { t } from "./i18n.js";
import { MSG, ROLES, STATUS } from "./protocol.js";
import { dispatch } from "./store.js";
import { net } from "./session.js";
import { gameOf, loadGame } from "./games.js";

const KEY = (room) => `rajas.dice.${room}`;

export function loadDice(room) {
  try { return JSON.parse(localStorage.getItem(KEY(room))) || null; } catch { return null; }
}
function saveDice(room, d) { localStorage.setItem(KEY(room), JSON.stringify(d)); }

// Each game of a room's series has its own seed, commitment and contributions (rematch): its own record here.
const gameKey = (room) => (room.series && room.series.game > 1 ? `${room.code}.${room.series.game}` : room.code);

const randomValue = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

let sent = null; // the value on its way to the server
let checking = null; // the game whose check is under way or done
let synced = null; // what the last call saw (a game's update changes nothing here: it is not looked at again)

// Called on every change of the state: contributes in the lobby, checks the dice when the game is over.
export function syncDice(state, seat) {
  const room = state.room;
  if (!state.joined || !room || !room.commitment) return;
  const seen = `${room.code}|${room.status}|${room.series?.game}|${room.commitment}|${state.role}|${seat}|${seat !== null && room.seats[seat]?.contributed}|${sent}`;
  if (seen === synced && room.status !== STATUS.LOBBY) return;
  synced = seen;
  const key = gameKey(room);
  let d = loadDice(key);
  if (!d) { d = { commitment: room.commitment, value: null, accepted: false }; saveDice(key, d); }
  if (state.role === ROLES.PLAYER && seat !== null && room.status === STATUS.LOBBY) contribute(room, seat, d, key);
  if (room.status === STATUS.OVER && checking !== key) {
    checking = key;
    check(state, d, key);
  }
}

function contribute(room, seat, d, key) {
  if (!d.value) { d.value = randomValue(); saveDice(key, d); }
  // Sent once per page; again after a reload that came before the reply (the same value is accepted again and
  // changes nothing), and for a new seat after leaving and coming back.
  if ((d.accepted && room.seats[seat].contributed) || sent === d.value) return;
  sent = d.value;
  // Against the commitment this page saw first: a server that changed it since is refused (bad_commitment).
  net.request(MSG.CONTRIBUTE, { commitment: d.commitment, value: d.value }).then(
    () => { d.accepted = true; saveDice(key, d); sent = null; },
    // Not connected: tried again with the next change of the room. Refused: not again (the server said why).
    (e) => { if (e?.code === "disconnected" || e?.code === "timeout") sent = null; },
  );
}

async function check(state, d, key) {
  dispatch("dice", { key, commitment: d.commitment, result: null });
  let log = null;
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(state.code)}/log`);
    if (res.ok) log = await res.json();
  } catch { /* shown as a log that could not be fetched */ }
  const { index } = await loadGame(gameOf(state.room), state.lang);
  // Only a value the server accepted must be in the log: one sent too late (the host had already started) was never
  // part of the dice, and the page says nothing against the server for it.
  const result = log ? await index.checkDice(log, { commitment: d.commitment, contribution: d.accepted ? d.value : null })
    : { ok: false, step: { kind: "no_log" }, rolls: 0, text: (lang) => t("dice_failed_no_log", lang) };
  window.__dice = { ok: result.ok, step: result.step, rolls: result.rolls, text: result.text(state.lang) };
  dispatch("dice", { key, commitment: d.commitment, result });
}

// The check, and the commitment this page saw (for rajas verify).
export function DiceCheck({ dice, lang }) {
  if (!dice) return null;
  const r = dice.result;
  return h("div", { class: "dice-check-box" },
    h("p", { role: "status", "aria-live": "polite", class: `dice-check ${r ? (r.ok ? "ok" : "failed") : "muted"}`, "data-dice-check": r ? (r.ok ? "ok" : "failed") : "checking" },
      r ? r.text(lang) : t("dice_checking", lang)),
    h("p", { class: "muted small commitment-seen" }, `${t("dice_commitment_seen", lang)} `, h("code", { "data-commitment": dice.commitment }, dice.commitment)));
}

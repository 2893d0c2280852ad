// The page's side of fair dice (docs/fairness.md): remember the room's commitment as first seen, contribute a
// random value for the dice while in the lobby, and at the end of the game fetch the log and check every roll
// (dicecheck.js). What it remembers lives in localStorage, so a reload keeps it.

import { checkLog } from "./dicecheck.js";
import { toHex } from "./sha256.js";
import { MSG, ROLES, STATUS } from "./protocol.js";
import { t } from "./i18n.js";
import { html } from "./svg.js";

const KEY = (room) => `rajas.dice.${room}`;

export function loadDice(room) {
  try { return JSON.parse(localStorage.getItem(KEY(room))) || null; } catch { return null; }
}
function saveDice(room, d) { localStorage.setItem(KEY(room), JSON.stringify(d)); }

// Each game of a room's series has its own seed, commitment and contributions (rematch): its own record here.
const gameKey = (room) => (room.series && room.series.game > 1 ? `${room.code}.${room.series.game}` : room.code);

const randomValue = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

export class DiceCheck {
  constructor(net) {
    this.net = net;
    this.sent = null; // the value on its way to the server
    this.room = null;
    this.result = null; // {ok, rolls, step} once checked
    this.checking = false;
    this.nodes = new Set();
    this.lang = "en";
  }

  /** Called on every change of the room the page shows; `seat` is this page's seat index or null. */
  sync(S, seat) {
    const room = S.room;
    if (!S.joined || !room || !room.commitment) return;
    this.lang = S.lang;
    const key = gameKey(room);
    if (this.room !== key) Object.assign(this, { room: key, sent: null, result: null, checking: false });
    let d = loadDice(key);
    if (!d) { d = { commitment: room.commitment, value: null, accepted: false }; saveDice(key, d); }
    if (S.role === ROLES.PLAYER && seat !== null && room.status === STATUS.LOBBY) this.contribute(room, seat, d, key);
    if (room.status === STATUS.OVER && !this.result && !this.checking) this.check(S.code, d);
  }

  contribute(room, seat, d, key = room.code) {
    if (!d.value) { d.value = randomValue(); saveDice(key, d); }
    // Sent once per page; again after a reload that came before the reply (the same value is accepted again
    // and changes nothing), and for a new seat after leaving and coming back.
    if ((d.accepted && room.seats[seat].contributed) || this.sent === d.value) return;
    this.sent = d.value;
    // Against the commitment this page saw first: a server that changed it since is refused (bad_commitment).
    this.net.request(MSG.CONTRIBUTE, { commitment: d.commitment, value: d.value }).then(
      () => { d.accepted = true; saveDice(key, d); this.sent = null; },
      // Not connected: tried again with the next change of the room. Refused: not again (the server said why).
      (e) => { if (e?.code === "disconnected" || e?.code === "timeout") this.sent = null; },
    );
  }

  async check(code, d) {
    this.checking = true;
    let log = null;
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(code)}/log`);
      if (res.ok) log = await res.json();
    } catch { /* shown as a log that could not be fetched */ }
    // Only a value the server accepted must be in the log: one sent too late (the host had already started)
    // was never part of the dice, and the page says nothing against the server for it.
    const result = log ? checkLog(log, { commitment: d.commitment, contribution: d.accepted ? d.value : null }) : { ok: false, step: { kind: "no_log" }, rolls: 0 };
    this.result = result;
    this.checking = false;
    window.__dice = { ...result, text: this.text() };
    for (const n of this.nodes) if (n.isConnected) this.paint(n); else this.nodes.delete(n);
  }

  text(lang = this.lang) {
    const r = this.result;
    if (!r) return t("dice_checking", lang);
    if (r.ok) return t("dice_verified", lang, { n: r.rolls });
    const s = r.step;
    if (s.kind === "roll") {
      const where = s.decision === null ? t("dice_at_start", lang) : t("dice_at_decision", lang, { i: s.decision + 1 });
      const detail = s.die === null ? t("dice_roll_shape", lang) : t("dice_roll_face", lang, { d: s.die + 1, a: s.log + 1, b: s.dice + 1 });
      return t("dice_failed_roll", lang, { r: s.roll, w: where, x: detail });
    }
    const seatOf = (x) => (typeof x === "number" ? x + 1 : x); // seats counted from 1, as people count them
    const vars = { seat: seatOf(s.seat ?? 0), a: seatOf(s.log), b: seatOf(s.dice), saw: String(s.saw || "").slice(0, 12), log: String(s.log || "").slice(0, 12) };
    return t(`dice_failed_${s.kind}`, lang, vars);
  }

  paint(n) {
    const r = this.result;
    n.dataset.diceCheck = r ? (r.ok ? "ok" : "failed") : "checking";
    n.className = `dice-check ${r ? (r.ok ? "ok" : "failed") : "muted"}`;
    n.textContent = this.text();
  }

  /** The check, updated in place when it finishes, and the commitment this page saw (for rajas verify). */
  node() {
    const n = html("p", { role: "status", "aria-live": "polite" });
    this.paint(n);
    this.nodes.add(n);
    const d = this.room ? loadDice(this.room) : null;
    const seen = d ? html("p", { class: "muted small commitment-seen" }, `${t("dice_commitment_seen", this.lang)} `,
      html("code", { "data-commitment": d.commitment }, d.commitment)) : null;
    return html("div", { class: "dice-check-box" }, n, seen);
  }
}

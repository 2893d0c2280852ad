// Turn-based rooms in the browser (issue 19): the create form's choice of real-time or turn-based with the
// limit per turn and what happens after it; whose turn it is and since when (a turn-based game shows that in
// place of the seconds-left clock); the e-mail field for turn notices, shown only when the server offers
// e-mail (the hello reply's `email`) and kept by the server with the seat alone.

import { html } from "./svg.js";
import { glyph } from "./glyphs.js";
import { MSG, ROLES, STATUS } from "./protocol.js";
import { tokenFromLink } from "./links.js";

export const LIMITS = [1, 6, 12, 24, 48, 72, 168, 336]; // hours per turn offered (the protocol allows 1 to 336)

export function turnBased(room) {
  return room?.settings?.mode === "turns";
}

function hoursText(h, L) {
  return h % 24 === 0 ? L("turns_days", { n: h / 24 }) : L("turns_hours", { n: h });
}

// The create form's fields: {row, values()} for RoomSettings' mode, turn_limit and after_limit.
export function turnFields(L, st = {}) {
  const opt = (v, label, sel) => html("option", { value: v, selected: sel || null }, label);
  const mode = html("select", { name: "mode", "data-field": "mode" },
    opt("live", L("turns_live"), st.mode !== "turns"), opt("turns", L("turns_turns"), st.mode === "turns"));
  const limit = html("select", { name: "turn_limit", "data-field": "turn_limit" },
    LIMITS.map((h) => opt(h, hoursText(h, L), h === (st.turn_limit || 24))));
  const after = html("select", { name: "after_limit", "data-field": "after_limit" },
    opt("bot", L("turns_after_bot"), st.after_limit !== "skip"), opt("skip", L("turns_after_skip"), st.after_limit === "skip"));
  const field = (label, input) => html("label", { class: "field" }, html("span", { class: "field-label" }, label), input);
  const extra = html("div", { class: "field-row turns-extra", "data-turns": "" }, field(L("turns_limit"), limit), field(L("turns_after"), after));
  const sync = () => { extra.hidden = mode.value !== "turns"; };
  mode.addEventListener("change", sync);
  sync();
  const row = html("div", { class: "turns-fields" }, html("div", { class: "field-row" }, field(L("turns_mode"), mode)), extra);
  return {
    row,
    values: () => (mode.value === "turns"
      ? { mode: "turns", turn_limit: Number(limit.value), after_limit: after.value }
      : { mode: "live" }),
  };
}

// The settings a lobby form must send again unchanged (it sends all settings at once).
export function keptTurnSettings(st) {
  return st.mode ? { mode: st.mode, turn_limit: st.turn_limit, after_limit: st.after_limit } : {};
}

// A line for the lobby's settings list.
export function turnSettingText(st, L) {
  if (!turnBased({ settings: st })) return L("turns_live");
  return `${L("turns_turns")} · ${hoursText(st.turn_limit, L)} · ${L(st.after_limit === "skip" ? "turns_after_skip" : "turns_after_bot")}`;
}

function relative(seconds, lang) {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const a = Math.abs(seconds);
  if (a < 60) return rtf.format(Math.round(seconds), "second");
  if (a < 3600) return rtf.format(Math.round(seconds / 60), "minute");
  if (a < 86400) return rtf.format(Math.round(seconds / 3600), "hour");
  return rtf.format(Math.round(seconds / 86400), "day");
}

function when(t, lang) {
  return new Intl.DateTimeFormat(lang, { weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(t * 1000));
}

// Paints whose turn it is and since when into the game bar's clock (called every second). False: not a
// turn-based game in play (the live clock paints itself).
export function paintTurn(node, view) {
  const S = view.S;
  const room = S.room;
  if (!turnBased(room) || room.status !== STATUS.PLAYING || !room.turn_began) return false;
  const who = S.game?.pending?.player;
  const name = who === null || who === undefined ? "" : (room.seats[who]?.name || "");
  const now = Date.now() / 1000;
  const lang = view.lang;
  const L = view.L.bind(view);
  const since = html("time", { datetime: new Date(room.turn_began * 1000).toISOString(), title: when(room.turn_began, lang) }, relative(room.turn_began - now, lang));
  const parts = [glyph("clock", 16), " ", html("span", { "data-turn-of": String(who) }, view.myTurn() ? L("turns_yours") : L("turns_of", { p: name })), " ", L("turns_since"), " ", since];
  if (room.deadline) {
    parts.push(" · ", L("turns_until"), " ", html("time", { datetime: new Date(room.deadline * 1000).toISOString(), "data-deadline": "" }, when(room.deadline, lang)));
  }
  node.replaceChildren(...parts);
  node.setAttribute("data-turn-began", String(room.turn_began));
  node.classList.remove("urgent");
  return true;
}

// The e-mail field for turn notices (players of a turn-based room, when the server offers e-mail).
export function emailCard(actions, L) {
  const S = actions.state;
  if (!turnBased(S.room) || S.role !== ROLES.PLAYER || !actions.net.server?.email) return null;
  const key = `rajas.email.${S.code}`;
  const saved = localStorage.getItem(key) || "";
  const input = html("input", { type: "email", name: "email", maxlength: 254, autocomplete: "email", value: saved, "data-field": "email", "aria-describedby": "email-hint" });
  const status = html("span", { class: "email-status", role: "status" }, saved ? L("turns_email_set") : "");
  return html("form", { class: "email-form", "data-form": "email", onsubmit: async (e) => {
    e.preventDefault();
    const address = input.value.trim();
    const r = await actions.send(MSG.EMAIL, { address: address || null });
    if (r === null) return; // refused: the toast says why
    if (address) localStorage.setItem(key, address); else localStorage.removeItem(key);
    status.textContent = address ? L("turns_email_set") : L("turns_email_off");
    actions.redraw?.(); // (the room's update may have drawn the lobby again meanwhile, from the old address)
  } },
  html("label", { class: "field" }, html("span", { class: "field-label" }, L("turns_email")), input),
  html("p", { class: "hint", id: "email-hint" }, L("turns_email_hint")),
  html("button", { type: "submit", class: "btn small", "data-action": "email" }, L("turns_email_save")),
  status);
}

// The same field in a game's side column, folded (players come and go: an address may be given at any time).
export function emailDetails(actions, L) {
  const card = emailCard(actions, L);
  return card && html("details", { class: "email-details card" }, html("summary", null, L("turns_email")), card);
}

// A link from a turn e-mail (?room=CODE#resume=TOKEN, links.js): the seat token, kept like any seat's, leaves
// the address bar.
export function seatFromLink(remember) {
  const link = tokenFromLink("resume");
  if (link) remember(link.room, link.token);
}

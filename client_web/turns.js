// The clock and turn-based rooms: the create form's choice of real-time or turn-based with the limit per turn and
// what happens after it; the game bar's clock (the seconds left of a live turn clock, or whose turn it is and since
// when in a turn-based game); the e-mail field for turn notices, shown only when the server offers e-mail (the hello
// reply's `email`) and kept by the server with the seat alone.

import { h, Component } from "./ui.js";
import { glyph } from "./glyphs.js";
import { t } from "./i18n.js";
import { MSG, ROLES, STATUS } from "./protocol.js";
import { net, send } from "./session.js";

export const LIMITS = [1, 6, 12, 24, 48, 72, 168, 336]; // hours per turn offered (the protocol allows 1 to 336)

export function turnBased(room) {
  return room?.settings?.mode === "turns";
}

function hoursText(hours, L) {
  return hours % 24 === 0 ? L("turns_days", { n: hours / 24 }) : L("turns_hours", { n: hours });
}

// The create form's fields for RoomSettings' mode, turn_limit and after_limit; values() through `handle.current`.
export class TurnFields extends Component {
  constructor(props) {
    super(props);
    this.state = { mode: "live", limit: 24, after: "bot" };
    if (props.handle) props.handle.current = this;
  }

  values() {
    const { mode, limit, after } = this.state;
    return mode === "turns" ? { mode: "turns", turn_limit: Number(limit), after_limit: after } : { mode: "live" };
  }

  render({ L }) {
    const { mode, limit, after } = this.state;
    const field = (label, input) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), input);
    const select = (name, value, options, key) => h("select", { name, "data-field": name, value, onChange: (e) => this.setState({ [key]: e.target.value }) },
      options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
    return h("div", { class: "turns-fields" },
      h("div", { class: "field-row" }, field(L("turns_mode"), select("mode", mode, [["live", L("turns_live")], ["turns", L("turns_turns")]], "mode"))),
      h("div", { class: "field-row turns-extra", "data-turns": "", hidden: mode !== "turns" },
        field(L("turns_limit"), select("turn_limit", limit, LIMITS.map((x) => [x, hoursText(x, L)]), "limit")),
        field(L("turns_after"), select("after_limit", after, [["bot", L("turns_after_bot")], ["skip", L("turns_after_skip")]], "after"))));
  }
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

function when(time, lang) {
  return new Intl.DateTimeFormat(lang, { weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(time * 1000));
}

// The game bar's clock, drawn again every second: a live room's seconds left for the turn, or in a turn-based game
// whose turn it is, since when and until when.
export class Clock extends Component {
  componentDidMount() {
    this.timer = setInterval(() => this.forceUpdate(), 1000);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
  }

  render({ room, lang, who, mine }) {
    const L = (k, v) => t(k, lang, v);
    if (turnBased(room) && room.status === STATUS.PLAYING && room.turn_began) {
      const name = who === null || who === undefined ? "" : (room.seats[who]?.name || "");
      return h("span", { class: "clock", "data-clock": "", "data-turn-began": String(room.turn_began) },
        glyph("clock", 16), " ", h("span", { "data-turn-of": String(who) }, mine ? L("turns_yours") : L("turns_of", { p: name })), " ", L("turns_since"), " ",
        h("time", { datetime: new Date(room.turn_began * 1000).toISOString(), title: when(room.turn_began, lang) }, relative(room.turn_began - Date.now() / 1000, lang)),
        room.deadline ? [" · ", L("turns_until"), " ", h("time", { datetime: new Date(room.deadline * 1000).toISOString(), "data-deadline": "" }, when(room.deadline, lang))] : null);
    }
    if (!room.deadline || room.status !== STATUS.PLAYING) return h("span", { class: "clock", "data-clock": "" });
    const left = Math.max(0, Math.round(room.deadline - Date.now() / 1000));
    return h("span", { class: `clock${left <= 10 ? " urgent" : ""}`, "data-clock": "" }, glyph("clock", 16), ` ${L("clock_left", { n: left })}`);
  }
}

// The e-mail field for turn notices (players of a turn-based room, when the server offers e-mail).
export class EmailCard extends Component {
  async save(e) {
    e.preventDefault();
    const { code } = this.props;
    const address = e.target.elements.email.value.trim();
    const r = await send(MSG.EMAIL, { address: address || null });
    if (r === null) return; // refused: the toast says why
    if (address) localStorage.setItem(`rajas.email.${code}`, address); else localStorage.removeItem(`rajas.email.${code}`);
    this.setState({ said: address ? "turns_email_set" : "turns_email_off" });
  }

  render({ room, role, code, lang, folded = false }) {
    if (!turnBased(room) || role !== ROLES.PLAYER || !net.server?.email) return null;
    const L = (k) => t(k, lang);
    const saved = localStorage.getItem(`rajas.email.${code}`) || "";
    const said = this.state.said ?? (saved ? "turns_email_set" : null);
    const form = h("form", { class: "email-form", "data-form": "email", onSubmit: (e) => this.save(e) },
      h("label", { class: "field" }, h("span", { class: "field-label" }, L("turns_email")),
        h("input", { type: "email", name: "email", maxlength: 254, autocomplete: "email", defaultValue: saved, "data-field": "email", "aria-describedby": "email-hint" })),
      h("p", { class: "hint", id: "email-hint" }, L("turns_email_hint")),
      h("button", { type: "submit", class: "btn small", "data-action": "email" }, L("turns_email_save")),
      h("span", { class: "email-status", role: "status" }, said ? L(said) : ""));
    // in a game's side column, folded (players come and go: an address may be given at any time)
    return folded ? h("details", { class: "email-details card" }, h("summary", null, L("turns_email")), form) : form;
  }
}

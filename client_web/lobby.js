// The lobby: who is in the room and connected (and whose page has sent its random value for the dice), the invite
// and spectator links, the room's settings (the game's own among them: its Options), and for the host: remove a
// player or make them host, add or remove a bot (the kinds the room's game offers: Random, Greedy and the game's
// own levels, paced by the server so people can follow them), and start. A host's change of a setting is sent at once as the whole settings (the server checks
// them like create_room's).

import { h, Component, createRef } from "./ui.js";
import { t } from "./i18n.js";
import { glyph, SEAT_COLOURS } from "./glyphs.js";
import { MSG, ROLES, SETTINGS } from "./protocol.js";
import { TopBar } from "./bar.js";
import { AlertSettings } from "./alerts.js";
import { CopyButton } from "./links.js";
import { readyBadge, readyToggle, seriesTable, RoomGames } from "./series.js";
import { LIMITS, hoursText, keptTurnSettings, turnBased, turnSettingText, EmailCard } from "./turns.js";
import { DeviceButton, seatLink } from "./device.js";
import { isHost, leave, loadRoom, roomSheet, send, stored, toast } from "./session.js";
import { game, gameOf } from "./games.js";

function durationText(s, L) {
  return s >= 60 && s % 60 === 0 ? L("minutes", { n: s / 60 }) : L("seconds", { n: s });
}

// Choices for a duration setting: the usual ones, plus the room's own value if it is another.
function durationOptions(values, current, L, none) {
  const all = [...values];
  if (current !== null && current !== undefined && !all.includes(current)) all.push(current);
  all.sort((a, b) => a - b);
  const opts = all.map((v) => [String(v), durationText(v, L)]);
  return none ? [["0", L("no_clock")], ...opts] : opts;
}

function linkRow(label, url, lang, attr) {
  return h("div", { class: "link-row" }, h("span", { class: "field-label" }, label),
    h("div", { class: "link-box" }, h("input", { class: "link-input", defaultValue: url, readonly: true, "aria-label": label, [attr]: "", onFocus: (e) => e.target.select() }),
      h(CopyButton, { text: url, lang, attrs: { class: "btn small", "data-action": "copy" } })));
}

// The kind of bot the host chose last, kept while the lobby is drawn again.
let botKind = SETTINGS.bots[0];

// The bots the room's game offers (the room view's `bots`, from the game's plug-in; older servers send none).
function botKinds(room) {
  return Array.isArray(room?.bots) && room.bots.length ? room.bots : SETTINGS.bots;
}

// The host's editor. Each change sends every setting, the game's part as the game's Options gives it (a custom sheet
// is sent again with the others: the room's file, asked for in a snapshot when the page has none).
class SettingsForm extends Component {
  constructor(props) {
    super(props);
    this.options = createRef();
    this.form = createRef();
  }

  tableValues() {
    const f = this.form.current.elements;
    const st = this.props.state.room.settings;
    // a turn-based room's form has its time per turn and what follows it; the live clock and grace are sent unchanged
    const turns = turnBased({ settings: st });
    return {
      seats: Number(f.seats.value), spectators: f.spectators.checked, turn_clock: turns ? st.turn_clock ?? null : Number(f.turn_clock.value) || null,
      grace: turns ? st.grace : Number(f.grace.value), bot: f.bot.value, public: f.public.checked, undo: f.undo.checked, takeover: f.takeover.checked,
      ...keptTurnSettings(st),
      ...(turns ? { turn_limit: Number(f.turn_limit.value), after_limit: f.after_limit.value } : {}),
    };
  }

  // A change of the table's settings: sent with the game's as the room has them.
  async changed() {
    const own = this.options.current ? await this.options.current.values() : {};
    if (!own) { toast(t("err_disconnected", this.props.state.lang)); this.forceUpdate(); return; }
    await send(MSG.SETTINGS, { settings: { ...this.tableValues(), ...own } }); // refused: the toast says why
    this.forceUpdate(); // a refusal puts the form back as the room is
  }

  // The game's change: sent with the table's settings; a refusal is the game's to show (or the toast's).
  async sendGame(fields, { quiet = false } = {}) {
    if (!fields) { toast(t("err_disconnected", this.props.state.lang)); this.forceUpdate(); return; }
    const r = await send(MSG.SETTINGS, { settings: { ...this.tableValues(), ...fields } }, { quiet });
    this.forceUpdate();
    return r;
  }

  render({ state }) {
    const { room, lang, sheet } = state;
    const L = (k, v) => t(k, lang, v);
    const st = room.settings;
    const select = (name, options, value) => h("select", { name, "data-setting-input": name, value, onChange: () => this.changed() },
      options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
    const check = (name, on) => h("input", { type: "checkbox", name, checked: on, "data-setting-input": name, onChange: () => this.changed() });
    const seatOpts = [];
    for (let n = Math.max(SETTINGS.seats.min, room.seats.length); n <= SETTINGS.seats.max; n++) seatOpts.push([String(n), String(n)]);
    const field = (label, input) => h("label", { class: "field" }, h("span", { class: "field-label" }, label), input);
    const Options = game(gameOf(room))?.index.Options;
    const turns = turnBased(room);
    const limits = [...new Set([...LIMITS, st.turn_limit].filter(Boolean))].sort((a, b) => a - b);
    return h("form", { class: "settings-form", "data-form": "settings", ref: this.form, onSubmit: (e) => e.preventDefault() },
      h("div", { class: "field-row" }, field(L("players_count"), select("seats", seatOpts, String(st.seats))),
        turns ? field(L("turns_limit"), select("turn_limit", limits.map((x) => [String(x), hoursText(x, L)]), String(st.turn_limit)))
          : field(L("turn_clock"), select("turn_clock", durationOptions([60, 120, 300], st.turn_clock, L, true), String(st.turn_clock || 0)))),
      Options ? h(Options, { handle: this.options, lang, mode: "host", settings: st, sheet, roomSheet, send: (fields, o) => this.sendGame(fields, o) }) : null,
      h("div", { class: "field-row" }, turns
        ? field(L("turns_after"), select("after_limit", [["bot", L("turns_after_bot")], ["skip", L("turns_after_skip")]], st.after_limit === "skip" ? "skip" : "bot"))
        : field(L("grace"), select("grace", durationOptions([30, 60, 120, 300], st.grace, L, false), String(st.grace))),
        field(L("bot_label"), select("bot", botKinds(room).map((b) => [b, L(`bot_${b}`)]), st.bot))),
      h("label", { class: "check" }, check("spectators", st.spectators), h("span", null, L("allow_spectators"))),
      h("label", { class: "check" }, check("public", st.public), h("span", null, L("public_room"))),
      h("label", { class: "check" }, check("undo", st.undo !== false), h("span", null, L("undo_setting"))),
      h("label", { class: "check" }, check("takeover", !!st.takeover), h("span", null, L("takeover_setting"))));
  }
}

function SettingsList({ state }) {
  const { room, lang, sheet } = state;
  const L = (k, v) => t(k, lang, v);
  const st = room.settings;
  const Options = game(gameOf(room))?.index.Options;
  const row = (key, label, value) => [h("dt", null, label), h("dd", { "data-setting": key }, value)];
  const yes = (on) => (on ? "✓" : "✗");
  return h("dl", { class: "settings-list" },
    Options ? h(Options, { lang, mode: "guest", settings: st, sheet }) : null,
    row("seats", L("players_count"), String(st.seats)),
    // (a turn-based room has no live clock nor grace: its line says its time per turn)
    turnBased(room) ? null : row("turn_clock", L("turn_clock"), st.turn_clock ? durationText(st.turn_clock, L) : L("no_clock")),
    row("mode", L("turns_mode"), turnSettingText(st, L)),
    row("spectators", L("spectators"), yes(st.spectators)),
    turnBased(room) ? null : row("grace", L("grace"), durationText(st.grace, L)),
    row("bot", L("bot_label"), L(`bot_${st.bot}`)),
    row("public", L("public_room"), yes(st.public)),
    row("undo", L("undo_setting"), yes(st.undo !== false)),
    row("takeover", L("takeover_setting"), yes(st.takeover)));
}

function Seats({ state, host }) {
  const { room, lang, seatId } = state;
  const L = (k, v) => t(k, lang, v);
  const rows = [];
  for (let i = 0; i < room.settings.seats; i++) {
    const s = room.seats[i];
    if (!s) {
      rows.push(h("li", { class: "seat empty" }, h("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }), h("span", { class: "muted" }, L("free_seat"))));
      continue;
    }
    const you = s.id === seatId;
    rows.push(h("li", { class: `seat${you ? " you" : ""}`, "data-seat": i, "data-connected": s.connected ? "1" : "0" },
      h("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }),
      h("span", { class: "seat-name" }, s.name, you ? h("span", { class: "muted" }, ` ${L("you_paren")}`) : null),
      room.host === s.id ? h("span", { class: "badge host" }, glyph("crown", 15), ` ${L("host")}`) : null,
      s.contributed ? h("span", { class: "badge dice-in", "data-contributed": "1", title: L("dice_contributed_title") }, L("dice_contributed")) : null,
      readyBadge(s, lang),
      // a bot's seat shows which bot plays it, in place of the online / away mark a person's seat has
      s.kind ? h("span", { class: "badge bot", "data-bot-kind": s.kind }, `${L("bot_seat")} · ${L(`bot_${s.kind}`)}`)
        : h("span", { class: `presence ${s.connected ? "on" : "off"}` }, h("span", { class: "dot" }), s.connected ? L("online") : L("away")),
      host && s.kind ? h("span", { class: "seat-actions" },
        h("button", { type: "button", class: "btn small danger", "data-action": "remove-bot", "aria-label": L("remove_bot_named", { p: s.name }), onClick: () => send(MSG.REMOVE_BOT, { seat: i }) }, L("remove_bot")))
        : host && !you ? h("span", { class: "seat-actions" },
          h("button", { type: "button", class: "btn small", "data-action": "make-host", onClick: () => send(MSG.HAND_OVER, { seat: i }) }, L("make_host")),
          h("button", { type: "button", class: "btn small danger", "data-action": "kick", onClick: () => send(MSG.KICK, { seat: i }) }, L("kick"))) : null));
  }
  return h("ul", { class: "seat-list lobby-seats", "data-list": "seats" }, rows);
}

// The host's bot chooser under the seats: which bot, and "Add bot" (while a seat is free).
function BotControls({ room, lang }) {
  const full = room.seats.length >= room.settings.seats;
  const id = "bot-kind-choice";
  const kinds = botKinds(room);
  if (!kinds.includes(botKind)) botKind = kinds.includes(SETTINGS.bots[0]) ? SETTINGS.bots[0] : kinds[0];
  return h("div", { class: "bot-controls", role: "group", "aria-label": t("bots_title", lang) },
    h("label", { class: "field", for: id }, h("span", { class: "field-label" }, t("bot_kind", lang))),
    h("select", { id, "data-field": "bot-kind", value: botKind, onChange: (e) => { botKind = e.target.value; } },
      kinds.map((b) => h("option", { value: b, selected: b === botKind }, t(`bot_${b}`, lang)))),
    h("button", { type: "button", class: "btn", "data-action": "add-bot", disabled: full, onClick: () => send(MSG.ADD_BOT, { kind: botKind }) }, `+ ${t("add_bot", lang)}`),
    full ? h("span", { class: "muted small" }, t("bots_full", lang)) : null);
}

class StartButton extends Component {
  async start() {
    this.setState({ sent: true });
    if (!(await send(MSG.START, {}))) this.setState({ sent: false });
  }

  render({ lang, canStart }) {
    return h("div", { class: "start-box" },
      h("button", { type: "button", class: "btn primary big", "data-action": "start", disabled: !canStart || !!this.state.sent, onClick: () => this.start() }, glyph("play", 16), ` ${t("start_game", lang)}`),
      canStart ? null : h("p", { class: "muted" }, t("need_two", lang)));
  }
}

export function Lobby({ state }) {
  const { lang, room, role, code } = state;
  const L = (k, v) => t(k, lang, v);
  const host = isHost(state);
  const kept = stored();
  // room.code is the spectator code; the invite code is only known to players (the code they joined with)
  const player = role === ROLES.PLAYER;
  const invite = player ? `${location.origin}/?room=${code}` : null;
  const watchLink = kept.watch_link || `${location.origin}/?watch=${room.code}`;
  const st = room.settings;
  const token = player ? loadRoom(code).token : null;
  return h("div", { class: "screen lobby", "data-screen": "lobby" },
    h(TopBar, { state }, h("span", { class: "bar-title" }, `${L("lobby")} · ${player ? code : room.code}`)),
    h("main", { class: "lobby-main" },
      h("section", { class: "card" },
        h("h2", null, L("seats_of", { n: room.seats.length, m: st.seats })),
        h(Seats, { state, host }),
        host ? h(BotControls, { room, lang }) : null,
        h("p", { class: "muted", "data-count": "spectators", "data-n": room.spectators }, glyph("eye", 16), ` ${L("watching_n", { n: room.spectators })}`),
        host ? h(StartButton, { lang, canStart: room.seats.length >= 2 })
          : h("p", { class: "waiting" }, role === ROLES.SPECTATOR ? [glyph("eye", 16), ` ${L("watching")} · ${L("waiting_host")}`] : L("waiting_host")),
        room.series && room.series.played > 0 ? readyToggle(state) : null,
        seriesTable(room, lang, state.seatId),
        player ? h(AlertSettings, { lang }) : null,
        h(EmailCard, { room, role, code, lang }),
        h("div", { class: "actions" }, h("button", { type: "button", class: "btn small secondary", "data-action": "leave", onClick: () => leave() }, L("leave")),
          token ? h(DeviceButton, { lang, link: () => seatLink(code, loadRoom(code).token) }) : null),
        h(RoomGames, { key: room.code, lang, code: room.code })),
      h("section", { class: "card" },
        h("h2", null, L(invite ? "invite_friends" : "spectator_link")),
        invite ? linkRow(L("invite_code"), invite, lang, "data-invite") : null,
        invite ? h("div", { class: "big-code", "data-code": code }, code) : null,
        st.spectators ? linkRow(L("spectator_link"), watchLink, lang, "data-watch-link") : null,
        h("h3", null, L("settings")),
        host ? h(SettingsForm, { state }) : h(SettingsList, { state }),
        h("p", { class: "muted small" }, L(host ? "settings_host" : "settings_fixed")))));
}


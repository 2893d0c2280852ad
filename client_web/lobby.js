// The lobby: who is in the room and connected, the invite and spectator links, the room's settings,
// and (for the host) remove / make host / start.

import { glyph } from "./glyphs.js";
import { html } from "./svg.js";
import { t } from "./i18n.js";
import { helpButton } from "./help.js";
import { alertSettings } from "./alerts.js";
import { MSG, ROLES, SETTINGS } from "./protocol.js";
import { SEAT_COLOURS } from "./game.js";
import { roomGames } from "./room_games.js";
import { readyBadge, readyToggle, seriesTable } from "./series.js";
import { botBadge, botControls, removeBotButton } from "./bot_seats.js";
import { keptTurnSettings, turnSettingText, emailCard } from "./turns.js";
import {
  CUSTOM_CHOICE, FILE_CHOICE, readSheetFile, sheetFileRow, sheetTitle, rememberSheet, rememberedSheet,
  isSheetRefusal, refusalStatus, fileErrorStatus,
} from "./sheet_file.js";
import { copyButton } from "./links.js";

function linkRow(label, url, lang, attr) {
  const input = html("input", { class: "link-input", value: url, readonly: true, "aria-label": label, [attr]: "", onfocus: (e) => e.target.select() });
  return html("div", { class: "link-row" }, html("span", { class: "field-label" }, label), html("div", { class: "link-box" }, input, copyButton(url, lang, { class: "btn small", "data-action": "copy" })));
}

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

// The name of a room's sheet: Sun / Moon, or a custom sheet's title (known once its file came in a snapshot).
function sheetLabel(st, S, L) {
  if (typeof st.sheet === "string") return L(`sheet_${st.sheet}`);
  const name = st.sheet.custom;
  return L("sheet_custom", { t: S.sheet && S.sheet.name === name ? sheetTitle(S.sheet) : name });
}

// The host's file choice in the lobby, kept while the lobby is drawn again (presence and updates redraw it).
const pick = { code: null, open: false, status: null };

// The host's editor: every change is sent at once as the whole settings (the server checks it like create_room).
// A custom room's sheet goes with them as the server has it (its snapshot carries the file: also after a reload).
function settingsForm(actions, room, L) {
  const S = actions.state;
  const st = room.settings;
  if (pick.code !== S.code) Object.assign(pick, { code: S.code, open: false, status: null });
  const custom = typeof st.sheet !== "string";
  const select = (name, options, value, onchange = send) => {
    const s = html("select", { name, "data-setting-input": name, onchange },
      options.map(([v, label]) => html("option", { value: v, selected: v === value }, label)));
    s.value = value;
    return s;
  };
  const check = (name, on) => html("input", { type: "checkbox", name, checked: on, "data-setting-input": name, onchange: send });
  const min = Math.max(SETTINGS.seats.min, room.seats.length);
  const seatOpts = [];
  for (let n = min; n <= SETTINGS.seats.max; n++) seatOpts.push([String(n), String(n)]);
  const seats = select("seats", seatOpts, String(st.seats));
  // Sun, Moon, the custom sheet (the room's, or the last one sent from this page), another file
  const known = rememberedSheet();
  const sheetOpts = SETTINGS.sheets.map((s) => [s, L(`sheet_${s}`)]);
  if (custom) sheetOpts.push([CUSTOM_CHOICE, sheetLabel(st, S, L)]);
  else if (known) sheetOpts.push([CUSTOM_CHOICE, L("sheet_custom", { t: sheetTitle(known.sheet) })]);
  sheetOpts.push([FILE_CHOICE, L("sheet_file")]);
  const current = custom ? CUSTOM_CHOICE : st.sheet;
  const sheet = select("sheet", sheetOpts, pick.open ? FILE_CHOICE : current, () => {
    pick.open = sheet.value === FILE_CHOICE;
    pick.status = null;
    fileRow.paint(null);
    fileRow.show(pick.open);
    if (pick.open) fileRow.pick();
    else send();
  });
  // the lobby may have been drawn again while the file chooser was open: then the new one shows the status
  const show = () => (fileRow.isConnected ? fileRow.paint(pick.status) : actions.redraw());
  const fileRow = sheetFileRow({ lang: S.lang, status: pick.status, open: pick.open, onFile: async (file) => {
    let data;
    try {
      data = await readSheetFile(file);
    } catch (e) {
      pick.status = fileErrorStatus(e);
      show();
      return;
    }
    pick.status = { kind: "busy", key: "sheet_sending", vars: { f: file.name } };
    show();
    try {
      await actions.net.request(MSG.SETTINGS, { settings: { ...values(), sheet: data } });
    } catch (e) {
      // refused: the room keeps its settings; the message names the field that is wrong
      pick.status = isSheetRefusal(e) ? refusalStatus(e, file.name) : { kind: "error", key: "sheet_not_sent", vars: { f: file.name }, detail: actions.errorText(e) };
      actions.redraw();
      return;
    }
    rememberSheet(data, file.name);
    Object.assign(pick, { open: false, status: null });
    actions.redraw();
  } });
  const clock = select("turn_clock", durationOptions([60, 120, 300], st.turn_clock, L, true), String(st.turn_clock || 0));
  const grace = select("grace", durationOptions([30, 60, 120, 300], st.grace, L, false), String(st.grace));
  const bot = select("bot", SETTINGS.bots.map((b) => [b, L(`bot_${b}`)]), st.bot);
  const spect = check("spectators", st.spectators);
  const pub = check("public", st.public);
  const undo = check("undo", st.undo !== false);
  const takeover = check("takeover", !!st.takeover);
  function values() {
    return {
      seats: Number(seats.value), spectators: spect.checked, turn_clock: Number(clock.value) || null,
      grace: Number(grace.value), bot: bot.value, public: pub.checked, undo: undo.checked,
      takeover: takeover.checked, ...keptTurnSettings(st),
    };
  }
  // The sheet to send with the other settings: the chosen built-in one, or a custom sheet file.
  async function sheetSpec() {
    const v = sheet.value;
    if (SETTINGS.sheets.includes(v)) return v;
    if (v === CUSTOM_CHOICE && !custom) return known ? known.sheet : null;
    // the room's own sheet (also while another file is being chosen)
    return custom ? actions.roomSheet() : st.sheet;
  }
  async function send() {
    const spec = await sheetSpec();
    if (!spec) { actions.toast(L("err_disconnected")); actions.redraw(); return; }
    await actions.send(MSG.SETTINGS, { settings: { ...values(), sheet: spec } }); // refused: the toast says why
    actions.redraw(); // the update redrew the lobby already; a refusal puts the form back as the room is
  }
  const field = (label, input, cls = "") => html("label", { class: `field ${cls}`.trim() }, html("span", { class: "field-label" }, label), input);
  sheet.title = sheet.selectedOptions[0]?.textContent || "";
  return html("form", { class: "settings-form", "data-form": "settings", onsubmit: (e) => e.preventDefault() },
    html("div", { class: "field-row" }, field(L("players_count"), seats), field(L("sheet"), sheet, "field-sheet"), field(L("turn_clock"), clock)),
    fileRow,
    html("div", { class: "field-row" }, field(L("grace"), grace), field(L("bot_label"), bot)),
    html("label", { class: "check" }, spect, html("span", null, L("allow_spectators"))),
    html("label", { class: "check" }, pub, html("span", null, L("public_room"))),
    html("label", { class: "check" }, undo, html("span", null, L("undo_setting"))),
    html("label", { class: "check" }, takeover, html("span", null, L("takeover_setting"))));
}

export function renderLobby(actions, { statusBadge, langSelect }) {
  const S = actions.state;
  const lang = S.lang;
  const L = (k, v) => t(k, lang, v);
  const room = S.room;
  const stored = actions.stored();
  const mine = room.seats.findIndex((s) => s.id === S.seatId);
  const isHost = (room.host !== null && room.host === S.seatId) || (!!stored.host_token && S.role === ROLES.PLAYER && mine >= 0 && room.host === null);
  const base = `${location.origin}`;
  // room.code is the spectator code; the invite code is only known to players (the code they joined with)
  const player = S.role === ROLES.PLAYER;
  const inviteCode = player ? S.code : null;
  const invite = inviteCode ? `${base}/?room=${inviteCode}` : null;
  const watch = stored.watch_link || `${base}/?watch=${room.code}`;
  const shownCode = inviteCode || room.code;

  const seats = html("ul", { class: "seat-list lobby-seats", "data-list": "seats" });
  for (let i = 0; i < room.settings.seats; i++) {
    const s = room.seats[i];
    if (!s) {
      seats.append(html("li", { class: "seat empty" }, html("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }), html("span", { class: "muted" }, L("free_seat"))));
      continue;
    }
    const you = s.id === S.seatId;
    seats.append(html("li", { class: `seat${you ? " you" : ""}`, "data-seat": i, "data-connected": s.connected ? "1" : "0" },
      html("span", { class: "seat-colour", style: `background:${SEAT_COLOURS[i]}` }),
      html("span", { class: "seat-name" }, s.name, you ? html("span", { class: "muted" }, ` ${L("you_paren")}`) : null),
      room.host === s.id ? html("span", { class: "badge host" }, glyph("crown", 15), ` ${L("host")}`) : null,
      s.contributed ? html("span", { class: "badge dice-in", "data-contributed": "1", title: L("dice_contributed_title") }, L("dice_contributed")) : null,
      readyBadge(s, lang),
      s.kind ? botBadge(s, lang) : html("span", { class: `presence ${s.connected ? "on" : "off"}` }, html("span", { class: "dot" }), s.connected ? L("online") : L("away")),
      isHost && s.kind ? removeBotButton(actions, s, i, lang) : isHost && !you ? html("span", { class: "seat-actions" },
        html("button", { type: "button", class: "btn small", "data-action": "make-host", onclick: () => actions.send(MSG.HAND_OVER, { seat: i }) }, L("make_host")),
        html("button", { type: "button", class: "btn small danger", "data-action": "kick", onclick: () => actions.send(MSG.KICK, { seat: i }) }, L("kick"))) : null));
  }

  const st = room.settings;
  const custom = typeof st.sheet !== "string";
  const editable = isHost;
  const settings = editable ? settingsForm(actions, room, L) : html("dl", { class: "settings-list" },
    html("dt", null, L("sheet")), html("dd", { "data-setting": "sheet", "data-sheet-name": custom ? st.sheet.custom : st.sheet }, sheetLabel(st, S, L)),
    html("dt", null, L("players_count")), html("dd", { "data-setting": "seats" }, String(st.seats)),
    html("dt", null, L("turn_clock")), html("dd", { "data-setting": "turn_clock" }, st.turn_clock ? durationText(st.turn_clock, L) : L("no_clock")),
    html("dt", null, L("turns_mode")), html("dd", { "data-setting": "mode" }, turnSettingText(st, L)),
    html("dt", null, L("spectators")), html("dd", { "data-setting": "spectators" }, st.spectators ? "✓" : "✗"),
    html("dt", null, L("grace")), html("dd", { "data-setting": "grace" }, durationText(st.grace, L)),
    html("dt", null, L("bot_label")), html("dd", { "data-setting": "bot" }, L(`bot_${st.bot}`)),
    html("dt", null, L("public_room")), html("dd", { "data-setting": "public" }, st.public ? "✓" : "✗"),
    html("dt", null, L("undo_setting")), html("dd", { "data-setting": "undo" }, st.undo !== false ? "✓" : "✗"),
    html("dt", null, L("takeover_setting")), html("dd", { "data-setting": "takeover" }, st.takeover ? "✓" : "✗"));

  const canStart = room.seats.length >= 2;
  const start = isHost
    ? html("div", { class: "start-box" },
      html("button", { type: "button", class: "btn primary big", "data-action": "start", disabled: !canStart, onclick: async (e) => {
        e.target.disabled = true;
        const r = await actions.send(MSG.START, {});
        if (!r) e.target.disabled = false;
      } }, glyph("play", 16), ` ${L("start_game")}`),
      canStart ? null : html("p", { class: "muted" }, L("need_two")))
    : html("p", { class: "waiting" }, S.role === ROLES.SPECTATOR ? [glyph("eye", 16), ` ${L("watching")} · ${L("waiting_host")}`] : L("waiting_host"));

  return html("div", { class: "screen lobby", "data-screen": "lobby" },
    html("header", { class: "app-bar" },
      html("a", { class: "brand", href: "/" }, html("span", { class: "brand-mark" }, glyph("elephant", 26)), html("span", null, "Rajas")),
      html("span", { class: "bar-title" }, `${L("lobby")} · ${shownCode}`),
      html("span", { class: "spacer" }), helpButton(lang, () => ({ sheet: actions.state.sheet })), statusBadge(), langSelect()),
    html("main", { class: "lobby-main" },
      html("section", { class: "card" },
        html("h2", null, L("seats_of", { n: room.seats.length, m: st.seats })),
        seats,
        isHost ? botControls(actions, room, lang) : null,
        html("p", { class: "muted", "data-count": "spectators", "data-n": room.spectators }, glyph("eye", 16), ` ${L("watching_n", { n: room.spectators })}`),
        start,
        room.series && room.series.played > 0 ? readyToggle(actions, lang) : null,
        seriesTable(room, lang, S.seatId),
        S.role === ROLES.PLAYER ? alertSettings(lang) : null,
        emailCard(actions, L),
        html("div", { class: "actions" }, html("button", { type: "button", class: "btn small secondary", "data-action": "leave", onclick: () => actions.leave() }, L("leave")),
          actions.deviceButton ? actions.deviceButton() : null),
        roomGames(lang, room.code, { reuse: true })),
      html("section", { class: "card" },
        html("h2", null, L(invite ? "invite_friends" : "spectator_link")),
        invite ? linkRow(L("invite_code"), invite, lang, "data-invite") : null,
        invite ? html("div", { class: "big-code", "data-code": inviteCode }, inviteCode) : null,
        st.spectators ? linkRow(L("spectator_link"), watch, lang, "data-watch-link") : null,
        html("h3", null, L("settings")), settings,
        html("p", { class: "muted small" }, L(editable ? "settings_host" : "settings_fixed")))));
}

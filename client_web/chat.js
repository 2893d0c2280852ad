// The room's chat (docs/protocol.md, Chat): a tab at the bottom corner that opens a panel of the last lines, a line
// to write and a few quick reactions. It lives outside the screens (app.js draws it in a place of its own, so it
// keeps its draft and its focus while the lobby and the game are drawn again). Every line is put in the page as text,
// never markup. New lines are read out politely by screen readers; the host can close the chat for spectators.

import { h, Component } from "./ui.js";
import { t } from "./i18n.js";
import { MSG, ROLES, CHAT_MAX, REACTIONS } from "./protocol.js";
import { net, toast, errorText, openChat } from "./session.js";
import { SEAT_COLOURS } from "./glyphs.js";

// (symbols every system font has: an emoji font is not everywhere)
const REACTION_TEXT = { good_move: "✔", oops: "✗", dice: "⚄", well_played: "★", thinking: "…" };

const seatIds = (s) => (s.room?.seats || []).map((x) => x.id).join(",");

const times = new Map();
function time(line, lang) {
  if (!times.has(lang)) times.set(lang, new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" }));
  return times.get(lang).format(new Date(line.time * 1000));
}

export class Chat extends Component {
  constructor(props) {
    super(props);
    this.input = null;
    this.list = null;
    this.live = null;
    this.tab = null;
  }

  // Drawn again only when something it shows changed: every update of the game draws the page again.
  shouldComponentUpdate({ state: n }) {
    const o = this.props.state;
    return n.chat !== o.chat || n.lang !== o.lang || n.role !== o.role || n.seatId !== o.seatId || n.joined !== o.joined
      || n.screen !== o.screen || n.room?.host !== o.room?.host || seatIds(n) !== seatIds(o); // (the lines' colours)
  }

  who(line) {
    const L = (k, v) => t(k, this.props.state.lang, v);
    if (line.seat !== null) return line.name;
    return line.name ? L("chat_spectator_named", { n: line.name }) : L("chat_spectator");
  }

  body(line) {
    return line.reaction ? `${REACTION_TEXT[line.reaction] || ""} ${t(`chat_r_${line.reaction}`, this.props.state.lang)}` : line.text;
  }

  mayWrite() {
    const { role, chat } = this.props.state;
    return role === ROLES.PLAYER || chat.spectators;
  }

  async write(fields) {
    if (fields.text !== undefined) {
      const text = fields.text.trim();
      if (!text) return;
      fields = { text };
    }
    try {
      await net.request(MSG.CHAT, fields);
      if (fields.text !== undefined && this.input) this.input.value = "";
    } catch (e) {
      toast(errorText(e));
    }
  }

  async setRule(spectators, box) {
    try {
      await net.request(MSG.CHAT_RULES, { spectators });
    } catch (e) {
      toast(errorText(e));
      box.checked = this.props.state.chat.spectators; // refused: as the room is
    }
  }

  componentDidUpdate(prev) {
    const was = prev.state.chat;
    const now = this.props.state.chat;
    if (now.open && !was.open) (this.mayWrite() ? this.input : this.root.querySelector("[data-action=chat-close]"))?.focus();
    if (!now.open && was.open && this.root.contains(document.activeElement)) this.tab?.focus();
    if (now.open && this.list) this.list.scrollTop = this.list.scrollHeight;
    if (now.said !== was.said && now.said && this.live) {
      // a new line (or the rule changing), read out to screen readers, politely
      const text = typeof now.said === "string" ? t(now.said, this.props.state.lang) : `${this.who(now.said)}: ${this.body(now.said)}`;
      this.live.textContent = "";
      setTimeout(() => { if (this.live) this.live.textContent = text; }, 30);
    }
  }

  render({ state }) {
    const { chat, lang, room, seatId, joined, screen } = state;
    const L = (k, v) => t(k, lang, v);
    const shown = joined && !!room && (screen === "lobby" || screen === "game");
    const may = this.mayWrite();
    const host = !!room && room.host !== null && room.host === seatId;
    const seats = room?.seats || [];
    return h("div", { class: "chat", "data-chat": "", hidden: !shown, ref: (n) => { this.root = n; } },
      h("button", { type: "button", class: "chat-tab", "aria-expanded": String(chat.open), "aria-controls": "chat-panel", "data-action": "chat-tab",
        "aria-label": chat.unread ? `${L("chat")}: ${chat.unread} ${L("chat_unread")}` : L("chat"), ref: (n) => { this.tab = n; }, onClick: () => openChat(!chat.open) },
      h("span", { class: "chat-tab-text" }, L("chat")),
      chat.unread ? h("span", { class: "chat-unread", "data-chat-unread": "" }, String(chat.unread), h("span", { class: "visually-hidden" }, ` ${L("chat_unread")}`)) : null),
      h("section", { id: "chat-panel", class: "chat-panel card", role: "dialog", "aria-modal": "false", "aria-labelledby": "chat-heading", hidden: !chat.open,
        onKeyDown: (e) => { if (e.key === "Escape") { e.preventDefault(); openChat(false); } } },
      h("div", { class: "chat-head" }, h("h2", { id: "chat-heading" }, L("chat")),
        h("button", { type: "button", class: "btn small chat-close", "data-action": "chat-close", "aria-label": L("chat_close"), onClick: () => openChat(false) }, "×")),
      h("ol", { class: "chat-lines", "data-chat-lines": "", "aria-label": L("chat_lines"), ref: (n) => { this.list = n; } },
        chat.lines.length ? chat.lines.map((line) => {
          const seat = line.seat !== null ? seats.findIndex((s) => s.id === line.seat) : -1;
          const mine = line.seat !== null && line.seat === seatId;
          return h("li", { key: line.id, class: `chat-line${line.seat === null ? " chat-from-spectator" : ""}${mine ? " chat-mine" : ""}`, "data-chat-line": line.id },
            h("span", { class: "chat-who", style: seat >= 0 ? `border-color: ${SEAT_COLOURS[seat % SEAT_COLOURS.length]}` : null }, this.who(line)),
            h("time", { class: "chat-time", datetime: new Date(line.time * 1000).toISOString() }, time(line, lang)),
            h("span", { class: "chat-text" }, this.body(line)));
        }) : h("li", { class: "chat-empty muted" }, L("chat_empty"))),
      h("p", { class: "chat-note muted", "data-chat-closed": "", hidden: may }, L("chat_closed_note")),
      h("div", { class: "chat-reactions", role: "group", "aria-label": L("chat_reactions") }, REACTIONS.map((r) => h("button", {
        type: "button", class: "btn small chat-reaction", "data-reaction": r, disabled: !may, title: L(`chat_r_${r}`), "aria-label": L(`chat_r_${r}`), onClick: () => this.write({ reaction: r }),
      }, REACTION_TEXT[r]))),
      h("form", { class: "chat-form", onSubmit: (e) => { e.preventDefault(); this.write({ text: this.input.value }); } },
        h("input", { type: "text", class: "chat-input", maxlength: CHAT_MAX, autocomplete: "off", "data-field": "chat-text", disabled: !may, "aria-label": L("chat_write"), placeholder: L("chat_write"), ref: (n) => { this.input = n; } }),
        h("button", { type: "submit", class: "btn primary chat-send", "data-action": "chat-send", disabled: !may }, L("chat_send"))),
      h("label", { class: "check chat-rule", hidden: !host },
        h("input", { type: "checkbox", "data-field": "chat-spectators", checked: chat.spectators, onChange: (e) => this.setRule(e.target.checked, e.target) }),
        h("span", null, L("chat_spectators_may")))),
      h("div", { class: "visually-hidden", "aria-live": "polite", "data-chat-live": "", ref: (n) => { this.live = n; } }));
  }
}

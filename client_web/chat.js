// The room's chat (docs/protocol.md, Chat): a tab at the bottom corner that opens a panel of the last lines, a
// line to write and a few quick reactions. It lives outside the screens (app.js draws the lobby and the game
// again on every update; the chat keeps its lines, its draft and its focus). Every line is put in the page as
// text (text nodes, never markup). New lines are read out politely by screen readers; the host can close the
// chat for spectators.

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { MSG, ROLES, CHAT_MAX, REACTIONS } from "./protocol.js";
import { SEAT_COLOURS } from "./game.js";

const KEEP = 200; // lines this page keeps (the server keeps the last 50 for a reload)
// (symbols every system font has: an emoji font is not everywhere)
const REACTION_TEXT = { good_move: "✔", oops: "✗", dice: "⚄", well_played: "★", thinking: "…" };

export class ChatPanel {
  constructor(actions) {
    this.actions = actions;
    this.S = actions.state;
    this.lines = [];
    this.ids = new Set();
    this.spectators = true; // whether spectators may write
    this.open = false;
    this.unread = 0;
    this.shown = false;
    this.timeFmt = null;
    this.build();
  }

  get lang() { return this.S.lang; }
  L(k, v) { return t(k, this.S.lang, v); }

  // ---- what the server sends ------------------------------------------------------------------------------

  // The chat a snapshot carries (a reload, a reconnect): its lines replace none this page has, so none twice.
  onSnapshot(chat) {
    if (!chat) return;
    this.spectators = chat.spectators;
    for (const line of chat.lines || []) this.add(line, false);
    this.paint();
  }

  onMessage(msg) {
    if (msg.type === "chat_rules") {
      this.spectators = msg.spectators;
      this.say(this.L(msg.spectators ? "chat_opened" : "chat_closed_note"));
    } else if (msg.type === "chat" && this.add(msg.line, true)) {
      const mine = msg.line.seat !== null && msg.line.seat === this.S.seatId;
      if (!this.open && !mine) this.unread += 1;
      this.say(`${this.who(msg.line)}: ${this.body(msg.line)}`);
    }
    this.paint();
  }

  add(line, live) {
    if (this.ids.has(line.id)) return false;
    this.ids.add(line.id);
    this.lines.push(line);
    if (this.lines.length > KEEP) this.ids.delete(this.lines.shift().id);
    return live;
  }

  // A new room: nothing of the last one's chat.
  reset() {
    this.lines = [];
    this.ids.clear();
    this.spectators = true;
    this.unread = 0;
    this.setOpen(false);
  }

  // ---- what the page shows --------------------------------------------------------------------------------

  mayWrite() {
    return this.S.role === ROLES.PLAYER || this.spectators;
  }

  isHost() {
    const room = this.S.room;
    return !!room && room.host !== null && room.host === this.S.seatId;
  }

  who(line) {
    if (line.seat !== null) return line.name;
    return line.name ? this.L("chat_spectator_named", { n: line.name }) : this.L("chat_spectator");
  }

  body(line) {
    return line.reaction ? `${REACTION_TEXT[line.reaction] || ""} ${this.L(`chat_r_${line.reaction}`)}` : line.text;
  }

  time(line) {
    if (!this.timeFmt || this.timeFmt.lang !== this.lang) {
      this.timeFmt = { lang: this.lang, f: new Intl.DateTimeFormat(this.lang, { hour: "2-digit", minute: "2-digit" }) };
    }
    return this.timeFmt.f.format(new Date(line.time * 1000));
  }

  build() {
    this.tab = html("button", { type: "button", class: "chat-tab", "aria-expanded": "false", "aria-controls": "chat-panel", "data-action": "chat-tab", onclick: () => this.setOpen(!this.open) });
    this.list = html("ol", { class: "chat-lines", "data-chat-lines": "" });
    this.input = html("input", { type: "text", class: "chat-input", maxlength: CHAT_MAX, autocomplete: "off", "data-field": "chat-text" });
    this.send = html("button", { type: "submit", class: "btn primary chat-send", "data-action": "chat-send" });
    this.form = html("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.write({ text: this.input.value }); } }, this.input, this.send);
    this.reactionButtons = REACTIONS.map((r) => html("button", { type: "button", class: "btn small chat-reaction", "data-reaction": r, onclick: () => this.write({ reaction: r }) }, REACTION_TEXT[r]));
    this.reactions = html("div", { class: "chat-reactions", role: "group" }, this.reactionButtons);
    this.closedNote = html("p", { class: "chat-note muted", "data-chat-closed": "" });
    this.rule = html("input", { type: "checkbox", "data-field": "chat-spectators", onchange: () => this.setRule(this.rule.checked) });
    this.ruleRow = html("label", { class: "check chat-rule" }, this.rule, html("span"));
    this.heading = html("h2", { id: "chat-heading" });
    this.close = html("button", { type: "button", class: "btn small chat-close", "data-action": "chat-close", onclick: () => this.setOpen(false) }, "×");
    this.panel = html("section", { id: "chat-panel", class: "chat-panel card", role: "dialog", "aria-modal": "false", "aria-labelledby": "chat-heading", hidden: true,
      onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); this.setOpen(false); } } },
    html("div", { class: "chat-head" }, this.heading, this.close), this.list, this.closedNote, this.reactions, this.form, this.ruleRow);
    this.live = html("div", { class: "visually-hidden", "aria-live": "polite", "data-chat-live": "" });
    this.root = html("div", { class: "chat", "data-chat": "", hidden: true }, this.tab, this.panel, this.live);
    document.body.append(this.root);
  }

  setOpen(open) {
    const was = this.open;
    this.open = open;
    if (open) this.unread = 0;
    this.paint();
    if (open && !was) (this.mayWrite() ? this.input : this.close).focus();
    if (!open && was && this.root.contains(document.activeElement)) this.tab.focus();
    if (open) this.list.scrollTop = this.list.scrollHeight;
  }

  // Shown while in a room's lobby or game; drawn in the page's language.
  sync() {
    const S = this.S;
    const shown = S.joined && !!S.room && (S.screen === "lobby" || S.screen === "game");
    this.shown = shown;
    // written only when they change: a class written on <body> restyles the whole page
    if (document.body.classList.contains("has-chat") !== shown) document.body.classList.toggle("has-chat", shown);
    if (this.root.hidden !== !shown) this.root.hidden = !shown;
    if (shown) this.paint();
  }

  paint() {
    if (!this.shown) return;
    // drawn again only when something it shows changed (sync runs on every update of the game)
    const S = this.S;
    const last = this.lines[this.lines.length - 1];
    const key = JSON.stringify([S.lang, this.open, this.unread, this.lines.length, last?.id, this.mayWrite(), this.isHost(), this.spectators, S.seatId, (S.room?.seats || []).map((s) => s.id)]);
    if (key === this.painted) {
      if (this.rule.checked !== this.spectators) this.rule.checked = this.spectators; // a refused change of the rule
      return;
    }
    this.painted = key;
    const L = (k, v) => this.L(k, v);
    const badge = html("span", { class: "chat-unread", "data-chat-unread": "" }, String(this.unread), html("span", { class: "visually-hidden" }, ` ${L("chat_unread")}`));
    this.tab.replaceChildren(...[html("span", { class: "chat-tab-text" }, L("chat")), this.unread ? badge : null].filter(Boolean));
    this.tab.setAttribute("aria-expanded", String(this.open));
    this.tab.setAttribute("aria-label", this.unread ? `${L("chat")}: ${this.unread} ${L("chat_unread")}` : L("chat"));
    this.panel.hidden = !this.open;
    this.heading.textContent = L("chat");
    this.close.setAttribute("aria-label", L("chat_close"));
    this.list.setAttribute("aria-label", L("chat_lines"));
    this.list.replaceChildren(...(this.lines.length ? this.lines.map((line) => this.lineNode(line)) : [html("li", { class: "chat-empty muted" }, L("chat_empty"))]));
    const may = this.mayWrite();
    this.input.disabled = this.send.disabled = !may;
    this.input.setAttribute("aria-label", L("chat_write"));
    this.input.placeholder = L("chat_write");
    this.send.textContent = L("chat_send");
    this.closedNote.hidden = may;
    this.closedNote.textContent = L("chat_closed_note");
    this.reactions.setAttribute("aria-label", L("chat_reactions"));
    REACTIONS.forEach((r, i) => {
      const b = this.reactionButtons[i];
      b.disabled = !may;
      b.title = L(`chat_r_${r}`);
      b.setAttribute("aria-label", L(`chat_r_${r}`));
    });
    this.ruleRow.hidden = !this.isHost();
    this.rule.checked = this.spectators;
    this.ruleRow.lastChild.textContent = L("chat_spectators_may");
    if (this.open) this.list.scrollTop = this.list.scrollHeight;
  }

  lineNode(line) {
    const seat = line.seat !== null ? (this.S.room?.seats || []).findIndex((s) => s.id === line.seat) : -1;
    const colour = seat >= 0 ? SEAT_COLOURS[seat % SEAT_COLOURS.length] : null;
    const mine = line.seat !== null && line.seat === this.S.seatId;
    return html("li", { class: `chat-line${line.seat === null ? " chat-from-spectator" : ""}${mine ? " chat-mine" : ""}`, "data-chat-line": line.id },
      html("span", { class: "chat-who", style: colour ? `border-color: ${colour}` : null }, this.who(line)),
      html("time", { class: "chat-time", datetime: new Date(line.time * 1000).toISOString() }, this.time(line)),
      html("span", { class: "chat-text" }, this.body(line)));
  }

  // Read out a new line (or the rule changing) to screen readers, politely.
  say(text) {
    this.live.textContent = "";
    setTimeout(() => { this.live.textContent = text; }, 30);
  }

  // ---- what the page sends --------------------------------------------------------------------------------

  async write(fields) {
    if (fields.text !== undefined) {
      const text = fields.text.trim();
      if (!text) return;
      fields = { text };
    }
    try {
      await this.actions.net.request(MSG.CHAT, fields);
      if (fields.text !== undefined) this.input.value = "";
    } catch (e) {
      this.actions.toast(this.actions.errorText(e));
    }
  }

  async setRule(spectators) {
    try {
      await this.actions.net.request(MSG.CHAT_RULES, { spectators });
    } catch (e) {
      this.actions.toast(this.actions.errorText(e));
      this.rule.checked = this.spectators;
    }
  }
}

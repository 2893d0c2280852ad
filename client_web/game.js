// The game screen: dice tray, the own sheet large with the legal options, the other players' sheets small
// (click to enlarge), the pending decision in words, the players, the game log, brief animations of every
// change, round / game end announcements and the final score table.

import { glyph } from "./glyphs.js";
import { html, put } from "./svg.js";
import { t } from "./i18n.js";
import { mountSheet, updateSheet, bindOptions } from "./sheet.js";
import { renderDice, keepTray, DIE_KINDS } from "./dice.js";
import { ROLES, STATUS, MSG } from "./protocol.js";
import { explainOnTap, zoomable, settleFocus } from "./play_aids.js";
import { helpButton } from "./help.js";
import { showResult } from "./game_end.js";
import { refreshPlayAgain } from "./series.js";
import { renderPlayers, renderLog } from "./game_side.js";
import { wastedNotices, animate, news } from "./game_news.js";
import { undoSlot, renderUndo } from "./undo.js";
import { renderAway } from "./away.js";
import { paintTurn, emailDetails } from "./turns.js";
import { steadyHeight } from "./steady.js";
import { renderPrompt } from "./prompt.js";

// A kept sheet brought up to date, unless its player is the very object it shows already (an update leaves the
// players it did not change as they were, app.js) with the same name, colour and mark: nothing is compared then.
function freshen(kept, sheet, player, opts) {
  const key = `${opts.name}|${opts.colour}|${opts.active}`;
  if (kept.player === player && kept.key === key) return;
  updateSheet(kept.m.svg, sheet, player, opts);
  Object.assign(kept, { player, key });
}

export const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b", "#6c3483"];

export class GameView {
  constructor(root, actions) {
    this.actions = actions;
    this.S = actions.state;
    // A spectator sees one seat's sheet large, the first at first, or on request whoever is to move. Following keeps
    // every seat's big sheet in the page (parked, see app.css): a third more work per update (docs/benchmarks.md).
    this.focus = 0;
    this.follow = false;
    this.controlsReady = false;
    this.built = null;
    this.tray = null;
    this.binding = null; // the options bound to the own sheet, while it is my turn
    this.bigs = new Map(); // seat -> {m}: the big sheet of each seat shown so far, updated in place
    this.resultShown = false;
    this.zoom = { level: 1 }; // the own sheet's zoom, kept across updates
    this.notices = []; // what the last update wasted (said in the bar)
    this.others = new Map(); // seat -> {key, cell, m}: the small sheets, drawn again only when they change
    this.el = html("div", { class: "screen game", "data-screen": "game" });
    this.body = html("div", { class: "game-body" });
    this.layers = html("div", { class: "game-layers" }); // overlays and announcements survive re-renders
    this.announce = html("div", { class: "announce visually-hidden", "aria-live": "polite" });
    this.el.append(this.body, this.layers, this.announce);
    root.append(this.el);
    this.clockTimer = setInterval(() => this.renderClock(), 1000);
  }

  destroy() {
    clearInterval(this.clockTimer);
    this.logSight?.disconnect();
    this.steady?.forEach((stop) => stop());
    this.dropKept();
    this.el.remove();
  }

  get lang() { return this.S.lang; }
  L(k, v) { return t(k, this.S.lang, v); }

  mySeat() {
    const S = this.S;
    if (S.role !== ROLES.PLAYER || !S.room) return null;
    const i = S.room.seats.findIndex((s) => s.id === S.seatId);
    return i >= 0 ? i : null;
  }

  names() { return this.S.room.seats.map((s) => s.name); }

  myTurn() {
    const S = this.S;
    const me = this.mySeat();
    return me !== null && S.room.status === STATUS.PLAYING && S.game?.pending?.player === me;
  }

  // ---- the whole screen ------------------------------------------------------------------------------

  render(events) {
    const S = this.S;
    if (!S.game || !S.sheet) return;
    const { state, pending } = S.game;
    const me = this.mySeat();
    const big = me ?? (this.follow ? pending.player ?? state.current : this.focus) ?? 0;
    const interactive = this.myTurn() && !S.busy;
    const onDecide = (w) => this.actions.decide(w);
    const options = interactive ? pending.options : [];
    const names = this.names();
    if (events) {
      this.notices = wastedNotices(this, events);
      this.roundNews = news(this, events);
    }
    // The screen's parts stay in place between updates; only what changed is drawn again (a sheet is
    // the costly part: each is kept and only its changed areas are drawn again, see updateSheet).
    if (!this.built || this.built.sheet !== S.sheet || this.built.lang !== this.lang || this.built.me !== me) this.build(me);
    const barKey = `${state.round}|${S.room.status}|${S.role}`;
    if (barKey !== this.barKey) {
      const bar = this.renderBar();
      this.bar.replaceWith(bar);
      this.bar = bar;
      this.barKey = barKey;
    }
    this.controlsReady = false;
    this.renderPrompt();
    renderUndo(this);
    // the tray is brought up to date in place (dice.js) when its dice, their places or its options changed
    const trayOptions = options.filter((w) => DIE_KINDS.has(w[0]));
    const trayKey = trayOptions.length ? null : JSON.stringify([state.faces, state.where, state.reroll, state.start_player, pending.player, state.players.length]);
    if (!trayKey || trayKey !== this.trayKey) {
      const trayOpts = { lang: this.lang, options: trayOptions, onDecide, names, me: me ?? undefined, current: pending.player,
        settle: () => settleFocus(this.left, this.prompt, this.layers) };
      if (!this.tray || !keepTray(this.tray.root, S.sheet, state, trayOpts)) {
        this.tray?.destroy();
        this.tray = renderDice(this.trayBox, S.sheet, state, trayOpts);
      }
    }
    this.trayKey = trayKey;

    // one big sheet per seat, brought up to date in place; the options bound to it while it is my turn
    this.binding?.destroy();
    this.binding?.panel.remove();
    this.binding = null;
    const bigOpts = { lang: this.lang, name: names[big] + (big === me ? ` ${this.L("you_paren")}` : ""), colour: SEAT_COLOURS[big], active: pending.player === big };
    let entry = this.bigs.get(big);
    if (entry) freshen(entry, S.sheet, state.players[big], bigOpts);
    else {
      const m = mountSheet(html("div"), S.sheet, state.players[big], bigOpts);
      m.wrap.dataset.seat = String(big);
      m.wrap.classList.add("big-sheet", "parked");
      const legend = html("p", { class: "sheet-legend muted small", role: "status", "data-legend": "" }, this.L("legend_tap"));
      zoomable(m, this.zoom, this.lang);
      m.wrap.append(legend);
      explainOnTap(m.svg, legend);
      entry = { m };
      this.bigs.set(big, entry);
    }
    // while a spectator follows the player to move, the others stay in the page parked (transparent, under the one
    // shown: see app.css), so a turn passing costs no restyle or repaint of a whole sheet; else only one is kept
    for (const [seat, e] of this.bigs) {
      if (seat !== big && !this.follow) { e.m.destroy(); this.bigs.delete(seat); continue; }
      const parked = seat !== big;
      if (e.m.wrap.classList.contains("parked") === parked) continue;
      e.m.wrap.classList.toggle("parked", parked);
      if (parked) e.m.wrap.setAttribute("aria-hidden", "true"); else e.m.wrap.removeAttribute("aria-hidden");
    }
    if (entry.m.wrap.parentNode !== this.mineBox) this.mineBox.append(entry.m.wrap);
    if (this.followButton) put(this.followButton, "aria-pressed", String(this.follow));
    if (interactive) {
      const panel = html("div", { class: "choices", "aria-live": "polite", "data-panel": "choices" });
      entry.m.wrap.prepend(panel); // the choices above the sheet: next to the bar that asks for them
      const b = bindOptions(entry.m.svg, panel, options, onDecide, { lang: this.lang, pool: pending.pool, effect: pending.effect, faces: state.faces });
      this.binding = { destroy: () => b.destroy(), panel };
    }

    // the small sheets: every player but me (a spectator sees all of them, the one to move marked), so the
    // grid never changes its cells as the turn passes
    const cells = [];
    state.players.forEach((p, seat) => {
      if (seat === me) return;
      const current = pending.player === seat;
      const opts = { lang: this.lang, name: names[seat], colour: SEAT_COLOURS[seat], compact: true, active: current };
      let o = this.others.get(seat);
      if (o) freshen(o, S.sheet, p, opts);
      else {
        const cell = html("button", { type: "button", class: "other", "data-seat": seat, title: this.L("enlarge"), "aria-label": `${names[seat]}: ${this.L("enlarge")}` });
        const m = mountSheet(cell, S.sheet, p, opts);
        m.wrap.dataset.seat = String(seat);
        cell.addEventListener("click", () => this.enlarge(seat));
        o = { cell, m };
        this.others.set(seat, o);
      }
      if (o.cell.classList.contains("current") !== current) o.cell.classList.toggle("current", current);
      cells.push(o.cell);
    });
    cells.forEach((cell, i) => { if (this.grid.children[i] !== cell) this.grid.insertBefore(cell, this.grid.children[i] || null); });
    while (this.grid.children.length > cells.length) this.grid.lastChild.remove();

    this.renderPlayers();
    this.renderLog();
    if (events) animate(this, events);
    if (S.room.status === STATUS.OVER && state.result) {
      const open = this.layers.querySelector("[data-overlay=result]");
      if (!this.resultShown || (open && this.renderedLang !== this.lang)) { this.resultShown = true; this.showResult(); }
      else if (open) refreshPlayAgain(this.layers); // who is ready changes after the game
    }
    this.renderedLang = this.lang;
    this.controlsReady = interactive;
    if (interactive) settleFocus(this.left, this.prompt, this.layers); // (the options are all in the tray and the sheet's column)
  }

  // The screen's parts, empty; drawn anew after a change of language (or of sheet).
  build(me) {
    this.dropKept();
    this.built = { sheet: this.S.sheet, lang: this.lang, me };
    this.bar = this.renderBar();
    this.barKey = null;
    this.prompt = html("div", { class: "prompt", "data-prompt": "" });
    this.promptDrawn = null;
    this.trayBox = html("section", { class: "tray-box", "aria-label": t("dice", this.lang) });
    // the tray and (on a wide window) the bar's sentence keep their tallest height: an update that shortens them
    // does not move, repaint and raster again the whole page below (steady.js); a phone keeps its short bar
    this.steady?.forEach((stop) => stop());
    this.steady = [steadyHeight(this.trayBox), steadyHeight(this.prompt, { media: "(min-width: 701px)" })];
    this.mineBox = html("section", { class: "mine-box" });
    this.playersBox = html("section", { class: "players-box card" });
    this.playersKey = this.trayKey = null;
    this.grid = html("div", { class: "others-grid" });
    this.othersBox = html("section", { class: "others-box" }, html("h2", null, me !== null ? this.L("other_players") : this.L("players")), this.grid);
    this.logBox = html("section", { class: "log-box card" });
    this.logList = null;
    this.body.replaceChildren(this.bar, this.prompt,
      html("div", { class: "game-main" },
        this.left = html("div", { class: "game-left" }, this.trayBox, this.watchTools(me), this.mineBox),
        html("aside", { class: "game-side" }, this.playersBox, emailDetails(this.actions, (k, v) => this.L(k, v)), this.othersBox, this.logBox)));
  }

  // A spectator's choice of the big sheet: follow the player to move, or stay on one seat (⤢ on a small sheet).
  watchTools(me) {
    this.followButton = null;
    if (me !== null || this.S.role !== ROLES.SPECTATOR) return null;
    // (its aria-pressed is written by render, from this.follow)
    this.followButton = html("button", { type: "button", class: "btn small follow", "data-action": "follow",
      onclick: () => { this.follow = !this.follow; this.render(null); } }, this.L("follow_mover"));
    return html("div", { class: "watch-tools" }, this.followButton);
  }

  dropKept() {
    this.tray?.destroy();
    this.binding?.destroy();
    this.tray = this.binding = null;
    for (const o of this.others.values()) { o.m.destroy(); o.cell.remove(); }
    for (const b of this.bigs.values()) b.m.destroy();
    this.others.clear();
    this.bigs.clear();
  }

  refreshControls() {
    // after an accepted decision the update usually came first; if not, wait for it
    if (!this.S.busy && this.myTurn() && !this.controlsReady) this.render(null);
  }


  renderBar() {
    const S = this.S;
    const state = S.game.state;
    const spectator = S.role === ROLES.SPECTATOR;
    const app = this.actions;
    return html("header", { class: "app-bar game-bar" },
      html("a", { class: "brand", href: "/", "aria-label": "Rajas", onclick: (e) => { e.preventDefault(); app.home(); } }, html("span", { class: "brand-mark" }, glyph("elephant", 26)), html("span", { class: "brand-name" }, "Rajas")),
      html("span", { class: "bar-title", "data-round": state.round }, S.room.status === STATUS.OVER ? this.L("game_over") : this.L("round", { n: state.round })),
      spectator ? html("span", { class: "badge watching", "data-badge": "spectator" }, glyph("eye", 15), ` ${this.L("watching")}`) : null,
      html("span", { class: "clock", "data-clock": "" }),
      spectator ? null : undoSlot(),
      html("span", { class: "away-box", "data-away": "", hidden: true }),
      html("span", { class: "spacer" }),
      S.room.status === STATUS.OVER ? html("button", { type: "button", class: "btn small", "data-action": "show-result", onclick: () => this.showResult() }, this.L("final_scores")) : null,
      helpButton(this.lang, () => ({ sheet: this.S.sheet })),
      app.alertMenu ? app.alertMenu() : null,
      S.room.status === STATUS.PLAYING && app.deviceButton ? app.deviceButton() : null,
      app.statusBadge ? app.statusBadge() : null,
      app.langSelect ? app.langSelect() : null);
  }

  renderClock() {
    renderAway(this);
    const n = (this.bar || this.el).querySelector("[data-clock]");
    if (!n || paintTurn(n, this)) return; // (a turn-based game: whose turn since when, turns.js)
    const d = this.S.room?.deadline;
    if (!d || this.S.room.status !== STATUS.PLAYING) { n.textContent = ""; return; }
    const left = Math.max(0, Math.round(d - Date.now() / 1000));
    n.replaceChildren(glyph("clock", 16), ` ${this.L("clock_left", { n: left })}`);
    n.classList.toggle("urgent", left <= 10);
  }

  renderPrompt() { renderPrompt(this); } // (prompt.js)

  // the side column and the end of the game (game_side.js, game_end.js); app.js redraws the players on presence
  renderPlayers() { renderPlayers(this); renderAway(this); }
  renderLog() { renderLog(this); }
  showResult() { showResult(this); }

  // ---- overlays ---------------------------------------------------------------------------------------

  overlay(content, attrs = {}) {
    const close = () => { ov.remove(); document.removeEventListener("keydown", onKey); };
    const onKey = (e) => { if (e.key === "Escape") close(); };
    const ov = html("div", { class: "overlay", ...attrs, onclick: (e) => { if (e.target === ov) close(); } },
      html("div", { class: "overlay-card" },
        html("button", { type: "button", class: "overlay-close", "data-action": "close", "aria-label": this.L("close"), onclick: close }, "✕"),
        content));
    document.addEventListener("keydown", onKey);
    this.layers.append(ov);
    return { close, node: ov };
  }

  enlarge(seat) {
    const S = this.S;
    const box = html("div", { class: "enlarged" });
    const ov = this.overlay(box, { "data-overlay": "sheet", "data-seat": seat });
    const m = mountSheet(box, S.sheet, S.game.state.players[seat], { lang: this.lang, name: this.names()[seat], colour: SEAT_COLOURS[seat], active: S.game.pending.player === seat });
    m.wrap.dataset.seat = String(seat);
    const legend = html("p", { class: "sheet-legend muted small", role: "status" }, this.L("legend_tap"));
    box.append(legend);
    explainOnTap(m.svg, legend);
    if (S.role === ROLES.SPECTATOR) {
      const pin = () => { this.focus = seat; this.follow = false; ov.close(); this.render(null); };
      box.append(html("button", { type: "button", class: "btn small", "data-action": "watch-seat", "aria-label": this.L("watch_this"), title: this.L("watch_this"), onclick: pin }, "⤢"));
    }
  }

}

export { MSG };

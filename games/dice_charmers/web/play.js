// The Dice Charmers' board: the dice tray, the big sheet (the player's own with its options, or the seat a spectator
// watches) and the others' sheets small; the flash of every part an update changed; and what the table shows of the
// game around it (the bar's sentence and title, the players' numbers). client_web/README.md describes the interface.
//
//   const view = createView({main, side}, frame)   // the board in `main`, the small sheets in `side`
//   view.update(frame)                            // on every drawing of the game screen
//   view.destroy()
//
// A spectator sees the first seat's sheet big, or on request whoever is to move. Following keeps every seat's big
// sheet in the page, the ones not shown transparent under the one shown (app.css), so that a turn passing restyles
// and repaints no whole sheet.

import { h, render, Component, kept } from "/ui.js";
import { t } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { steadyHeight } from "/steady.js";
import { Sheet } from "./sheet.js";
import { Tray, DIE_KINDS } from "./dice.js";
import { Choice, layer, panel, panelKeys } from "./choices.js";
import { overlapWords } from "./tracks.js";

export { prompt, status } from "./prompt.js";
export { summary, scoreTable } from "./summary.js";

const stats = new WeakMap(); // a player's state -> {key, made}: the numbers drawn once per player and language

// The players list's part of a seat: the elephant by its holder's name, and fame, money, karma and the crossing.
export function seatStats(frame, seat) {
  const p = frame.game.state.players[seat];
  const key = `${frame.lang}|${frame.game.state.start_player === seat}`;
  const was = stats.get(p);
  if (was && was.key === key) return was.made;
  const L = (k) => t(k, frame.lang);
  const made = {
    marks: frame.game.state.start_player === seat ? [h("span", { class: "holder", title: L("elephant") }, glyph("elephant", 18))] : [],
    stats: [
      h("span", { class: "stat fame", title: L("fame") }, `★ ${p.fame}`),
      h("span", { class: "stat money", title: L("money") }, `₹ ${p.money}`),
      h("span", { class: "stat karma", title: L("karma") }, `☸ ${p.karma_gained - p.karma_used}`),
      h("span", { class: `stat overlap${p.overlap >= 0 ? " crossed" : ""}`, title: L("overlap") }, overlapWords(p.overlap, frame.lang)),
    ],
  };
  stats.set(p, { key, made });
  return made;
}

// ---- flashes ----------------------------------------------------------------------------------------------

// Which parts of a player's sheet an event changed.
function changed(e) {
  switch (e.type) {
    case "road_drawn": case "half_road_drawn": case "building_erected": case "market_opened":
      return [`.province-space[data-space="${e.cell}"]`];
    case "river_marked": return [`.river-space[data-space="${e.space}"]`];
    case "palace_crossed": return [`.palace-row[data-character="${e.character}"]`];
    case "goods_gained": case "goods_sold": return [".market-row"];
    case "upgraded": return [`.upgrade-row[data-building="${e.building}"]`];
    case "fame": return [".fame-marker"];
    case "money": return [".money-marker"];
    case "karma": case "karma_rolled": return [".karma-space.gained"];
    default: return [];
  }
}

const FLASH = [
  { filter: "drop-shadow(0 0 0 #ffb300)" },
  { filter: "drop-shadow(0 0 10px #ff8f00) brightness(1.15)", offset: 0.25 },
  { filter: "drop-shadow(0 0 0 transparent)" },
];
// the dice rolled into the middle, and a die taken or kept
const ROLL = [{ transform: "translateY(-14px) rotate(-90deg)", opacity: 0 }, { transform: "none", opacity: 1 }];
const POP = [{ transform: "scale(0.6) rotate(-20deg)" }, { transform: "scale(1.12) rotate(6deg)", offset: 0.6 }, { transform: "none" }];
const STILL = matchMedia("(prefers-reduced-motion: reduce)"); // (asked once: each call cost an update 0.2 ms)

// The changed parts flash (the Web Animations API replays it on the nodes kept, without a forced layout).
function animate(main, side, events) {
  if (STILL.matches) return; // nothing moves: the changed parts need not be looked up
  const tray = main.querySelector(".dice-tray");
  if (events.some((e) => e.type === "dice_rolled")) tray?.querySelectorAll(".tray-middle .die-slot").forEach((n) => n.animate(ROLL, { duration: 600, easing: "ease-out" }));
  const shown = (seat) => [main.querySelector(`.big-sheet[data-seat="${seat}"]:not(.parked)`), side.querySelector(`.other[data-seat="${seat}"]`)].filter(Boolean);
  for (const e of events) {
    if (e.player === undefined || e.player === null) continue;
    for (const sel of changed(e)) for (const box of shown(e.player)) box.querySelectorAll(sel).forEach((n) => n.animate(FLASH, { duration: 1300, easing: "ease-out" }));
    const dice = e.type === "die_picked" || e.type === "die_kept" ? [e.die] : e.type === "karma_rolled" ? e.dice : [];
    for (const d of dice) tray?.querySelectorAll(`[data-die="${d}"]`).forEach((n) => n.animate(POP, { duration: 700, easing: "ease-out" }));
  }
}

// ---- the big sheet ----------------------------------------------------------------------------------------

const LEVELS = [1, 1.5, 2, 2.5, 3];

// A sheet shown large: zoomable (− / + / ⤢ and pinch; `zoom.level` outlives the component), a tap on an icon said in
// words under it, and on the player's turn the options over it and in the choices panel above it.
export class BigSheet extends Component {
  constructor(props) {
    super(props);
    this.state = { explained: null };
    this.choice = null;
    this.choiceFor = null;
    this.box = null;
    this.ref = (n) => { this.root = n; };
    this.keys = (ev) => { if (this.choice) panelKeys(this.choice, ev); };
    this.onTap = (ev) => {
      for (let n = ev.target; n && n !== ev.currentTarget; n = n.parentNode) {
        const tt = n.querySelector?.(":scope > title");
        if (tt && tt.textContent) { this.setState({ explained: tt.textContent }); return; }
      }
    };
  }

  componentDidMount() {
    // pinch with two fingers; one finger pans the box natively
    const box = this.box;
    let pinch = null;
    const dist = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY);
    box.addEventListener("touchstart", (e) => { if (e.touches.length === 2) pinch = { d: dist(e.touches), level: this.props.zoom.level }; }, { passive: true });
    box.addEventListener("touchmove", (e) => {
      if (!pinch || e.touches.length !== 2) return;
      e.preventDefault();
      const r = box.getBoundingClientRect();
      this.zoomTo(pinch.level * (dist(e.touches) / pinch.d), ((e.touches[0].clientX + e.touches[1].clientX) / 2 - r.left) / r.width, ((e.touches[0].clientY + e.touches[1].clientY) / 2 - r.top) / r.height);
    }, { passive: false });
    box.addEventListener("touchend", (e) => { if (e.touches.length < 2) pinch = null; });
    if (this.props.zoom.level > 1) requestAnimationFrame(() => this.zoomTo(this.props.zoom.level));
  }

  // The zoom is written on the page directly (the box's class and the sheet's width, which no drawing writes), keeping
  // the point under (cx, cy) where it was.
  zoomTo(level, cx = 0.5, cy = 0.5) {
    const box = this.box;
    const svg = box?.querySelector("svg.sheet");
    if (!svg) return;
    const zoom = this.props.zoom;
    const fx = (box.scrollLeft + box.clientWidth * cx) / box.scrollWidth;
    const fy = (box.scrollTop + box.clientHeight * cy) / box.scrollHeight;
    zoom.level = Math.max(LEVELS[0], Math.min(LEVELS[LEVELS.length - 1], level));
    box.dataset.zoom = String(zoom.level);
    box.classList.toggle("zoomed", zoom.level > 1);
    svg.style.width = zoom.level > 1 ? `${zoom.level * 100}%` : "";
    box.scrollLeft = fx * box.scrollWidth - box.clientWidth * cx;
    box.scrollTop = fy * box.scrollHeight - box.clientHeight * cy;
  }

  step(d) {
    const level = this.props.zoom.level;
    const i = LEVELS.findIndex((l) => l >= level - 1e-6);
    this.zoomTo(LEVELS[Math.max(0, Math.min(LEVELS.length - 1, (i < 0 ? 0 : i) + d))]);
  }

  componentDidUpdate() {
    // a keyboard user who chose in the panel keeps the focus there, on what comes next
    if (!this.choice?.refocus) return;
    this.choice.refocus = false;
    const panelBox = this.root.querySelector("[data-panel=choices]");
    (panelBox?.querySelector("[data-action=confirm]") || panelBox?.querySelector("button"))?.focus();
  }

  render(p) {
    const { lang } = p;
    if (p.options !== this.choiceFor) {
      this.choiceFor = p.options;
      this.choice = p.options ? new Choice(p.options, p.decide, () => this.forceUpdate()) : null;
    }
    const c = this.choice;
    const sp = { sheet: p.sheet, player: p.player, lang, pool: p.pool, effect: p.effect, faces: p.faces };
    // the options over the sheet and in the panel, drawn again only when the choice or what they show changed: the
    // same layer leaves the sheet as it is
    const drawn = this.drawn;
    const same = drawn && c && drawn.c === c && drawn.version === c.version && drawn.player === p.player && drawn.lang === lang;
    if (c && !same) this.drawn = { c, version: c.version, player: p.player, lang, layer: layer(c, sp), panel: panel(c, sp), n: (drawn?.n || 0) + 1 };
    const zoomButton = (action, key, text, onClick) => h("button", { type: "button", class: "btn small zoom-btn", "data-action": action, "aria-label": t(key, lang), title: t(key, lang), onClick }, text);
    return h("div", { class: `sheet-wrap big-sheet${p.parked ? " parked" : ""}`, "data-seat": p.seat, "aria-hidden": p.parked ? "true" : null, ref: this.ref },
      c ? h(p.Choices, { onKeyDown: this.keys }, kept("panel", this.drawn.n, () => this.drawn.panel)) : null,
      kept("zoom", lang, () => h("div", { class: "zoom-tools", role: "group", "aria-label": t("sheet_zoom", lang) },
        zoomButton("zoom-out", "zoom_out", "−", () => this.step(-1)),
        zoomButton("zoom-in", "zoom_in", "+", () => this.step(1)),
        zoomButton("zoom-fit", "zoom_fit", "⤢", () => this.zoomTo(1)))),
      h("div", { class: "sheet-zoom", "data-zoom": 1, ref: (n) => { this.box = n; } },
        h(Sheet, { sheet: p.sheet, player: p.player, lang, name: p.name, colour: p.colour, active: p.active, layer: c ? this.drawn.layer : null, onClick: this.onTap })),
      h("p", { class: `sheet-legend muted small${this.state.explained ? " explained" : ""}`, role: "status", "data-legend": "" }, this.state.explained || t("legend_tap", lang)));
  }
}

// Another player's sheet shown large over the page (a click on a small sheet).
class Enlarged extends Component {
  render({ frame, seat, pin }) {
    const { lang, game } = frame;
    const onTap = (ev) => {
      for (let n = ev.target; n && n !== ev.currentTarget; n = n.parentNode) {
        const tt = n.querySelector?.(":scope > title");
        if (tt && tt.textContent) { this.setState({ explained: tt.textContent }); return; }
      }
    };
    return h("div", { class: "enlarged" },
      h("div", { class: "sheet-wrap", "data-seat": seat },
        h(Sheet, { sheet: frame.sheet, player: game.state.players[seat], lang, name: frame.names[seat], colour: frame.colours[seat], active: game.pending.player === seat, onClick: onTap })),
      h("p", { class: `sheet-legend muted small${this.state.explained ? " explained" : ""}`, role: "status" }, this.state.explained || t("legend_tap", lang)),
      pin ? h("button", { type: "button", class: "btn small", "data-action": "watch-seat", "aria-label": t("watch_this", lang), title: t("watch_this", lang), onClick: pin }, "⤢") : null);
  }
}

// ---- the board ----------------------------------------------------------------------------------------

export function createView({ main, side }, first) {
  const view = {
    frame: first,
    focus: 0, // the seat a spectator watches (⤢ on an enlarged sheet)
    follow: false, // a spectator follows the player to move
    zoom: { level: 1 }, // the own sheet's zoom, kept across drawings
    shown: new Map(), // seat -> the props its big sheet was last shown with (a parked sheet keeps them)
    animated: null, // the events whose flashes played
  };
  const trayBox = document.createElement("section");
  trayBox.className = "tray-box";
  // the tray keeps its tallest height: an update that shortens it does not move, repaint and raster again the whole
  // page below it (steady.js)
  const stop = steadyHeight(trayBox);
  const sheetsBox = document.createElement("div");
  sheetsBox.className = "board-sheets"; // (its contents are the column's own: app.css lays them out)
  main.replaceChildren(trayBox, sheetsBox);

  const enlarge = (seat) => {
    const f = view.frame;
    const ov = f.overlay(h(Enlarged, {
      frame: f, seat,
      pin: f.role === "spectator" ? () => { view.focus = seat; view.follow = false; ov.close(); draw(view.frame); } : null,
    }), { "data-overlay": "sheet", "data-seat": seat });
  };

  function draw(frame) {
    view.frame = frame;
    const { game, lang, me } = frame;
    const { state, pending } = game;
    if (trayBox.getAttribute("aria-label") !== t("dice", lang)) trayBox.setAttribute("aria-label", t("dice", lang));
    const options = frame.mine ? pending.options : null;
    render(h(Tray, { sheet: frame.sheet, state, lang, options: options && options.filter((w) => DIE_KINDS.has(w[0])), onDecide: frame.decide,
      names: frame.names, me: me ?? undefined, current: pending.player, settle: frame.settle }), trayBox);

    if (frame.mode === "replay") {
      // the replay viewer's board: every sheet small, the one to move marked
      const who = pending.player ?? state.current;
      render(h("div", { class: "replay-sheets" }, state.players.map((player, seat) => h("section", {
        key: seat, class: `replay-sheet${seat === who ? " to-move" : ""}`, "data-seat": seat, "aria-label": t("replay_sheet_of", lang, { p: frame.names[seat] }),
      }, h("div", { class: "sheet-wrap compact", "data-seat": seat },
        h(Sheet, { key: lang, sheet: frame.sheet, player, lang, name: frame.names[seat], colour: frame.colours[seat], compact: true }))))), sheetsBox);
      return;
    }
    const big = me ?? (view.follow ? pending.player ?? state.current : view.focus) ?? 0;
    // while a spectator follows the player to move, the others' big sheets stay in the page parked; else only one
    if (!view.follow) for (const seat of view.shown.keys()) if (seat !== big) view.shown.delete(seat);
    view.shown.set(big, { player: state.players[big], name: frame.names[big] + (big === me ? ` ${t("you_paren", lang)}` : ""), colour: frame.colours[big], active: pending.player === big });
    const spectator = frame.role === "spectator";
    render([
      spectator && frame.mode !== "replay" ? h("div", { class: "watch-tools" }, h("button", { type: "button", class: `btn small follow`, "data-action": "follow", "aria-pressed": String(view.follow),
        onClick: () => { view.follow = !view.follow; draw(view.frame); } }, t("follow_mover", lang))) : null,
      h("section", { class: "mine-box" }, [...view.shown].map(([seat, shown]) => h(BigSheet, {
        key: `${seat}|${lang}`, seat, sheet: frame.sheet, lang, ...shown, parked: seat !== big, zoom: view.zoom, Choices: frame.Choices,
        options: seat === big && options ? options : null, decide: frame.decide, pool: pending.pool, effect: pending.effect, faces: state.faces,
      }))),
    ], sheetsBox);

    // the small sheets: every player but me (a spectator sees all of them, the one to move marked), so the grid never
    // changes its cells as the turn passes; the first time after the rest is shown (on a phone drawing them all took
    // as long as the rest of the screen)
    if (!view.drawn) {
      view.drawn = true;
      requestAnimationFrame(() => setTimeout(() => { if (!view.gone) others(view.frame); }, 0));
    } else others(frame);

    if (frame.events && frame.events !== view.animated) {
      view.animated = frame.events;
      animate(main, side, frame.events);
    }
  }

  function others(frame) {
    const { game, lang, me } = frame;
    const { state, pending } = game;
    render(h("section", { class: "others-box" },
      h("h2", null, me !== null ? t("other_players", lang) : t("players", lang)),
      h("div", { class: "others-grid" }, state.players.map((player, seat) => (seat === me ? null : h("button", {
        key: seat, type: "button", class: `other${pending.player === seat ? " current" : ""}`, "data-seat": seat, title: t("enlarge", lang),
        "aria-label": `${frame.names[seat]}: ${t("enlarge", lang)}`, onClick: () => enlarge(seat),
      }, h("div", { class: "sheet-wrap compact", "data-seat": seat },
        h(Sheet, { key: lang, sheet: frame.sheet, player, lang, name: frame.names[seat], colour: frame.colours[seat], compact: true, active: pending.player === seat }))))))), side);
  }

  draw(first);
  return {
    update: draw,
    destroy() {
      view.gone = true;
      stop();
      render(null, trayBox);
      render(null, sheetsBox);
      render(null, side);
      main.replaceChildren();
    },
  };
}

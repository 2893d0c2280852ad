// The game screen's frame, around the game's board: the bar (the game's title for it, the spectator's badge, the
// clock, Undo, away players, the final scores, how to play, turn alerts, another device, the connection, the
// language), the bar's sentence (the game's words for what is to be decided), the choices panel's frame, the side
// column (the players with the game's numbers, the turn e-mail, the log), the final scores with play again, the
// series and the dice check, and the options brought into view with the focus on the next thing to decide.
//
// The board is the room's game's (its play module's createView): drawn in two places of this screen (the left
// column and the side column) and brought up to date with a frame of what it shows on every drawing of the screen.

import { h, Component, kept } from "./ui.js";
import { t } from "./i18n.js";
import { glyph, SEAT_COLOURS } from "./glyphs.js";
import { ROLES, STATUS } from "./protocol.js";
import { Brand, StatusBadge, LangSelect } from "./bar.js";
import { HelpButton } from "./help.js";
import { AlertSettings } from "./alerts.js";
import { AwayBox } from "./away.js";
import { Clock, EmailCard } from "./turns.js";
import { DeviceButton, seatLink } from "./device.js";
import { PlayAgain, seriesTable, RoomGames } from "./series.js";
import { DiceCheck } from "./fairplay.js";
import { Players, Log, logLines } from "./side.js";
import { openOverlay } from "./overlay.js";
import { steadyHeight } from "./steady.js";
import { decide, home, isHost, loadRoom, undo } from "./session.js";
import { mySeat, myTurn } from "./store.js";
import { game, gameOf } from "./games.js";

// The frame of the choices panel: the game fills it with the choices of its player to move and puts it where they
// belong (above the sheet); the page scrolls it into view and reads its changes out.
export function Choices({ children, onKeyDown }) {
  return h("div", { class: "choices", "aria-live": "polite", "data-panel": "choices", onKeyDown }, children);
}

// The bottom of whatever sticks to the top of the window (bar, sentence): options under it are hidden.
function stickyBottom(prompt) {
  let b = 0;
  for (const n of [prompt, document.querySelector(".game-bar")]) {
    if (!n) continue;
    const r = n.getBoundingClientRect();
    const pos = getComputedStyle(n).position;
    if ((pos === "sticky" || pos === "fixed") && r.top <= 1) b = Math.max(b, r.bottom);
  }
  return b;
}

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]";

// After the options were drawn: bring the ones a player chooses from (the HTML buttons) into view, and put the focus
// on the first of them unless the player is somewhere else (an overlay, a control of the bar).
function settleFocus(root, prompt) {
  const all = [...root.querySelectorAll("[data-option]")].filter((n) => n.getClientRects().length);
  const buttons = all.filter((n) => !(n instanceof SVGElement));
  const list = buttons.length ? buttons : all;
  if (!list.length) return;
  for (let i = 0; i < 2; i++) {
    const top = stickyBottom(prompt) + 8;
    const rs = list.map((n) => n.getBoundingClientRect());
    const a = Math.min(...rs.map((r) => r.top));
    const b = Math.max(...rs.map((r) => r.bottom));
    const bottom = window.innerHeight - 8;
    if (a >= top && b <= bottom) break;
    // all of them when they fit, else from the first one down
    window.scrollBy({ top: b - a <= bottom - top && a >= top ? b - bottom : a - top, left: 0, behavior: "instant" });
  }
  const active = document.activeElement;
  // (a node kept when it stops being a control, like a die no longer to choose, keeps the focus until here: lost too;
  // a blur() would have forced a style and layout pass in the middle of the update)
  const lost = !active || active === document.body || !active.isConnected || !active.matches(FOCUSABLE);
  if (lost && !document.querySelector("[data-overlay]")) list[0].focus({ preventScroll: true });
}

// What the page's tests read: whether the options of this page's turn are drawn.
export const controls = { ready: false };

export class Table extends Component {
  constructor(props) {
    super(props);
    this.main = null;
    this.side = null;
    this.prompt = null;
    this.layers = null;
    this.view = null;
    this.result = null; // the final scores' box, while open
    this.resultShown = false;
    this.settle = () => settleFocus(this.main.parentNode, this.prompt);
    this.overlay = (content, attrs) => openOverlay(content, attrs, { parent: this.layers });
    // (the same functions on every drawing: a new one would be attached again each time)
    this.refs = {
      prompt: (n) => { this.prompt = n; }, main: (n) => { this.main = n; }, side: (n) => { this.side = n; }, layers: (n) => { this.layers = n; },
    };
    this.again = () => this.showResult(game(gameOf(this.props.state.room))?.play, this.frameNow, true);
  }

  componentDidMount() {
    // the bar's sentence keeps its tallest height on a wide window: an update that shortens it does not move,
    // repaint and raster again the whole page below (steady.js); a phone keeps its short bar
    this.stopSteady = steadyHeight(this.prompt, { media: "(min-width: 701px)" });
    this.drawBoard();
  }

  componentDidUpdate() {
    this.drawBoard();
  }

  componentWillUnmount() {
    this.stopSteady?.();
    this.view?.destroy();
    this.result?.close();
    controls.ready = false;
  }

  // What the game is given to draw (client_web/README.md, "The game interface").
  frame() {
    const { state } = this.props;
    const { room, game: g, lang } = state;
    const me = mySeat(state);
    return {
      lang, status: room.status, game: g, sheet: state.sheet, v: state.v, events: state.events,
      names: room.seats.map((s) => s.name), colours: SEAT_COLOURS, seats: room.seats, me, role: state.role,
      mine: myTurn(state) && !state.busy, decide, Choices, overlay: this.overlay, settle: this.settle, mode: "play",
    };
  }

  drawBoard() {
    const { state } = this.props;
    const play = game(gameOf(state.room))?.play;
    controls.ready = false;
    if (!play || !state.game || !state.sheet || !this.main) return;
    const frame = this.frameNow;
    // a new sheet (a reconnect's snapshot brings the file anew) or language: the board drawn anew
    if (!this.view || this.view.sheet !== state.sheet) {
      this.view?.destroy();
      this.view = play.createView({ main: this.main, side: this.side }, frame);
      this.view.sheet = state.sheet;
    } else {
      this.view.update(frame);
    }
    controls.ready = frame.mine;
    // the options brought into view once, when they are drawn (a drawing of the same options leaves the page as it is)
    const drawn = frame.mine ? frame.game.pending : null;
    if (drawn && drawn !== this.settled) settleFocus(this.main.parentNode, this.prompt); // (they are all in the left column)
    this.settled = drawn;
    this.showResult(play, frame);
  }

  // The final scores, shown once when the game ends (and again by the bar's button); the box follows the room after
  // (who is ready to play again).
  showResult(play, frame, again = false) {
    const { state } = this.props;
    if (state.room.status !== STATUS.OVER || !state.game.state.result) return;
    if ((!this.resultShown || again) && !this.result?.open) {
      this.resultShown = true;
      this.result = this.overlay(null, { "data-overlay": "result" });
    }
    if (!this.result?.open) return;
    const { lang, room } = state;
    const sum = play.summary(frame);
    const dice = state.dice && state.dice.key === (room.series && room.series.game > 1 ? `${room.code}.${room.series.game}` : room.code) ? state.dice : null;
    this.result.update(h("div", { class: "result" },
      h("h2", null, t("final_scores", lang)),
      h("p", { class: "result-winner", "data-winner-text": "" }, glyph("trophy", 26), ` ${sum.winner}`),
      sum.scores,
      // the room stays together: "Play again", who is ready, and the series so far
      h(PlayAgain, { state, host: isHost(state) }), seriesTable(room, lang, state.seatId),
      sum.breakdown,
      room.seed ? h("details", { class: "seed small" }, h("summary", null, t("verify_dice", lang)), h("p", { class: "muted" }, t("verify_text", lang, { s: room.seed.slice(0, 16) }))) : null,
      h(DiceCheck, { dice, lang }),
      h(RoomGames, { lang, code: room.code, wait: true })));
  }

  render({ state }) {
    const { room, lang, role, code } = state;
    const { play, index } = game(gameOf(room)) || {};
    const L = (k, v) => t(k, lang, v);
    const spectator = role === ROLES.SPECTATOR;
    const me = mySeat(state);
    const ready = play && state.game && state.sheet;
    const frame = ready ? this.frame() : null;
    this.frameNow = frame;
    const prompt = ready ? play.prompt(frame) : { kind: "", content: null };
    const playing = room.status === STATUS.PLAYING;
    const over = room.status === STATUS.OVER;
    const player = role === ROLES.PLAYER;
    const token = player ? loadRoom(code).token : null;
    const canUndo = myTurn(state) && !state.busy && (state.game?.undo || 0) > 0;
    const title = ready ? play.status(frame) : "";
    // the bar's parts are drawn again only when what they show changed (the clock and the away seats tick)
    return h("div", { class: "screen game", "data-screen": "game" },
      h("div", { class: "game-body" },
        h("header", { class: "app-bar game-bar" },
          kept("head", `${lang}|${title}|${spectator}`, () => [h(Brand, { onHome: home, label: "Rajas" }), h("span", { class: "bar-title" }, title),
            spectator ? h("span", { class: "badge watching", "data-badge": "spectator" }, glyph("eye", 15), ` ${L("watching")}`) : null]),
          h(Clock, { room, lang, who: state.game?.pending?.player, mine: myTurn(state) }),
          spectator ? null : kept("undo", `${lang}|${canUndo}`, () => h("span", { class: "undo-slot", "data-undo-slot": "" }, canUndo
            ? h("button", { type: "button", class: "btn small undo-btn", "data-action": "undo", "aria-label": L("undo_label"), title: L("undo_label"), onClick: undo },
              h("span", { "aria-hidden": "true" }, "↶ "), L("undo")) : null)),
          h(AwayBox, { room, lang, host: isHost(state) }),
          kept("tools", `${lang}|${over}|${player && playing}|${!!token}|${code}`, () => [h("span", { class: "spacer" }),
            over ? h("button", { type: "button", class: "btn small", "data-action": "show-result", onClick: this.again }, L("final_scores")) : null,
            h(HelpButton, { lang }),
            player && playing ? h(AlertSettings, { lang, menu: true }) : null,
            player && playing && token ? h(DeviceButton, { lang, link: () => seatLink(code, loadRoom(code).token) }) : null]),
          kept("status", `${lang}|${state.conn}|${state.retryIn}`, () => [h(StatusBadge, { state }), h(LangSelect, { lang })])),
        h("div", { class: `prompt${prompt.kind ? ` ${prompt.kind}` : ""}`, "data-prompt": "", "data-player": prompt.player ?? null,
          // (a style object: the height steady.js gives the box is left as it is)
          style: { "--seat": prompt.colour || "" }, ref: this.refs.prompt }, prompt.content),
        h("div", { class: "game-main" },
          h("div", { class: "game-left" }, h("div", { class: "board", ref: this.refs.main })),
          h("aside", { class: "game-side" },
            ready ? h(Players, { state, me, current: state.game.pending.player, stats: (seat) => (state.game.state.players[seat] ? play.seatStats(frame, seat) : null) }) : null,
            h(EmailCard, { room, role, code, lang, folded: true }),
            h("div", { class: "board", ref: this.refs.side }),
            h(Log, { lines: logLines(state, index?.describe), lang })))),
      h("div", { class: "game-layers", ref: this.refs.layers }),
      h("div", { class: "announce visually-hidden", "aria-live": "polite" }, prompt.announce || ""));
  }
}

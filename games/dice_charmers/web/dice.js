// The dice tray: the 8 dice in the middle of the table, the elephant with its die, each player's depot, the two
// dice rolled with karma, and the legal die / karma / keep / reroll / pass options.
//
//   h(Tray, {sheet, state, lang, options, onDecide, names, me, current, settle})
//       sheet:  the sheet file as plain data (its `dice` list gives each die's colour and faces)
//       state:  GameState.to_dict() (uses faces, where, reroll, players, start_player)
//       options: pending.options (the tray takes the die, karma, keep, reroll and pass ones); onDecide(wire) is
//                called once, with one of them exactly as given
//       names: the seats' names; me: this page's seat; current: the seat to move
//       settle(): brings the options into view after the karma toggle
//
// A die to choose is its slot made a button (role, tab stop, Enter or Space); one listener on the tray takes them.
// A die keeps its node while it stays where it is, its face drawn again only when it shows another one.

import { h, render, s as el, Component, kept } from "/ui.js";
import { t } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { COLOURS, dieFace, inlineSvg, title } from "./icons.js";

const MIDDLE = -1;
const ELEPHANT = -2;
export const DIE_KINDS = new Set(["die", "karma", "keep", "reroll", "pass"]); // the options the tray offers

export function faceOf(sheet, state, d) {
  return sheet.dice[d].faces[state.faces[d]];
}

const faces = new Map(); // a die face's key -> its drawing, made once and cloned for every die that shows it

// A die's face in the tray: a die moving between the middle, the elephant and a depot is drawn anew there, and a
// clone of the face's drawing costs a fraction of making its nodes one by one (docs/benchmarks.md).
class DieFace extends Component {
  constructor(props) {
    super(props);
    this.ref = (n) => { this.svg = n; };
  }

  shouldComponentUpdate(next) {
    return next.k !== this.props.k;
  }

  componentDidMount() { this.put(); }

  componentDidUpdate() { this.put(); }

  put() {
    const { k, draw } = this.props;
    let face = faces.get(k);
    if (!face) {
      const box = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      render(draw(), box);
      face = box.firstChild;
      faces.set(k, face);
    }
    this.svg.replaceChildren(face.cloneNode(true));
  }

  render({ size }) {
    return el("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "inline-icon", ref: this.ref });
  }
}

// A die's words: its area and its face ("Market: Tea + Silk").
function dieLabel(sheet, state, d, lang) {
  const die = sheet.dice[d];
  const face = faceOf(sheet, state, d);
  const area = die.colour === "purple" ? "market" : die.colour === "green" ? "province" : die.colour === "blue" ? "river" : "palace";
  return `${t(area, lang)}: ${Array.isArray(face) ? face.map((f) => t(f, lang)).join(" + ") : t(face, lang)}`;
}

function karmaGlyph(x, y, r) {
  const spokes = [];
  for (let i = 0; i < 8; i++) {
    const a = (Math.PI * i) / 4;
    spokes.push(el("line", { x1: x + Math.cos(a) * r * 0.15, y1: y + Math.sin(a) * r * 0.15, x2: x + Math.cos(a) * r * 0.72, y2: y + Math.sin(a) * r * 0.72, stroke: "#fff", "stroke-width": r * 0.1 }));
  }
  return el("g", null, el("circle", { cx: x, cy: y, r, fill: COLOURS.karma }), el("circle", { cx: x, cy: y, r: r * 0.5, fill: "none", stroke: "#fff", "stroke-width": r * 0.14 }), spokes, title("karma"));
}

export class Tray extends Component {
  constructor(props) {
    super(props);
    this.state = { karma: false };
    this.chosen = new Map(); // die -> its option, as drawn
    this.decidedFor = null; // the options a decision was sent from
    this.onKey = (ev) => { if (ev.key === "Enter" || ev.key === " ") this.choose(ev); };
    this.onClick = (ev) => this.choose(ev);
    this.ref = (n) => { this.root = n; };
  }

  // a die to choose is a span made a button: its clicks, and Enter or Space on it, come here
  choose(ev) {
    const n = ev.target.closest?.("[data-die][role=button]");
    const opt = n && this.root.contains(n) ? this.chosen.get(Number(n.dataset.die)) : null;
    if (!opt) return;
    ev.preventDefault();
    this.finish(opt);
  }

  finish(w) {
    if (!w || this.decidedFor === this.props.options) return;
    this.decidedFor = this.props.options;
    this.forceUpdate();
    this.props.onDecide?.(w);
  }

  // The karma reroll's dice take the focus; the page (settle) then brings them out from under its sticky bar, where
  // the focus's own scrolling can leave them on a phone.
  toggleKarma() {
    this.setState({ karma: !this.state.karma }, () => {
      (this.root.querySelector(".opt-karma") || this.root.querySelector(".action-karma"))?.focus({ preventScroll: !!this.props.settle });
      this.props.settle?.();
    });
  }

  render(p) {
    const { sheet, state, lang } = p;
    const names = p.names || state.players.map((_, i) => t("seat", lang, { n: i + 1 }));
    const options = (p.options || []).filter((w) => DIE_KINDS.has(w[0]));
    const byKind = (k) => options.filter((w) => w[0] === k);
    const dieOpt = new Map(byKind("die").map((w) => [w[1][0], w]));
    const karmaOpt = new Map(byKind("karma").map((w) => [w[1][0], w]));
    const keepOpt = new Map(byKind("keep").map((w) => [w[1][0], w]));
    if (!karmaOpt.size) this.state.karma = false; // (no karma to spend: the toggle is off, nothing to draw again)
    const karmaMode = this.state.karma;
    const decided = this.decidedFor === p.options && !!p.options;
    const rerolled = new Set(state.reroll || []);
    this.chosen = new Map();

    // a die's slot is drawn again only when its place, face, option or language changed, and a box of the tray only
    // when one of its dice or its label did: an update redraws the boxes a die left and entered
    const slotKey = (d, where) => {
      const opt = keepOpt.get(d) || (karmaMode ? karmaOpt.get(d) : dieOpt.get(d));
      if (opt) this.chosen.set(d, opt);
      return `${d}|${where}|${state.faces[d]}|${opt ? (opt[0] === "keep" ? "keep" : karmaMode ? "karma" : "die") : ""}|${opt?.[0]}|${rerolled.has(d)}`;
    };
    const slot = (d, where, k) => kept(d, k, () => {
      const opt = this.chosen.get(d);
      const kind = opt ? (opt[0] === "keep" ? "keep" : karmaMode ? "karma" : "die") : null;
      const label = dieLabel(sheet, state, d, lang);
      return h("span", {
        "data-die": d, "data-where": where, title: label, "aria-label": label,
        class: `die-slot${kind ? ` opt opt-${kind}` : ""}${rerolled.has(d) ? " rerolled" : ""}`,
        role: opt ? "button" : null, tabindex: opt ? "0" : null, "data-kind": opt?.[0], "data-option": opt?.[0],
      }, h(DieFace, { size: 52, k: `${sheet.dice[d].colour}|${JSON.stringify(faceOf(sheet, state, d))}|${lang}`,
        draw: () => dieFace(sheet.dice[d].colour, faceOf(sheet, state, d), 26, 26, 23, lang) }),
      opt?.[0] === "keep" ? h("span", { class: "die-caption" }, t("keep", lang)) : null);
    });
    // the dice at a place: [[die, its slot's key]], and a box of them kept while they and `label` are the same
    const at = (where, place) => state.where.flatMap((w, d) => (w === where && !rerolled.has(d) ? [[d, slotKey(d, place)]] : []));
    const box = (key, label, held, place, draw) => kept(key, `${lang}|${label}|${held.map((x) => x[1]).join(",")}`, () => draw(held.map(([d, k]) => slot(d, place, k))));
    const me = p.me !== undefined && p.me !== null ? state.players[p.me] : null;
    const karmaLeft = karmaOpt.size && me ? me.karma_gained - me.karma_used : null;
    const passOpt = byKind("pass")[0];
    const rerollOpt = byKind("reroll")[0];
    const actions = [];
    if (karmaOpt.size) {
      actions.push(h("button", { type: "button", class: `action action-karma${karmaMode ? " active" : ""}`, "data-kind": "karma-mode", "data-option": "karma-mode", "aria-pressed": karmaMode ? "true" : "false", onClick: () => this.toggleKarma() },
        inlineSvg(22, karmaGlyph(11, 11, 10)), ` ${t("karma_reroll", lang)}${karmaLeft !== null ? ` (${t("karma_left", lang, { n: karmaLeft })})` : ""}`));
      if (karmaMode) actions.push(h("div", { class: "tray-hint" }, t("karma_pick", lang)));
    }
    if (passOpt) actions.push(h("button", { type: "button", class: "action action-pass", "data-kind": "pass", "data-option": "pass", onClick: () => this.finish(passOpt) }, t("pass", lang)));

    const middle = at(MIDDLE, "middle");
    const elephant = at(ELEPHANT, "elephant");
    const holder = names[state.start_player] ?? "";
    const again = (state.reroll || []).map((d) => [d, slotKey(d, "reroll")]);
    return h("div", { class: `dice-tray${decided ? " decided" : ""}`, onClick: this.onClick, onKeyDown: this.onKey, ref: this.ref },
      h("div", { class: "tray-top" },
        box("middle", "", middle, "middle", (slots) => h("div", { class: "tray-middle" }, h("div", { class: "tray-label" }, t("middle", lang)), h("div", { class: "tray-dice" }, slots))),
        box("elephant", holder, elephant, "elephant", (slots) => h("div", { class: "tray-elephant" }, h("div", { class: "tray-label" }, `${t("elephant", lang)} · ${holder}`),
          h("div", { class: "elephant-box" }, glyph("elephant", 64), slots)))),
      // while rerolling with karma, the two rolled dice are shown in their own box only
      box("reroll", `${!!state.reroll}|${!!rerollOpt}`, again, "reroll", (slots) => h("div", { class: "tray-reroll", hidden: !state.reroll },
        h("div", { class: "tray-label" }, state.reroll ? t("rerolled", lang) : ""),
        h("div", { class: "tray-dice" }, slots),
        rerollOpt ? h("button", { type: "button", class: "action action-reroll", "data-kind": "reroll", "data-option": "reroll", onClick: () => this.finish(this.props.options.find((w) => w[0] === "reroll")) }, t("reroll_again", lang)) : null)),
      h("div", { class: "tray-actions", hidden: !actions.length }, actions),
      h("div", { class: "tray-depots" }, state.players.map((_, seat) => {
        const cls = `depot${p.current === seat ? " current" : ""}${p.me === seat ? " me" : ""}`;
        return box(seat, `${cls}|${names[seat]}`, at(seat, `depot-${seat}`), `depot-${seat}`, (slots) => h("div", { class: cls, "data-seat": seat },
          h("div", { class: "tray-label" }, `${t("depot", lang)} · ${names[seat]}`),
          h("div", { class: "depot-dice" }, slots.length ? slots : h("span", { class: "depot-empty" }, "–"))));
      })));
  }
}

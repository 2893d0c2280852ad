// The card game's board: the offer, the draw and discard piles, your hand (with its dice sides), your rows and score
// track, and the other players' public rows; the legal options glow on the cards they concern and are all buttons in
// the choices panel. Also what the table shows of the game around it: the bar's sentence and title, the players'
// numbers and the end of the game (client_web/README.md, "The game interface").
//
//   const view = createView({main, side}, frame)   // the board in `main`, the other players in `side`
//   view.update(frame); view.destroy()

import { h, render, Component } from "/ui.js";
import { t, plural } from "/i18n.js";
import { glyph } from "/glyphs.js";
import { cardOf, cardName, cardDetail, corner, dieFace, dieName, optionText } from "./cards.js";
import { known } from "./known.js";

export { prompt, status } from "./prompt.js";
export { summary, scoreTable } from "./summary.js";

// The card an option is about (the one that glows for it), or null for options about no card.
function optionCards(o) {
  const [kind, args] = o;
  if (["dice", "building", "ship", "goods", "palace", "take"].includes(kind)) return [args[0]];
  if (kind === "discard") return args;
  return [];
}

// The options of this page's turn, grouped by the card they concern: card id -> [options].
function byCard(options) {
  const m = new Map();
  for (const o of options) for (const c of optionCards(o)) {
    if (!m.has(c)) m.set(c, []);
    m.get(c).push(o);
  }
  return m;
}

// A card's action side: its name, what it does, the colour of its dice side in the corner; with options, a button.
function Card({ frame, id, die, options, selected, onPick, where }) {
  const card = cardOf(frame, id);
  const { lang } = frame;
  const name = cardName(card, lang);
  const detail = cardDetail(card, lang);
  const face = die ? dieFace(card?.colour, die, lang) : null;
  const body = [corner(card?.colour || "purple", lang), h("span", { class: "cg-kind" }, t(`cg_k_${card?.kind}`, lang)), h("span", { class: "cg-name" }, name), face];
  const label = `${detail}${die ? ` · ${t("cg_die_side", lang, { d: dieName(card?.colour, die, lang) })}` : ""}`;
  if (!options?.length) return h("li", { class: `cg-card cg-${card?.kind}`, "data-card": id, title: label }, h("span", { class: "visually-hidden" }, label), h("span", { "aria-hidden": "true", class: "cg-card-in" }, body));
  const one = options.length === 1;
  return h("li", { class: `cg-card cg-${card?.kind}`, "data-card": id },
    h("button", { type: "button", class: `cg-card-btn cg-legal${selected ? " selected" : ""}`, "data-option": options[0][0], "data-card": id, "data-where": where,
      "aria-pressed": one ? null : String(!!selected), title: one ? optionText(frame, options[0]) : label,
      "aria-label": one ? `${optionText(frame, options[0])} (${label})` : t("cg_card_options", lang, { c: label, n: options.length }),
      onClick: () => (one ? frame.decide(options[0]) : onPick(id)) }, h("span", { class: "cg-card-in", "aria-hidden": "true" }, body)));
}

const list = (cls, label, items) => h("section", { class: `cg-area ${cls}`, "aria-label": label },
  h("h3", { class: "cg-area-title" }, label), items.length ? h("ul", { class: "cg-cards" }, items) : h("p", { class: "muted small cg-empty" }, "–"));

// The numbers of a seat: fame, coins, karma, managers, hand size.
function numbers(frame, seat) {
  const s = frame.game.state.seats[seat];
  const L = (k, v) => t(k, frame.lang, v);
  return [
    h("span", { class: "stat fame", title: L("cg_fame") }, `★ ${s.fame}`),
    h("span", { class: "stat coins", title: L("cg_coins") }, `₹ ${s.coins}`),
    h("span", { class: "stat karma", title: L("cg_karma") }, `☸ ${s.karma}`),
    h("span", { class: "stat managers", title: L("cg_managers") }, `♛ ${s.managers}`),
    h("span", { class: "stat hand", title: L("cg_hand") }, `🂠 ${s.hand_count}`),
  ];
}

// Where a page's table ends: a seat's score track, its six cards (a turned one shows its reward).
function track(frame, seat) {
  const s = frame.game.state.seats[seat];
  const L = (k, v) => t(k, frame.lang, v);
  return h("ol", { class: "cg-track", "aria-label": L("cg_track") }, s.turned.map((on, i) => h("li", { class: `cg-track-card${on ? " turned" : ""}`, "data-track": i },
    on || s.track[i] ? (s.track[i] ? L(`cg_tr_${s.track[i]}`) : L("cg_turned")) : L("cg_day_side"))));
}

function rows(frame, seat) {
  const s = frame.game.state.seats[seat];
  const L = (k, v) => t(k, frame.lang, v);
  const cards = (ids) => ids.map((id) => h(Card, { key: id, frame, id }));
  return [
    list("cg-buildings", L("cg_buildings"), cards(s.buildings)),
    list("cg-ships", L("cg_ships"), cards(s.ships)),
    list("cg-goods", L("cg_goods"), cards(s.goods)),
    h("section", { class: "cg-area cg-track-area", "aria-label": L("cg_track") }, h("h3", { class: "cg-area-title" }, L("cg_track")), track(frame, seat)),
  ];
}

class Board extends Component {
  constructor(props) {
    super(props);
    this.state = { picked: null };
    this.pick = (id) => this.setState({ picked: this.state.picked === id ? null : id });
  }

  render({ frame }) {
    const { lang, game, me } = frame;
    const st = game.state;
    const L = (k, v) => t(k, lang, v);
    const options = frame.mine && game.pending.options ? game.pending.options : [];
    const cardsOpts = byCard(options);
    const picked = cardsOpts.has(this.state.picked) ? this.state.picked : null;
    const mine = me !== null && me !== undefined && st.seats[me];
    const optsOf = (id) => cardsOpts.get(id) || null;
    const offer = st.offer.map((id) => h(Card, { key: id, frame, id, options: optsOf(id), selected: picked === id, onPick: this.pick, where: "offer" }));
    const hand = mine ? st.seats[me].hand.map((x) => h(Card, { key: x.card, frame, id: x.card, die: x.number, options: optsOf(x.card), selected: picked === x.card, onPick: this.pick, where: "hand" })) : [];
    const top = st.draw.top;
    const last = st.discard.length ? st.discard[st.discard.length - 1] : null;
    return h("div", { class: "cg-board" },
      options.length ? h(frame.Choices, {}, panel(frame, options, picked, () => this.setState({ picked: null }))) : null,
      h("section", { class: "cg-area cg-offer", "aria-label": L("cg_offer") },
        h("h3", { class: "cg-area-title" }, L("cg_offer")),
        h("ul", { class: "cg-cards cg-grid" }, offer),
        h("div", { class: "cg-piles" },
          h("p", { class: "cg-pile", "data-pile": "draw" }, L("cg_draw_pile", { n: st.draw.count }), top !== null ? [": ", h("strong", null, cardName(cardOf(frame, top), lang))] : null),
          h("p", { class: "cg-pile", "data-pile": "discard" }, L("cg_discard_pile", { n: st.discard.length }),
            last ? [": ", dieFace(cardOf(frame, last.card)?.colour, last.number, lang), h("span", { class: "visually-hidden" }, dieName(cardOf(frame, last.card)?.colour, last.number, lang))] : null),
          h("p", { class: "cg-pile" }, L("cg_managers_left", { n: st.managers_supply })))),
      mine ? h("section", { class: "cg-mine", "aria-label": L("cg_yours") },
        h("div", { class: "cg-stats" }, numbers(frame, me), st.start_player === me ? h("span", { class: "holder", title: L("cg_startifant") }, glyph("elephant", 18)) : null),
        list("cg-hand", L("cg_your_hand", { n: st.seats[me].hand_count }), hand),
        rows(frame, me)) : null);
  }
}

// The choices panel: every option as a button (those of the card picked on the board first and alone).
function panel(frame, options, picked, unpick) {
  const { lang } = frame;
  const shown = picked === null ? options : options.filter((o) => optionCards(o).includes(picked));
  const button = (o, i) => h("button", { type: "button", key: i, class: "choice cg-choice", "data-option": o[0], "data-args": o[1].join(","), onClick: () => frame.decide(o) }, optionText(frame, o));
  return [
    h("div", { class: "choices-title" }, picked === null ? t("cg_choose", lang) : t("cg_for_card", lang, { c: cardName(cardOf(frame, picked), lang) })),
    h("div", { class: "choices-row cg-choices" }, shown.map(button),
      picked !== null ? h("button", { type: "button", class: "choice secondary", "data-action": "all-options", onClick: unpick }, t("cg_all_options", lang)) : null),
  ];
}

// The other players (all of them for a spectator): their numbers, hand size (action sides only) and public rows.
function Others({ frame }) {
  const { lang, game, me } = frame;
  const st = game.state;
  const seats = st.seats.map((_, i) => i).filter((i) => i !== me);
  return h("div", { class: "cg-others" }, seats.map((seat) => h("section", { class: `cg-other${game.pending.player === seat ? " active" : ""}`, key: seat, "data-seat": seat, style: `--seat:${frame.colours[seat]}`, "aria-label": frame.names[seat] ?? "?" },
    h("h3", { class: "cg-other-name" }, h("span", { class: "seat-dot", style: `background:${frame.colours[seat]}` }), frame.names[seat] ?? "?",
      st.start_player === seat ? h("span", { class: "holder", title: t("cg_startifant", lang) }, glyph("elephant", 16)) : null),
    h("div", { class: "cg-stats" }, numbers(frame, seat)),
    list("cg-hand", plural("cg_hand_n", lang, st.seats[seat].hand_count), (st.seats[seat].hand || []).map((x) => (typeof x === "object"
      // a replay, after the game, shows every hand's dice sides; a live page never has another's
      ? h(Card, { key: x.card, frame, id: x.card, die: frame.mode === "replay" ? x.number : null })
      : h(Card, { key: x, frame, id: x })))),
    rows(frame, seat))));
}

export function createView({ main, side }, first) {
  const box = document.createElement("div");
  const sideBox = document.createElement("div");
  if (side === main) main.replaceChildren(box, sideBox); // (the replay viewer gives the board one place)
  else { main.replaceChildren(box); side.replaceChildren(sideBox); }
  const draw = (frame) => {
    known.cards = frame.sheet?.cards || known.cards; // (the deal check needs each card's colour)
    render(h(Board, { frame }), box);
    render(h(Others, { frame }), sideBox);
  };
  draw(first);
  return {
    update: draw,
    destroy() { render(null, box); render(null, sideBox); box.remove(); sideBox.remove(); },
  };
}

const stats = new WeakMap(); // a seat's view -> {key, made}: the numbers made once per seat and language

// The players list's part of a seat (the table asks only when its state has a `players` list; the board shows them).
export function seatStats(frame, seat) {
  const s = frame.game.state.seats?.[seat];
  if (!s) return null;
  const was = stats.get(s);
  if (was && was.key === frame.lang) return was.made;
  const made = { marks: [], stats: numbers(frame, seat) };
  stats.set(s, { key: frame.lang, made });
  return made;
}


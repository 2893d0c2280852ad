// The deal check a page runs at the end of a card game (docs/fairness.md, docs/card-game/rules-decisions.md "How
// the deal is derived"): the shared generator (games/rng.py) and the game's shuffle written again here recompute the
// start player, every card's number, the deck, the score tracks and the deal from the revealed seed and the players'
// contributions, and compare them with what the log shows: the offer, the hands' action sides and the draw pile's top
// card at the start, and every card whose number was shown during the game (the discard pile lies dice side up).
// A reshuffled draw pile's order is left to `rajas verify`, which replays the rules. Pure: no DOM, no network.

import { sha256, sha256Hex } from "./sha256.js";
import { t } from "/i18n.js";

const GENERATOR = "rajas-dice/2";
const TWO64 = 1n << 64n;
const HEX256 = /^[0-9a-f]{64}$/;
const COLOURS = ["purple", "green", "blue", "orange"];
const OFFER = { 2: 12, 3: 16, 4: 20 };
const PER_NUMBER = 6; // cards of each colour with each number

// SHA-256 in counter mode, as games/rng.py: value i is the first 8 bytes of SHA-256(key || i as 8 bytes).
class Generator {
  constructor(seed, contributions) {
    this.block = new Uint8Array(40);
    this.block.set(sha256(`${GENERATOR}\n${seed}${contributions.map((c) => `\n${c}`).join("")}`));
    this.view = new DataView(this.block.buffer);
    this.counter = 0n;
  }

  roll(sides) {
    const n = BigInt(sides);
    const limit = TWO64 - 1n - (TWO64 % n);
    for (;;) {
      this.view.setBigUint64(32, this.counter);
      this.counter += 1n;
      const v = new DataView(sha256(this.block).buffer).getBigUint64(0);
      if (v <= limit) return Number(v % n);
    }
  }

  // Fisher-Yates from the last index down (engine/deal.py `shuffle`).
  shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.roll(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// The deal of `players` seats from the seed and contributions, in the rules decision's order.
export function deal(seed, contributions, cards, players, { planned = false } = {}) {
  const gen = new Generator(seed, contributions);
  const start = gen.roll(players);
  const numbers = new Array(cards.length).fill(0);
  COLOURS.forEach((colour) => {
    const ids = cards.filter((c) => c.colour === colour).map((c) => c.id);
    const pool = gen.shuffle([1, 2, 3, 4, 5, 6].flatMap((n) => new Array(PER_NUMBER).fill(n)));
    ids.forEach((id, i) => { numbers[id] = pool[i]; });
  });
  const deck = gen.shuffle(cards.map((c) => c.id));
  const tracks = planned ? [] : Array.from({ length: players }, () => gen.shuffle([0, 1, 2, 3, 4, 5]));
  const hands = Array.from({ length: players }, () => []);
  let at = 0;
  for (let round = 0; round < 4; round++) for (let k = 0; k < players; k++) hands[(start + k) % players].push(deck[at++]);
  const offer = deck.slice(at, at + OFFER[players]);
  at += OFFER[players];
  return { start, numbers, tracks, hands, offer, top: deck[at] ?? null };
}

// Every {card, number} pair anywhere in the events.
function shownNumbers(x, out) {
  if (Array.isArray(x)) { for (const y of x) shownNumbers(y, out); return out; }
  if (!x || typeof x !== "object") return out;
  if (typeof x.card === "number" && typeof x.number === "number") out.push(x);
  for (const v of Object.values(x)) shownNumbers(v, out);
  return out;
}

const fail = (step, checked = 0) => ({ ok: false, step, rolls: checked });
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Checks a finished game's log against what this page saw (`commitment`) and sent (`contribution`), with the card
// list `cards` (the room's). {ok, rolls (numbers checked), step: what failed}.
export function checkLog(log, { commitment, contribution = null }, cards) {
  if (!log || typeof log !== "object" || !Array.isArray(cards)) return fail({ kind: "no_log" });
  if (commitment && log.commitment !== commitment) return fail({ kind: "commitment", saw: commitment, log: log.commitment });
  const seed = log.seed;
  if (typeof seed !== "string" || sha256Hex(seed) !== log.commitment) return fail({ kind: "seed" });
  if (log.dice !== GENERATOR) return fail({ kind: "generator" });
  const players = Array.isArray(log.players) ? log.players.length : 0;
  const cs = log.contributions;
  if (!Array.isArray(cs) || cs.length !== players) return fail({ kind: "contributions" });
  for (let seat = 0; seat < cs.length; seat++) {
    const c = cs[seat];
    if (!c || !HEX256.test(c.value ?? "")) return fail({ kind: "contributions" });
    if (c.by === "bot" && c.value !== sha256Hex(`rajas-bot-entropy/1\n${seed}\n${seat}`)) return fail({ kind: "bot_contribution", seat: seat + 1 });
  }
  if (contribution && !cs.some((c) => c.by === "player" && c.value === contribution)) return fail({ kind: "mine" });
  const d = deal(seed, cs.map((c) => c.value), cards, players, { planned: !!log.options?.planned_track });
  if (d.start !== log.start_player) return fail({ kind: "start_player" });
  const started = (log.start_rolls || []).find((e) => e.type === "game_started");
  if (!started || !same(started.offer, d.offer) || !same(started.hands, d.hands) || started.draw_top !== d.top) return fail({ kind: "deal" });
  const shown = shownNumbers([log.start_rolls, log.decisions, log.final_state?.discard], []);
  for (const s of shown) if (d.numbers[s.card] !== s.number) return fail({ kind: "number", card: s.card });
  return { ok: true, rolls: shown.length };
}

export async function checkDeal(log, seen, cards) {
  const r = checkLog(log, seen, cards);
  const text = (lang) => (r.ok ? t("cg_deal_verified", lang, { n: r.rolls })
    : t(`cg_deal_failed_${r.step.kind}`, lang, { saw: String(r.step.saw || "").slice(0, 12), log: String(r.step.log || "").slice(0, 12), seat: r.step.seat ?? "", card: r.step.card ?? "" }));
  return { ...r, text };
}

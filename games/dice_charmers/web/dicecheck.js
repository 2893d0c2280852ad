// The dice check a player's page runs at the end of a game (docs/fairness.md): the same generator as the
// server's (engine/rng.py), written again here, recomputes the start player and every roll in the game log.
// No rules engine: the log records every roll in order; the legality of decisions is what `rajas verify` checks.
// Pure: no DOM, no network; tests run it under node and in the browser against docs/dice-vectors.json.

import { sha256, sha256Hex, toHex } from "./sha256.js";

export { sha256Hex };

export const DICE_VERSION = "rajas-dice/2";
const TWO64 = 1n << 64n;
const HEX256 = /^[0-9a-f]{64}$/;

/** The generator's key: SHA-256 of "rajas-dice/2\n" + seed + "\n" + each contribution, as UTF-8. */
export function diceKey(seed, contributions) {
  return sha256(`${DICE_VERSION}\n${seed}${contributions.map((c) => `\n${c}`).join("")}`);
}

/** SHA-256 in counter mode: value i is the first 8 bytes of SHA-256(key || i as 8 bytes, big-endian). */
export class Dice {
  constructor(key, counter = 0n) {
    this.block = new Uint8Array(40);
    this.block.set(key);
    this.view = new DataView(this.block.buffer);
    this.counter = BigInt(counter);
  }

  static of(seed, contributions) { return new Dice(diceKey(seed, contributions)); }

  nextU64() {
    this.view.setBigUint64(32, this.counter);
    this.counter += 1n;
    return new DataView(sha256(this.block).buffer).getBigUint64(0);
  }

  /** A face in 0..sides-1, unbiased: values above the last whole multiple of `sides` are drawn again. */
  roll(sides) {
    const n = BigInt(sides);
    const limit = TWO64 - 1n - (TWO64 % n);
    for (;;) {
      const v = this.nextU64();
      if (v <= limit) return Number(v % n);
    }
  }

  /** key || counter as hex: the state engine/rng.py stores. */
  stateHex() { return toHex(this.block.subarray(0, 32)) + this.counter.toString(16).padStart(16, "0"); }
}

/** The value a seat whose player sent none gets: its bot's, derived from the seed. */
export const botContribution = (seed, seat) => sha256Hex(`rajas-bot-entropy/1\n${seed}\n${seat}`);

const fail = (step, rolls = 0) => ({ ok: false, step, rolls });

/**
 * Checks a finished game's log against what this page saw at the start: `commitment` (the room's commitment
 * when the page first saw it) and `contribution` (this page's own value; null for a spectator).
 * Returns {ok: true, rolls} or {ok: false, step, rolls}: `step` names what failed ({kind, ...}).
 */
export function checkLog(log, { commitment, contribution = null }) {
  if (!log || typeof log !== "object") return fail({ kind: "no_log" });
  if (commitment && log.commitment !== commitment) return fail({ kind: "commitment", saw: commitment, log: log.commitment });
  const seed = log.seed;
  if (typeof seed !== "string" || sha256Hex(seed) !== log.commitment) return fail({ kind: "seed" });
  if (log.dice !== DICE_VERSION) return fail({ kind: "generator", log: log.dice });
  const players = Array.isArray(log.players) ? log.players.length : 0;
  const cs = log.contributions;
  if (!Array.isArray(cs) || cs.length !== players) return fail({ kind: "contributions" });
  for (let seat = 0; seat < cs.length; seat++) {
    const c = cs[seat];
    if (!c || !HEX256.test(c.value ?? "")) return fail({ kind: "contributions", seat });
    if (c.by === "bot" && c.value !== botContribution(seed, seat)) return fail({ kind: "bot_contribution", seat });
  }
  if (contribution && !cs.some((c) => c.by === "player" && c.value === contribution)) return fail({ kind: "mine" });
  const dice = Dice.of(seed, cs.map((c) => c.value));
  const start = dice.roll(players);
  if (start !== log.start_player) return fail({ kind: "start_player", log: log.start_player, dice: start });
  // Every roll in order: the first round's, then those each decision caused (a new round, a karma reroll).
  const batches = [{ decision: null, rolls: log.start_rolls || [] }];
  (log.decisions || []).forEach((d, i) => batches.push({ decision: i, rolls: (Array.isArray(d) && d[3]) || [] }));
  let count = 0;
  for (const { decision, rolls } of batches) {
    for (const r of rolls) {
      const faces = Array.isArray(r?.faces) ? r.faces : [];
      const dieNumbers = r?.type === "karma_rolled" ? r.dice || [] : faces.map((_, i) => i);
      if ((r?.type === "dice_rolled" && faces.length !== 8) || faces.length !== dieNumbers.length) {
        return fail({ kind: "roll", roll: count + 1, decision, die: null }, count);
      }
      for (let i = 0; i < faces.length; i++) {
        const got = dice.roll(6);
        if (got !== faces[i]) {
          return fail({ kind: "roll", roll: count + 1, decision, die: dieNumbers[i], log: faces[i], dice: got }, count);
        }
      }
      count += 1;
    }
  }
  return { ok: true, rolls: count };
}

// The fame and money tracks: where a total stands on its track, how far the two entries have crossed, and that
// distance in the player's words ("1 space apart", "crossed by 2,5"), as the engine counts it (engine/tracks.py).

import { plural } from "/i18n.js";

// Where a total stands on its track, in spaces (part way between two spaces when it falls between).
export function trackPosition(values, value) {
  const last = values.length - 1;
  if (value >= values[last]) return last + (value - values[last]) / (values[last] - values[last - 1]);
  let i = 0;
  while (i + 1 < values.length && values[i + 1] <= value) i++;
  return i + (value - values[i]) / (values[i + 1] - values[i]);
}

// How far the fame and money entries have passed each other, in spaces (negative: not met yet).
export function overlap(sheet, player) {
  const tr = sheet.tracks;
  return trackPosition(tr.fame.values, player.fame) + trackPosition(tr.money.values, player.money) - (tr.fame.values.length - 1);
}

// How far a player's fame and money have crossed (or how far apart they still are).
export function overlapWords(ov, lang) {
  const n = Math.round(Math.abs(ov) * 100) / 100;
  return ov >= 0 ? plural("crossed", lang, n) : plural("not_crossed", lang, n);
}

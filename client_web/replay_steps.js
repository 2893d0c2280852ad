// Stepping through a replay turn by turn and round by round. `marks[i]` is [round, seat to decide] at step i
// (GET /api/games/ID/replay): a turn starts where the pair changes, a round where the round does.

function key(mark, by) {
  return by === "round" ? String(mark[0]) : `${mark[0]}:${mark[1]}`;
}

function startOf(marks, i, by) {
  while (i > 0 && key(marks[i - 1], by) === key(marks[i], by)) i--;
  return i;
}

// The first step of the next turn (or round) after step `at`; the last step when there is none.
export function stepAfter(marks, at, by) {
  for (let i = at + 1; i < marks.length; i++) if (key(marks[i], by) !== key(marks[at], by)) return i;
  return marks.length - 1;
}

// The first step of this turn (or round) when `at` is past it, else the first step of the one before.
export function stepBefore(marks, at, by) {
  const here = startOf(marks, at, by);
  return here < at ? here : startOf(marks, Math.max(0, here - 1), by);
}

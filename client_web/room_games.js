// The games played in a room (GET /api/rooms/CODE/games, newest first), each with a link to its replay
// (/games/ID). Shown on the end-of-game screen and in the lobby of a room that has played before; nothing is
// shown while the room has no archived game. The game just finished is archived a moment after its last
// decision, so the end screen asks again a few times.

import { html } from "./svg.js";
import { t } from "./i18n.js";

const TRIES = 6;
const shown = new Map(); // (code, lang) -> the lobby's list: the lobby is drawn again on every update
const FRESH_MS = 15000; // ... so its list is asked for again only this long after (a game may have ended since)

export function roomGames(lang, code, { wait = false, reuse = false } = {}) {
  if (!code) return null; // (a view without a room: nothing to ask for)
  const key = `${code}:${lang}`;
  const kept = reuse ? shown.get(key) : null;
  if (kept) {
    if (Date.now() - kept.at > FRESH_MS) { kept.at = Date.now(); kept.load(1); }
    return kept.box;
  }
  const box = html("section", { class: "room-games", "data-room-games": "", hidden: "" });
  const load = async (tries) => {
    let games = [];
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(code)}/games`);
      if (res.ok) games = (await res.json()).games || [];
    } catch { /* offline: nothing to list */ }
    if (!games.length) {
      if (tries > 1) setTimeout(() => load(tries - 1), 500);
      return;
    }
    const n = games.length;
    box.replaceChildren(html("h3", null, t("replay_games", lang)), html("ul", { class: "room-games-list" },
      ...games.map((g, i) => html("li", null, html("a", {
        class: "btn replay-link", href: `/games/${g.id}`, "data-game": g.id,
        "aria-label": t("replay_watch", lang, { n: n - i }),
      }, t("replay_game_n", lang, { n: n - i, p: g.players.join(", ") }))))));
    box.hidden = false;
  };
  load(wait ? TRIES : 1);
  if (reuse) shown.set(key, { box, load, at: Date.now() });
  return box;
}

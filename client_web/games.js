// The games this table offers: each a folder games/<id>/web/ that `rajas serve` serves at /play/<id>/, whose
// index.js is the game interface (README.md, "The game interface"). A game is added by writing its folder and its
// id here; the first is the game of a room whose settings name none.

import { addWords, loadWords } from "./i18n.js";

export const GAMES = ["dice_charmers"];

const V = new URL(import.meta.url).search; // the page's version (the static server's ?v=): one module per file
const loading = new Map(); // id -> the promise of its index module
const loaded = new Map(); // id -> {index, play}: what has come

// The room's game: its settings' `game`, or the first game (the rooms of today's server do not say).
export function gameOf(room) {
  const id = room?.settings?.game;
  return GAMES.includes(id) ? id : GAMES[0];
}

// The game's interface module, once: its words registered, its styles put before the table's.
function index(id) {
  if (!loading.has(id)) {
    loading.set(id, import(`/play/${id}/index.js${V}`).then((m) => {
      addWords(m.words);
      if (m.styles && !document.querySelector(`link[data-game-styles="${id}"]`)) {
        const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: m.styles });
        link.dataset.gameStyles = id;
        document.head.insertBefore(link, document.querySelector("link[rel=stylesheet]"));
      }
      loaded.set(id, { index: m, play: null });
      return m;
    }, (e) => { loading.delete(id); throw e; }));
  }
  return loading.get(id);
}

// The game's interface and its words in `lang`; with `board`, its board too (the game screen, the replay).
export async function loadGame(id, lang, { board = false } = {}) {
  const m = await index(id);
  await loadWords(lang);
  if (board && !loaded.get(id).play) loaded.get(id).play = await m.play();
  return loaded.get(id);
}

// What has loaded of a game: {index, play} (play null until the board loaded), or null.
export function game(id) {
  return loaded.get(id) || null;
}

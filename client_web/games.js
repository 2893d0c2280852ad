// The games this table offers: each a folder games/<id>/web/ that `rajas serve` serves at /play/<id>/, whose
// index.js is the game interface (README.md, "The game interface"). A game is added by writing its folder and its
// id here; the first is the game of a room whose settings name none. And the loading of modules the page asks for
// later than its start: all the files one needs at once (preload), by the import graph the static server writes in
// the page.

import { addWords, loadWords } from "./i18n.js";

export const GAMES = ["dice_charmers", "card_game"];

const V = new URL(import.meta.url).search; // the page's version (the static server's ?v=): one module per file
let graph = null; // {files, static, dynamic, at: file -> index} from the page (server/edge/static.py)
const preloaded = new Set();

// Asks for `url` and every module it imports, however deep (with `dynamic`, the ones it may load by name too), all at
// once: the browser then fetches them side by side, not one level of imports per round trip. Nothing without the graph.
export function preload(url, { dynamic = false } = {}) {
  if (!graph) {
    const node = document.getElementById("modules");
    graph = node ? JSON.parse(node.textContent) : { files: [], static: [], dynamic: [] };
    graph.at = new Map(graph.files.map((f, i) => [f, i]));
  }
  const todo = [graph.at.get(url)];
  const seen = new Set();
  while (todo.length) {
    const i = todo.pop();
    if (i === undefined || seen.has(i)) continue;
    seen.add(i);
    todo.push(...graph.static[i], ...(dynamic ? graph.dynamic[i] : []));
    const file = graph.files[i];
    if (preloaded.has(file)) continue;
    preloaded.add(file);
    document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href: `${file}${V}` }));
  }
}

const loading = new Map(); // id -> the promise of its index module
const loaded = new Map(); // id -> {index, play}: what has come

// The room's game: its settings' `game`, or the first game where they name none.
export function gameOf(room) {
  const id = room?.settings?.game;
  return GAMES.includes(id) ? id : GAMES[0];
}

// The game's interface module, once: its words registered, its styles (its folder's game.css) put before the table's.
function index(id) {
  if (!loading.has(id)) {
    if (!document.querySelector(`link[data-game-styles="${id}"]`)) {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/play/${id}/game.css${V}` });
      link.dataset.gameStyles = id;
      document.head.insertBefore(link, document.querySelector("link[rel=stylesheet]"));
    }
    loading.set(id, import(`/play/${id}/index.js${V}`).then((m) => {
      addWords(m.words);
      loaded.set(id, { index: m, play: null });
      return m;
    }, (e) => { loading.delete(id); throw e; }));
  }
  return loading.get(id);
}

// The game's interface and its words in `lang`; with `board`, its board too (the game screen, the replay).
export async function loadGame(id, lang, { board = false } = {}) {
  preload(`/play/${id}/index.js`, { dynamic: board });
  preload(`/play/${id}/i18n/${lang}.js`);
  const m = await index(id);
  await loadWords(lang);
  if (board && !loaded.get(id).play) loaded.get(id).play = await m.play();
  return loaded.get(id);
}

// What has loaded of a game: {index, play} (play null until the board loaded), or null.
export function game(id) {
  return loaded.get(id) || null;
}

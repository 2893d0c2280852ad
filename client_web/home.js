// The home page: create a private room (name, players, turn clock, the game's own options, turn-based play,
// spectators), join one with a code or link, "Your games" (Resume for every room this browser holds a seat in: the
// seat tokens kept as rajas.room.<code>, newest first), the public rooms waiting for players (GET /api/rooms, read
// again every 10 s or by Refresh; Join asks the name, Watch watches), and the turn alerts' switches.

import { h, Component, createRef } from "./ui.js";
import { t } from "./i18n.js";
import { glyph } from "./glyphs.js";
import { ROLES, SETTINGS } from "./protocol.js";
import { dispatch } from "./store.js";
import { createRoom, errorText, go, goHome, parseCode, toast } from "./session.js";
import { TopBar } from "./bar.js";
import { AlertSettings } from "./alerts.js";
import { TurnFields } from "./turns.js";
import { GAMES, game, gameOf } from "./games.js";

const REFRESH_MS = 10_000;
const RESUME_MAX = 20; // the newest seats shown (a browser may have played many rooms)

const field = (label, input, cls = "") => h("label", { class: `field ${cls}`.trim() }, h("span", { class: "field-label" }, label), input);

// The rooms this browser holds a seat in, newest first: [{code, name, at}].
function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("rajas.room.")) continue;
    let r = null;
    try { r = JSON.parse(localStorage.getItem(key)); } catch { continue; }
    if (r && r.token) out.push({ code: key.slice("rajas.room.".length), name: r.name || "", at: r.at || 0 });
  }
  out.sort((a, b) => b.at - a.at);
  return out.slice(0, RESUME_MAX);
}

class CreateForm extends Component {
  constructor(props) {
    super(props);
    this.options = createRef(); // the game's own fields (its Options): set by the component itself (`handle`)
    this.turns = createRef();
    this.state = { sending: false, game: gameOf(null) };
  }

  async submit(e) {
    e.preventDefault();
    const L = (k, v) => t(k, this.props.lang, v);
    const f = e.target.elements;
    const name = f.name.value.trim();
    if (!name) { toast(L("err_name")); f.name.focus(); return; }
    const own = this.options.current ? await this.options.current.values() : {};
    if (!own) return; // the game's fields say what is missing
    this.setState({ sending: true });
    try {
      await createRoom({ game: this.state.game, seats: Number(f.seats.value), ...own, spectators: f.spectators.checked, turn_clock: Number(f.clock.value) || null, ...this.turns.current.values() }, name);
      this.options.current?.created();
    } catch (err) {
      this.setState({ sending: false });
      if (!this.options.current?.refused(err)) toast(errorText(err));
    }
  }

  render({ lang, state }) {
    const L = (k, v) => t(k, lang, v);
    const chosen = this.state.game;
    const index = game(chosen)?.index;
    const Options = index?.Options;
    const seats = index?.players || [2, 3, 4, 5]; // the players a room of the game seats
    const lastName = localStorage.getItem("rajas.name") || "";
    return h("form", { class: "card create-card", "data-form": "create", onSubmit: (e) => this.submit(e) },
      h("h2", null, L("create_room")),
      field(L("your_name"), h("input", { name: "name", defaultValue: lastName, maxlength: SETTINGS.name_max, autocomplete: "nickname", required: true, "data-field": "create-name" })),
      GAMES.length > 1 ? field(L("game_choice"), h("select", { name: "game", "data-field": "game", value: chosen,
        onChange: (e) => { this.options.current = null; this.setState({ game: e.target.value }); } },
      GAMES.map((id) => h("option", { value: id }, game(id)?.index.title?.(lang) || id)))) : null,
      h("div", { class: "field-row" },
        field(L("players_count"), h("select", { name: "seats", "data-field": "seats" }, seats.map((n) => h("option", { value: n, selected: n === Math.min(4, seats[seats.length - 1]) }, String(n))))),
        field(L("turn_clock"), h("select", { name: "clock", "data-field": "clock" },
          [[0, L("no_clock")], [60, L("minutes", { n: 1 })], [120, L("minutes", { n: 2 })], [300, L("minutes", { n: 5 })]].map(([v, l]) => h("option", { value: v }, l))))),
      Options ? h(Options, { key: chosen, handle: this.options, lang, mode: "create" }) : null,
      h(TurnFields, { handle: this.turns, L }),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "spectators", defaultChecked: true, "data-field": "spectators" }), h("span", null, L("allow_spectators"))),
      h("button", { type: "submit", class: "btn primary", "data-action": "create", disabled: this.state.sending || !state.games[chosen] }, L("create")));
  }
}

function JoinForm({ lang }) {
  const L = (k) => t(k, lang);
  const submit = (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const parsed = parseCode(f.code.value);
    if (!parsed) { toast(L("err_code")); f.code.focus(); return; }
    const n = f.name.value.trim();
    if (!n && !parsed.watch) { toast(L("err_name")); f.name.focus(); return; }
    if (n) localStorage.setItem("rajas.name", n);
    dispatch("intent", parsed.watch ? { role: ROLES.SPECTATOR } : { role: ROLES.PLAYER, name: n });
    go(parsed.watch ? `/?watch=${parsed.code}` : `/?room=${parsed.code}`);
  };
  return h("form", { class: "card join-card", "data-form": "join", onSubmit: submit },
    h("h2", null, L("join_room")),
    field(L("invite_code"), h("input", { name: "code", placeholder: "k7p-xq4m-9rtz", autocomplete: "off", autocapitalize: "off", spellcheck: false, "data-field": "join-code" })),
    field(L("your_name"), h("input", { name: "name", defaultValue: localStorage.getItem("rajas.name") || "", maxlength: SETTINGS.name_max, autocomplete: "nickname", "data-field": "join-name" })),
    h("button", { type: "submit", class: "btn", "data-action": "join" }, L("join")));
}

function ResumeCard({ lang }) {
  const L = (k, v) => t(k, lang, v);
  const held = heldSeats();
  if (!held.length) return null;
  return h("section", { class: "card resume-card", "data-list": "resume", "aria-labelledby": "resume-title" },
    h("h2", { id: "resume-title" }, L("resume_title")),
    h("ul", { class: "room-list" }, held.map((r) => h("li", { class: "room-line", "data-room": r.code },
      h("span", { class: "room-what" }, h("strong", null, r.code), r.name ? ` · ${r.name}` : ""),
      h("button", { type: "button", class: "btn small primary", "data-action": "resume", "aria-label": L("resume_room", { c: r.code }),
        onClick: () => go(`/?room=${r.code}`) }, L("resume"))))));
}

// The public rooms' card: read when shown and then every 10 s, while no line is asking a name.
class PublicRooms extends Component {
  componentDidMount() {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
  }

  async refresh() {
    let rooms = null;
    try {
      const res = await fetch("/api/rooms");
      rooms = res.ok ? (await res.json()).rooms : null;
    } catch { rooms = null; }
    if (!rooms) { this.setState({ failed: true }); return; }
    if (this.state.asking) return; // a line being filled in (its name asked) is kept as it is
    this.setState({ rooms, failed: false });
  }

  line(r, L) {
    const { lang, lastName } = this.props;
    const open = r.seats - r.taken;
    const names = (r.names || []).join(", ");
    const index = game(GAMES.includes(r.game) ? r.game : gameOf(r))?.index; // (a listing names its game beside its settings)
    const named = GAMES.length > 1 && index?.title ? index.title(lang) : "";
    const what = [named, index?.sheetName ? index.sheetName(r.sheet, lang) : "", L("public_players", { n: r.taken, m: r.seats }), open > 0 ? L("public_open", { n: open }) : L("public_full"), L("public_not_started")]
      .filter(Boolean).join(" · ");
    const asking = this.state.asking === r.code;
    const take = (e) => {
      e.preventDefault();
      const n = e.target.elements.name.value.trim();
      if (!n) { e.target.elements.name.focus(); return; }
      localStorage.setItem("rajas.name", n);
      dispatch("intent", { role: ROLES.PLAYER, name: n });
      go(`/?room=${r.code}`);
    };
    return h("li", { key: r.code, class: "room-line", "data-room": r.code, "data-open": open },
      h("span", { class: "room-what" }, h("strong", null, r.code), ` · ${what}`, names ? h("span", { class: "muted small room-names" }, ` (${names})`) : null),
      h("span", { class: "room-actions" },
        open > 0 ? h("button", { type: "button", class: "btn small primary", "data-action": "public-join", "aria-label": L("public_join_room", { c: r.code }),
          onClick: () => this.setState({ asking: r.code }, () => this.list.querySelector(`[data-room="${r.code}"] [data-field=public-name]`)?.focus()) }, L("join")) : null,
        r.spectators ? h("button", { type: "button", class: "btn small", "data-action": "public-watch", "aria-label": L("public_watch_room", { c: r.code }),
          onClick: () => { dispatch("intent", { role: ROLES.SPECTATOR }); go(`/?room=${r.code}`); } }, L("watch")) : null),
      h("form", { class: "public-ask", hidden: !asking, onSubmit: take },
        h("input", { name: "name", defaultValue: lastName, maxlength: 24, autocomplete: "nickname", "aria-label": L("your_name"), "data-field": "public-name" }),
        h("button", { type: "submit", class: "btn small primary", "data-action": "public-take" }, L("take_seat"))));
  }

  render({ lang }) {
    const L = (k, v) => t(k, lang, v);
    const { rooms, failed } = this.state;
    const status = failed ? L("public_failed") : !rooms ? L("public_loading") : rooms.length ? "" : L("public_none");
    return h("section", { class: "card public-card", "data-list": "public", "aria-labelledby": "public-title" },
      h("div", { class: "card-head" }, h("h2", { id: "public-title" }, L("public_title")),
        h("button", { type: "button", class: "btn small", "data-action": "public-refresh", onClick: () => this.refresh() }, L("refresh"))),
      h("p", { class: "muted small", "data-status": "public" }, status),
      h("ul", { class: "room-list", "aria-live": "polite", ref: (n) => { this.list = n; } }, (rooms || []).map((r) => this.line(r, L))));
  }
}

export function Home({ state }) {
  const { lang } = state;
  const L = (k) => t(k, lang);
  return h("div", { class: "screen home", "data-screen": "home" }, h(TopBar, { state, onHome: goHome }),
    h("main", { class: "home-main" },
      h("section", { class: "hero" }, h("div", { class: "hero-mark" }, glyph("elephant", 72)), h("h1", null, L("app_title")), h("p", null, L("tagline"))),
      h("div", { class: "home-cards" }, h(CreateForm, { lang, state }), h(JoinForm, { lang })),
      h(ResumeCard, { lang }),
      h(PublicRooms, { lang, lastName: localStorage.getItem("rajas.name") || "" }),
      h(AlertSettings, { lang })));
}

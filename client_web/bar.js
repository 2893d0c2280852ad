// The bar at the top of every screen: Rajas' mark (home), the screen's title and tools, how to play, the
// connection's state (with "reconnect now" while offline) and the language.

import { h } from "./ui.js";
import { t, LANGS, LANG_NAMES } from "./i18n.js";
import { glyph } from "./glyphs.js";
import { HelpButton } from "./help.js";
import { net, setLanguage } from "./session.js";

export function StatusBadge({ state }) {
  const { conn, lang } = state;
  const text = conn === "online" ? t("conn_online", lang) : conn === "connecting" ? t("conn_connecting", lang) : t("conn_offline", lang, { n: state.retryIn });
  return h("span", { class: `conn-status conn-${conn}`, "data-status": conn, role: "status", "aria-live": "polite" },
    h("span", { class: "conn-dot" }), h("span", { class: "conn-text" }, text),
    h("button", { type: "button", class: "link-button", hidden: conn !== "offline", onClick: () => net.reconnectNow() }, t("reconnect_now", lang)));
}

export function LangSelect({ lang }) {
  return h("select", { class: "lang-select", "aria-label": t("language", lang), value: lang, onChange: (e) => setLanguage(e.target.value) },
    LANGS.map((l) => h("option", { value: l, selected: l === lang }, LANG_NAMES[l])));
}

// The brand: Rajas' elephant, a link home (`onHome` asks first where leaving needs it).
export function Brand({ onHome, label = null }) {
  return h("a", { class: "brand", href: "/", "aria-label": label, onClick: onHome ? (e) => { e.preventDefault(); onHome(); } : null },
    h("span", { class: "brand-mark" }, glyph("elephant", 26)), h("span", { class: label ? "brand-name" : null }, "Rajas"));
}

// The bar of the screens around a game (home, join, lobby, ...): `children` between the brand and the tools.
export function TopBar({ state, onHome, children }) {
  return h("header", { class: "app-bar" }, h(Brand, { onHome }), children,
    h("span", { class: "spacer" }), h(HelpButton, { lang: state.lang }), h(StatusBadge, { state }), h(LangSelect, { lang: state.lang }));
}

// Links a page shows or opens: their Copy button (the lobby's invite and spectator links, the device dialog's seat
// link), and a seat token carried by a link, /?room=CODE#NAME=TOKEN: the token rides in the fragment, which browsers
// never send to a server, so no access log holds it. A turn e-mail's link carries #resume=, "another device" #seat=.

import { h, Component } from "./ui.js";
import { t } from "./i18n.js";

// A button that copies `text` and says so for a moment; `attrs`: its class and data-action where it stands.
export class CopyButton extends Component {
  render({ text, lang, attrs }) {
    return h("button", { type: "button", ...attrs, onClick: async () => {
      try { await navigator.clipboard.writeText(text); } catch { /* not allowed: the text is selectable */ }
      this.setState({ copied: true });
      setTimeout(() => this.setState({ copied: false }), 1500);
    } }, t(this.state.copied ? "copied" : "copy", lang));
  }
}

// {room, token} of such a link when the address has both (and `valid(token)`), the token then taken off the
// address bar; null otherwise, the address left as it is.
export function tokenFromLink(name, valid = () => true) {
  const room = new URLSearchParams(location.search).get("room");
  const token = new URLSearchParams(location.hash.slice(1)).get(name);
  if (!room || !token || !valid(token)) return null;
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  return { room, token };
}

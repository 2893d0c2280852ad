// Bot seats in the lobby (issue 17): the host adds a bot (random or greedy: the engine's bots) to fill a table
// or to play alone against bots, and removes one; a bot's seat shows which bot plays it. The server paces the
// bots' decisions (RAJAS_BOT_PACE) so people can follow them.

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { MSG, SETTINGS } from "./protocol.js";

// The kind the host chose last, kept while the lobby is drawn again.
const chosen = { kind: SETTINGS.bots[0] };

/** The badge on a bot's seat, in place of the online / away mark a person's seat has. */
export function botBadge(seat, lang) {
  return html("span", { class: "badge bot", "data-bot-kind": seat.kind }, `${t("bot_seat", lang)} · ${t(`bot_${seat.kind}`, lang)}`);
}

/** The host's button that removes the bot in seat `i`. */
export function removeBotButton(actions, seat, i, lang) {
  return html("span", { class: "seat-actions" },
    html("button", { type: "button", class: "btn small danger", "data-action": "remove-bot", "aria-label": t("remove_bot_named", lang, { p: seat.name }),
      onclick: () => actions.send(MSG.REMOVE_BOT, { seat: i }) }, t("remove_bot", lang)));
}

/** The host's bot chooser under the seats: which bot, and "Add bot" (while a seat is free). */
export function botControls(actions, room, lang) {
  const full = room.seats.length >= room.settings.seats;
  const id = "bot-kind-choice";
  const kind = html("select", { id, "data-field": "bot-kind", onchange: (e) => { chosen.kind = e.target.value; } },
    SETTINGS.bots.map((b) => html("option", { value: b, selected: b === chosen.kind }, t(`bot_${b}`, lang))));
  kind.value = chosen.kind;
  return html("div", { class: "bot-controls", role: "group", "aria-label": t("bots_title", lang) },
    html("label", { class: "field", for: id }, html("span", { class: "field-label" }, t("bot_kind", lang))),
    kind,
    html("button", { type: "button", class: "btn", "data-action": "add-bot", disabled: full,
      onclick: () => actions.send(MSG.ADD_BOT, { kind: kind.value }) }, `+ ${t("add_bot", lang)}`),
    full ? html("span", { class: "muted small" }, t("bots_full", lang)) : null);
}

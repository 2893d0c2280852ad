// Away players in the game's bar: for each seat whose player's connection dropped, the countdown to the bot
// taking it over (the seat's `bot_at`, a time on the server's clock), and for the host a button that hands the
// seat to the bot at once (`bot_now`). The player takes the seat back by coming back.

import { h, Component } from "./ui.js";
import { t } from "./i18n.js";
import { MSG, STATUS } from "./protocol.js";
import { send, serverNow } from "./session.js";

// Seconds until the bot takes the seat, on the server's clock (never below zero).
function secondsLeft(botAt) {
  return Math.max(0, Math.round(botAt - serverNow()));
}

// The seats waiting for the bot: [{seat, name, botAt}] (a seat counts as away while nobody holds it).
function awaySeats(room) {
  if (!room || room.status !== STATUS.PLAYING) return [];
  return room.seats.flatMap((s, i) => (!s.bot && !s.connected && typeof s.bot_at === "number" ? [{ seat: i, name: s.name, botAt: s.bot_at }] : []));
}

// Drawn every second while someone is away (only the seconds' texts change).
export class AwayBox extends Component {
  componentDidMount() {
    this.timer = setInterval(() => { if (awaySeats(this.props.room).length) this.forceUpdate(); }, 1000);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
  }

  render({ room, lang, host }) {
    const away = awaySeats(room);
    // (no live region: a screen reader hears the seat go away in the log, not a number every second)
    return h("span", { class: "away-box", "data-away": "", hidden: !away.length }, away.map((a) => h("span", { key: a.seat, class: "away-seat", "data-away-seat": a.seat },
      h("span", { class: "away-text" }, t("away_bot_in", lang, { p: a.name }), " ",
        h("strong", { class: "away-left", "data-away-left": "" }, t("seconds_short", lang, { n: secondsLeft(a.botAt) }))),
      host ? h("button", { type: "button", class: "btn small away-now", "data-action": "bot-now", "aria-label": t("bot_now_label", lang, { p: a.name }),
        onClick: async (e) => {
          e.currentTarget.disabled = true;
          await send(MSG.BOT_NOW, { seat: a.seat }); // refused (the player is back): the toast says why
        } }, t("bot_now", lang)) : null)));
  }
}

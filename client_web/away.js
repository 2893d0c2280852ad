// Away players in the game bar: for each seat whose player's connection dropped, the countdown to the bot
// taking it over (the seat's `bot_at`, a time on the server's clock), and for the host a button that hands
// the seat to the bot at once (`bot_now`). The player takes the seat back by coming back.
//
//   noteServerTime(reply.time)   // from the join reply: how far this device's clock is from the server's
//   renderAway(view)             // draws the bar's [data-away] box; called every second and on each change

import { html } from "./svg.js";
import { t } from "./i18n.js";
import { MSG, ROLES, STATUS } from "./protocol.js";

let skew = 0; // server time minus this device's time, seconds

export function noteServerTime(serverTime) {
  if (typeof serverTime === "number" && Number.isFinite(serverTime)) skew = serverTime - Date.now() / 1000;
}

// Seconds until the bot takes the seat, on the server's clock (never below zero).
export function secondsLeft(botAt) {
  return Math.max(0, Math.round(botAt - (Date.now() / 1000 + skew)));
}

// The seats waiting for the bot: [{seat, name, left}] (a seat counts as away while nobody holds it).
export function awaySeats(room) {
  if (!room || room.status !== STATUS.PLAYING) return [];
  const out = [];
  room.seats.forEach((s, i) => {
    if (!s.bot && !s.connected && typeof s.bot_at === "number") out.push({ seat: i, name: s.name, left: secondsLeft(s.bot_at) });
  });
  return out;
}

function isHost(S, stored) {
  const room = S.room;
  if (S.role !== ROLES.PLAYER || !room) return false;
  return (room.host !== null && room.host === S.seatId) || (room.host === null && !!stored.host_token);
}

export function renderAway(view) {
  // looked up in the bar alone: an attribute selector over the whole game screen walks every sheet's nodes
  const box = (view.bar || view.el).querySelector("[data-away]");
  if (!box) return;
  const S = view.S;
  const away = awaySeats(S.room);
  const key = JSON.stringify([away.map((a) => [a.seat, a.name]), S.lang]);
  const host = isHost(S, view.actions.stored ? view.actions.stored() : {});
  if (box.dataset.key !== `${key}|${host}`) {
    box.dataset.key = `${key}|${host}`;
    box.replaceChildren(...away.map((a) => html("span", { class: "away-seat", "data-away-seat": a.seat },
      html("span", { class: "away-text" }, t("away_bot_in", S.lang, { p: a.name }), " ",
        html("strong", { class: "away-left", "data-away-left": "" }, "")),
      host ? html("button", { type: "button", class: "btn small away-now", "data-action": "bot-now", "aria-label": t("bot_now_label", S.lang, { p: a.name }),
        onclick: async (e) => {
          e.currentTarget.disabled = true;
          await view.actions.send(MSG.BOT_NOW, { seat: a.seat }); // refused (the player is back): the toast says why
        } }, t("bot_now", S.lang)) : null)));
  }
  // the seconds change every second: only their text is written again (no live region: a screen reader
  // hears the seat go away in the log, not a number every second)
  for (const a of away) {
    const n = box.querySelector(`[data-away-seat="${a.seat}"] [data-away-left]`);
    if (n) n.textContent = t("seconds_short", S.lang, { n: a.left });
  }
  if (box.hidden !== (away.length === 0)) box.hidden = away.length === 0; // written only when it changes
}

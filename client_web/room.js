// The screens of a room and what goes with them, loaded with the first room the page opens (app.js): the lobby, the
// game's frame, the chat, fair dice, and the log's lines (the tests count them).

export { Lobby } from "./lobby.js";
export { Table, controls } from "./table.js";
export { Chat } from "./chat.js";
export { syncDice } from "./fairplay.js";
export { logLines } from "./side.js";

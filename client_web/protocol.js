// Protocol constants: a mirror of the protocol's models (protocol/messages.py, server_messages.py, errors.py;
// docs/protocol.md). tests/protocol/test_contract.py checks them against docs/protocol.schema.json, which is
// generated from those models.

export const PROTOCOL_VERSION = 1;
export const MAX_FRAME = 65536; // bytes a frame may carry (protocol/codec.py MAX_FRAME)
export const CLIENT_NAME = "rajas-web/1.0";

// client -> server (protocol/messages.py CLIENT_TYPES)
export const CLIENT_TYPES = Object.freeze([
  "hello", "create_room", "join", "leave", "kick", "start", "hand_over", "settings", "decide", "snapshot", "ping",
  "contribute", "undo", "chat", "chat_rules", "bot_now", "ready", "rematch", "add_bot", "remove_bot", "email",
]);
export const MSG = Object.freeze(Object.fromEntries(CLIENT_TYPES.map((t) => [t.toUpperCase(), t])));

// server -> client (protocol/server_messages.py SERVER_TYPES)
export const SERVER_TYPES = Object.freeze(["reply", "snapshot", "update", "presence", "notice", "chat", "chat_rules"]);

// protocol/errors.py ErrorCode
export const ERROR_CODES = Object.freeze([
  "malformed_frame", "protocol_version", "not_joined", "bad_token", "room_not_found", "room_full",
  "name_taken", "spectators_not_allowed", "not_host", "wrong_phase", "bad_settings", "not_a_player", "not_your_turn",
  "illegal_decision", "malformed_decision", "game_over", "stale_version", "bad_commitment", "contribution_fixed",
  "not_away", "takeover_not_allowed", "seat_not_free", "not_a_bot",
  "rate_limited", "too_large", "too_many_rooms", "too_many_listed", "server_full", "too_many_connections",
  "request_timeout", "undo_off", "nothing_to_undo", "undo_after_roll", "too_many_undos", "chat_closed",
  "chat_rate_limited", "too_many_games", "too_many_emails", "email_unavailable", "bad_email", "internal",
]);

export const ROLES = Object.freeze({ PLAYER: "player", SPECTATOR: "spectator" });
export const STATUS = Object.freeze({ LOBBY: "lobby", PLAYING: "playing", OVER: "over" });

// RoomSettings limits and defaults
export const SETTINGS = Object.freeze({
  seats: { min: 2, max: 5, default: 4 },
  sheets: ["sun", "moon"],
  turn_clock: { min: 0.05, max: 3600 },
  grace: { min: 0.05, max: 86400, default: 60 },
  bots: ["greedy", "random"],
  name_max: 32,
});

// chat (protocol/messages.py CHAT_MAX, Reaction)
export const CHAT_MAX = 200;
export const REACTIONS = Object.freeze(["good_move", "oops", "dice", "well_played", "thinking"]);

// engine/decisions.py ARITY
export const DECISION_ARITY = Object.freeze({
  die: 1, karma: 1, reroll: 0, keep: 1, pass: 0, goods: 3, goods_die: 1, sell: 3,
  road: 2, half_road: 2, river: 1, palace: 1, upgrade: 1, use: 0,
});

// engine phases and dice places (engine/state.py)
export const PHASE_OVER = "over";
export const WHERE_MIDDLE = -1;
export const WHERE_ELEPHANT = -2;

// Close codes the server uses
export const CLOSE = Object.freeze({ POLICY: 1008, TOO_BIG: 1009, TOO_SLOW: 4008 });

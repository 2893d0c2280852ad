"""The Lua scripts of the Redis store. Each touches only the keys passed in KEYS, and those all carry one hash tag
(a room's `{code}`, or the lobby index's `{lobby}`), so every script runs on one Redis Cluster master as it does
on a single Redis.

A room's keys: hash `rajas:{code}:room` ('v' version, 'rec' the record's changing part or all of it, 'fix' the
fixed part: settings with a custom sheet, game, host token, written when it changes; 'w' the watch key, 'wx' when
the watch key's lifetime was last extended), lists `rajas:{code}:log` and `rajas:{code}:recent`, hash
`rajas:{code}:presence`, and the shard channel `rajas:{code}:ch`.
The spectator code's key `rajas:watch:<watch code>` is looked up by that code alone, so it lives in a slot of its
own: scripts never touch it; they tell the caller when its lifetime should be extended (see WATCH_SLACK).
"""

from __future__ import annotations

# A room's scripts answer the watch key's name when its lifetime should be extended (at most every ttl/4); the
# watch key lives ttl * WATCH_SLACK, so it always outlives its room.
WATCH_SLACK = 1.25

# Lua, shared by the room scripts: the watch key's name if it is due for a longer life, else nil. `w` and `wx` are
# the room hash's fields of those names, read by the caller with the others it needs (one HMGET).
_WATCH_DUE = """
local function watch_due(room, ttl, w, wx)
  if not w then return nil end
  local now = tonumber(redis.call('TIME')[1])
  if now - tonumber(wx or '0') < ttl / 4 then return nil end
  redis.call('HSET', room, 'wx', tostring(now))
  return w
end
"""

# Lua, shared by the room scripts: how long (ms) a room's keys are to live: ttl, or the room hash's own life if
# that is longer (a turn-based room in play was given a longer one, by RedisTurns, on all its keys at
# once). Every extension sets a room's keys to this, so none outlives the room hash and setting them to it never
# shortens a life: one PTTL per script, not one per key.
_LIFE = """
local function life(room, ttl)
  local left = redis.call('PTTL', room)
  local want = tonumber(ttl) * 1000
  if left >= want then return left end
  if left ~= -2 then redis.call('PEXPIRE', room, want) end
  return want
end
"""

# KEYS: room hash. ARGV: record, ttl, fixed part ('' for none), watch key.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'rec', ARGV[1], 'w', ARGV[4], 'wx', redis.call('TIME')[1])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'fix', ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: room hash, log list, recent list. ARGV: expected version, record, log entry ('' for none), message,
# channel, ttl, recent entry ('' for none), how many recent entries to keep, mode ('f': the record is all of it;
# 's': its changing part, the fixed part unchanged; 'S': changing part and a new fixed part), fixed part,
# publish command (SPUBLISH, or PUBLISH on a server without sharded channels).
# Returns 1 (written), 0 (another writer was first), 2 (mode 's' on a record without a fixed part: send it), or
# the watch key's name (written, and the watch key is due for a longer life).
COMMIT = (
    _WATCH_DUE
    + _LIFE
    + """
local f = redis.call('HMGET', KEYS[1], 'v', 'w', 'wx')
local v = f[1]
if v ~= ARGV[1] then return 0 end
if ARGV[9] == 's' and redis.call('HEXISTS', KEYS[1], 'fix') == 0 then return 2 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'rec', ARGV[2])
if ARGV[9] == 'S' then
  redis.call('HSET', KEYS[1], 'fix', ARGV[10])
elseif ARGV[9] == 'f' and redis.call('HEXISTS', KEYS[1], 'fix') == 1 then
  redis.call('HDEL', KEYS[1], 'fix')
end
local ms = life(KEYS[1], ARGV[6])
if ARGV[3] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[3]) end
redis.call('PEXPIRE', KEYS[2], ms)
if ARGV[7] ~= '' then
  redis.call('RPUSH', KEYS[3], ARGV[7])
  redis.call('LTRIM', KEYS[3], -tonumber(ARGV[8]), -1)
  redis.call('PEXPIRE', KEYS[3], ms)
end
local w = watch_due(KEYS[1], tonumber(ARGV[6]), f[2], f[3])
redis.call(ARGV[11], ARGV[5], ARGV[4])
return w or 1
"""
)

# The lobby index lives under one fixed hash tag of its own, `{lobby}`: a zset of public rooms (code -> created
# time, for order) and a hash (code -> its line). It spans rooms, so it cannot share a room's slot; one slot keeps
# each change and each read one atomic script. It is advisory: a line is shown only for a room that still exists.
# KEYS: public zset, lines hash. ARGV: code, line ('-': out of the index), time.
INDEX = """
if ARGV[2] == '-' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
"""

# KEYS: public zset, lines hash. ARGV: how many index entries to look at (newest first: a room waiting for players
# was most likely made lately). Returns code, line (or false) pairs; the caller checks the rooms still exist.
CANDIDATES = """
local codes = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, c in ipairs(codes) do
  out[#out + 1] = c
  out[#out + 1] = redis.call('HGET', KEYS[2], c) or ''
end
return out
"""

# Presence is kept per node: field "<seat id or ~spectators>|<node>" = that node's open connections, and field
# "@<node>" = until when (Redis time, ms) that node counts as alive. A node restates its counts every heartbeat,
# which moves its deadline on, so a node that dies (kill -9, no goodbye) cannot leave counts behind: once its
# deadline passed, the next presence call of any node drops its fields. The deadline lives in each room's own
# hash (not in a key per node) so the script touches only the room's slot.
# KEYS: presence hash, room hash, log list. ARGV: node, ttl, channel, node ttl (ms), mode, publish command, then
# pairs. Mode 'd': pairs = key, delta (a connection came or went). Mode 's': pairs = key, count for every key this
# node has (restates the node's truth). Publishes the totals (msgpack) when anything changed; returns
# {room version, flat totals, watch key due for a longer life or ''}.
PRESENCE = (
    _WATCH_DUE
    + _LIFE
    + """
local suffix = '|' .. ARGV[1]
local changed = false
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[5] == 'd' then
  local f = ARGV[7] .. suffix
  local n = redis.call('HINCRBY', KEYS[1], f, ARGV[8])
  if n <= 0 then redis.call('HDEL', KEYS[1], f) end
  changed = true
else
  local want = {}
  for i = 7, #ARGV, 2 do want[ARGV[i] .. suffix] = ARGV[i + 1] end
  local cur = redis.call('HGETALL', KEYS[1])
  for i = 1, #cur, 2 do
    if string.sub(cur[i], -#suffix) == suffix and want[cur[i]] ~= cur[i + 1] then
      redis.call('HDEL', KEYS[1], cur[i])
      changed = true
    end
  end
  for f, n in pairs(want) do
    if redis.call('HSETNX', KEYS[1], f, n) == 1 then changed = true end
  end
end
redis.call('HSET', KEYS[1], '@' .. ARGV[1], tostring(now + tonumber(ARGV[4])))
local all = redis.call('HGETALL', KEYS[1])
local fields = {}
for i = 1, #all, 2 do fields[all[i]] = all[i + 1] end
local counts, flat, mine = {}, {}, false
for f, n in pairs(fields) do
  if string.sub(f, 1, 1) == '@' then
    if tonumber(n) < now then redis.call('HDEL', KEYS[1], f) end
  else
    local key, owner = string.match(f, '^(.*)|([^|]*)$')
    local deadline = owner and tonumber(fields['@' .. owner] or '0') or 0
    if key ~= nil and deadline >= now then
      counts[key] = (counts[key] or 0) + tonumber(n)
      if owner == ARGV[1] then mine = true end
    else
      redis.call('HDEL', KEYS[1], f)
      changed = true
    end
  end
end
if not mine then redis.call('HDEL', KEYS[1], '@' .. ARGV[1]) end
local f = redis.call('HMGET', KEYS[2], 'v', 'w', 'wx')
local v = f[1]
local w = nil
local ms = life(KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ms)
if v then
  redis.call('PEXPIRE', KEYS[3], ms)
  w = watch_due(KEYS[2], tonumber(ARGV[2]), f[2], f[3])
end
for k, n in pairs(counts) do
  if n > 0 then
    flat[#flat + 1] = k
    flat[#flat + 1] = n
  end
end
if changed then redis.call(ARGV[6], ARGV[3], cmsgpack.pack({type = '_presence', counts = counts})) end
return {v or '0', flat, w or ''}
"""
)

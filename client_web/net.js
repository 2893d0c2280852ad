// The websocket client: JSON text frames, hello handshake, requests matched to replies, versioned
// updates applied in order (a gap asks for a snapshot), and automatic reconnection with backoff.
//
//   const net = new Net({ url, onStatus, onSnapshot, onUpdate, onPresence, onNotice, onReconnect });
//   net.connect();                       // opens, says hello, then calls onReconnect(net) (also after drops)
//   await net.request("join", {...});    // resolves with the reply's data, rejects with {code, message}
//   net.close();
//
// Status: "connecting" | "online" | "offline" (with net.retryIn seconds until the next attempt).
//
// The room's sheet file is kept by its digest (in memory and in sessionStorage, so a reload has it): `join` and
// `snapshot` tell the server which sheet this tab holds, and a snapshot that leaves the sheet out (the server's
// is the same) gets the kept one put back in before onSnapshot sees it.

import { PROTOCOL_VERSION, CLIENT_NAME, MSG } from "./protocol.js";

const BACKOFF = [250, 500, 1000, 2000, 4000, 8000];
const REQUEST_TIMEOUT = 15000;
const SHEET_KEY = "rajas.sheet"; // sessionStorage: {digest, sheet} of the last room sheet received
const SAYS_SHEET = new Set([MSG.JOIN, MSG.SNAPSHOT]); // messages that name the sheet held

function keptSheet() {
  try {
    const got = JSON.parse(sessionStorage.getItem(SHEET_KEY) || "null");
    return got && typeof got.digest === "string" && got.sheet && typeof got.sheet === "object" ? got : null;
  } catch {
    return null;
  }
}

function keepSheet(kept) {
  try { sessionStorage.setItem(SHEET_KEY, JSON.stringify(kept)); } catch { /* full or disabled: memory only */ }
}

function randomPrefix() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return a[0].toString(36) + a[1].toString(36).slice(0, 4);
}

export class RequestError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Net {
  constructor(opts) {
    this.opts = opts;
    this.url = opts.url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.prefix = randomPrefix(); // message ids are unique per seat across connections and tabs
    this.counter = 0;
    this.pending = new Map(); // id -> {resolve, reject, timer, type}
    this.ws = null;
    this.status = "offline";
    this.attempt = 0;
    this.retryIn = 0;
    this.v = null; // the last room version applied
    this.snapshotAsked = false;
    this.closed = false;
    this.sent = { total: 0 };
    this.sheet = keptSheet(); // {digest, sheet} held, or null
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  setStatus(s) {
    this.status = s;
    this.opts.onStatus?.(s, this);
  }

  connect() {
    this.closed = false;
    clearTimeout(this.retryTimer);
    this.setStatus("connecting");
    // the socket the page's first script opened (index.html) while the modules loaded, when it is still good
    const early = window.__rajasSocket;
    window.__rajasSocket = null;
    let ws;
    try {
      ws = early && early.url === this.url && early.readyState <= WebSocket.OPEN ? early : new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = async () => {
      try {
        this.server = (await this.request(MSG.HELLO, { protocol: PROTOCOL_VERSION, client: CLIENT_NAME })) || {};
      } catch (e) {
        this.opts.onFatal?.(e);
        return;
      }
      this.attempt = 0;
      this.setStatus("online");
      try {
        await this.opts.onReconnect?.(this);
      } catch (e) {
        this.opts.onFatal?.(e);
      }
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new RequestError("disconnected", "the connection dropped"));
      }
      this.pending.clear();
      if (this.closed) { this.setStatus("offline"); return; }
      if (ev.code === 1008) this.opts.onNotice?.({ code: "closed", message: ev.reason || "closed by the server" });
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
    if (ws.readyState === WebSocket.OPEN) ws.onopen();
  }

  scheduleRetry() {
    const delay = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)] * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.retryIn = Math.ceil(delay / 1000);
    this.setStatus("offline");
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // Drops the socket as a network failure would (used by the tests and the "reconnect now" button).
  drop() {
    this.ws?.close();
  }

  reconnectNow() {
    if (this.status === "offline" && !this.closed) { this.attempt = 0; this.connect(); }
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.ws?.close(1000, "bye");
  }

  request(type, fields = {}) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new RequestError("disconnected", "not connected"));
        return;
      }
      const id = this.nextId();
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError("timeout", "the server did not answer"));
      }, REQUEST_TIMEOUT);
      this.pending.set(id, { resolve, reject, timer, type });
      this.sent[type] = (this.sent[type] || 0) + 1;
      this.sent.total += 1;
      const held = SAYS_SHEET.has(type) && this.sheet && fields.sheet_digest === undefined ? { sheet_digest: this.sheet.digest } : {};
      this.ws.send(JSON.stringify({ ...fields, ...held, type, id }));
    });
  }

  receive(raw) {
    let msg;
    try { msg = JSON.parse(raw); } catch { return; }
    switch (msg.type) {
      case "reply": {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.ok) p.resolve(msg.data || {});
        else p.reject(new RequestError(msg.code, msg.message));
        return;
      }
      case "snapshot":
        if (msg.sheet && msg.sheet_digest) {
          this.sheet = { digest: msg.sheet_digest, sheet: msg.sheet };
          keepSheet(this.sheet);
        } else if (!msg.sheet && msg.sheet_digest && this.sheet?.digest === msg.sheet_digest) {
          msg.sheet = this.sheet.sheet; // left out: this tab holds it
        }
        this.v = msg.v;
        this.snapshotAsked = false;
        this.opts.onSnapshot?.(msg);
        return;
      case "update":
        if (this.v === null || msg.v <= this.v) return; // before our snapshot, or already applied
        if (msg.v !== this.v + 1) { this.askSnapshot(); return; } // missed something
        this.v = msg.v;
        this.opts.onUpdate?.(msg);
        return;
      case "presence":
        this.opts.onPresence?.(msg);
        return;
      case "notice":
        this.opts.onNotice?.(msg);
        return;
      case "chat":
      case "chat_rules":
        this.opts.onChat?.(msg);
        return;
      default:
    }
  }

  askSnapshot() {
    if (this.snapshotAsked) return;
    this.snapshotAsked = true;
    this.request(MSG.SNAPSHOT).catch(() => { this.snapshotAsked = false; });
  }

  // A new room (join) starts a new version sequence.
  resetVersion() {
    this.v = null;
    this.snapshotAsked = false;
  }
}

// conn.js - one WebSocket to the server (docs/protocol.md): requests with an id answered by a
// promise, messages the server sends unasked (state) passed to a handler, and a new connection
// after a drop, after which the page binds itself again (onopen). A table's page names its table
// in the address (/ws?table=7): the server ignores it, a proxy in front of shards sends the
// connection to the table's shard (docs/operations.md, "Shards behind nginx").

export class ServerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class Conn {
  // handlers: onmessage(msg) for messages without an id, onopen() after every (re)connection,
  // onstatus(text) for what the connection is doing ('' when all is well). table: the table this
  // connection is for (null: the lobby's).
  constructor(handlers, table = null) {
    this.h = handlers;
    this.table = table;
    this.nextId = 1;
    this.waiting = new Map();
    this.closed = false;
    this.delay = 500;
    this.waitOpen();
    this.open();
  }

  // Requests made while there is no connection wait for the next one.
  waitOpen() {
    if (this.ready && !this.isOpen) return; // still waiting for the first
    this.isOpen = false;
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
  }

  url() {
    const at = this.table !== null ? `?table=${encodeURIComponent(this.table)}` : '';
    return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${at}`;
  }

  open() {
    const ws = new WebSocket(this.url(), 'pilfer');
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.h.onstatus?.('');
      this.isOpen = true;
      this.markReady();
      this.h.onopen?.();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      const w = msg.id !== undefined ? this.waiting.get(msg.id) : undefined;
      if (w) {
        this.waiting.delete(msg.id);
        if (msg.type === 'error') w.reject(new ServerError(msg.code, msg.message));
        else w.resolve(msg);
        return;
      }
      if (msg.type === 'error') this.h.onerror?.(new ServerError(msg.code, msg.message));
      else this.h.onmessage?.(msg);
    };
    ws.onclose = () => {
      for (const w of this.waiting.values()) w.reject(new ServerError('closed', 'the connection was lost'));
      this.waiting.clear();
      if (this.closed) return;
      this.waitOpen();
      this.h.onstatus?.('Connection lost: trying again…');
      setTimeout(() => { if (!this.closed) this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  // Sends a request and resolves with its reply (rejects with a ServerError on an error reply).
  async request(msg) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  close() {
    this.closed = true;
    this.ws.close();
  }
}

// GET of the HTTP API: JSON, or text when asked.
export async function api(path, text = false) {
  const r = await fetch(path);
  if (!r.ok) {
    let msg = r.statusText;
    try { msg = (await r.json()).error || msg; } catch { /* not JSON */ }
    throw new ServerError(String(r.status), msg);
  }
  return text ? r.text() : r.json();
}

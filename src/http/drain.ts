// Stopping without dropping anyone: the listener closes, every answer from then on carries
// `Connection: close` (so clients on keep-alive connections finish their request and go
// elsewhere), and connections that stay idle are closed only after a grace period. Closing an
// idle keep-alive connection at once races with the request its client may be sending on it at
// that moment, which the client sees as a reset connection; Node's own server.close() does
// exactly that, so it is not used here.
import { Server as NetServer } from 'node:net';
import type { RequestListener, Server } from 'node:http';

export interface DrainOptions {
  /** How long an idle connection may stay before it is closed (a busy client sends within it). */
  idleGraceMs: number;
  /** How long requests in flight may take; their connections are closed after it. */
  timeoutMs: number;
}

export interface DrainResult {
  /** Connections still busy at the deadline, closed with their requests unfinished. */
  forced: number;
}

export class ConnectionDrain {
  private draining = false;

  /** The request listener, answering with `Connection: close` once the drain has begun. */
  listener(handler: RequestListener): RequestListener {
    return (request, response) => {
      if (this.draining) response.setHeader('connection', 'close');
      handler(request, response);
    };
  }

  /** Stops accepting connections and waits until every open one has ended (or the deadline). */
  async drain(server: Server, options: DrainOptions): Promise<DrainResult> {
    this.draining = true;
    if (!server.listening) return { forced: 0 };
    // net.Server's close stops accepting and reports when the last connection has ended, without
    // http.Server's immediate closing of idle connections.
    const closed = new Promise<'closed'>((resolve) => NetServer.prototype.close.call(server, () => resolve('closed')));
    // The grace timer comes due at the start of a turn of the event loop, before that turn reads
    // its sockets: a request that arrived while the thread was busy would still be unread, its
    // connection idle to look at, and closing it would cut that request. So the idle connections
    // are closed after the turn's reads (setImmediate), once such requests have begun.
    let closingIdle: NodeJS.Immediate | undefined;
    const grace = setTimeout(() => (closingIdle = setImmediate(() => server.closeIdleConnections())), options.idleGraceMs);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), Math.max(options.timeoutMs, options.idleGraceMs))));
    const outcome = await Promise.race([closed, deadline]);
    clearTimeout(grace);
    clearImmediate(closingIdle);
    clearTimeout(timer);
    if (outcome === 'closed') return { forced: 0 };
    const forced = await new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count ?? 0)));
    server.closeAllConnections();
    await closed;
    return { forced };
  }
}

// Keep-alive HTTP requests to the servers, one connection pool per server, as a load balancer or a
// busy API client holds them. A request that finds its pooled connection closed by the server at
// the same moment (the keep-alive race) is sent once more on a new one, as HTTP clients do; that is
// counted, so it cannot hide a server that drops connections.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Outgoing {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** JSON body (sent with content-type application/json). */
  json?: unknown;
}

/** A request that got no HTTP answer: the socket error code (ECONNREFUSED, ECONNRESET…) or "timeout". */
export class NoAnswer extends Error {
  constructor(readonly code: string) {
    super(`no answer: ${code}`);
  }
}

const TIMEOUT_MS = 30_000;

export class HttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  /** Requests sent again after their reused connection was closed under them. */
  staleConnectionRetries = 0;

  constructor(baseUrl: string, connections: number) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    // fifo keeps every pooled connection in use, so few sit idle long enough for the server's
    // keep-alive timeout to close them.
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, scheduling: 'fifo' });
  }

  async send(outgoing: Outgoing): Promise<Answer> {
    try {
      return await this.once(outgoing);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      this.staleConnectionRetries++;
      return this.once(outgoing);
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private once({ method, path, headers = {}, json }: Outgoing): Promise<Answer> {
    const body = json === undefined ? undefined : JSON.stringify(json);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          agent: this.agent,
          host: this.host,
          port: this.port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
          res.on('error', (error: NodeJS.ErrnoException) => reject(new NoAnswer(error.code ?? error.message)));
        },
      );
      req.setTimeout(TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
      req.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? error.message;
        reject(req.reusedSocket && code === 'ECONNRESET' ? new StaleConnection() : new NoAnswer(code));
      });
      req.end(body);
    });
  }
}

class StaleConnection extends Error {}

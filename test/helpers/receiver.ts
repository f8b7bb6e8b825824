// A webhook receiver (or an affiliate's tracker taking postbacks) on loopback for tests: records every request it gets and answers with the
// statuses it is told to (then 200), as a customer's endpoint would; or, told to trickle, answers
// 200 and then its body a byte a second, as a receiver holding its sender would.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createHmac } from 'node:crypto';

export interface Received {
  method: string;
  /** The path and query as requested. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer the next requests with, in order; 200 after them. */
  answers: number[];
  /** While true, requests are answered 200 at once, then a byte a second (for a minute at most). */
  trickling: boolean;
  /** While set, each request is answered once it settles (a receiver still working on it). */
  held?: Promise<unknown>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (receiver.trickling) return trickle(response);
      const answer = () => response.writeHead(answers.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
      if (receiver.held) void receiver.held.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    trickling: false,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}

function trickle(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' }).write('.');
  let sent = 1;
  const timer = setInterval(() => (++sent < 60 ? response.write('.') : response.end('.')), 1000);
  response.on('close', () => clearInterval(timer));
}

/**
 * What a receiver does with a request, following the Standard Webhooks convention (written here
 * from the convention, not taken from the service): the timestamp within 5 minutes of `now`, and
 * one of the v1 signatures equal to base64(HMAC-SHA256(secret bytes, "id.timestamp.body")).
 */
export function verify(received: Received, secret: string, nowSeconds: number): boolean {
  const id = String(received.headers['webhook-id']);
  const timestamp = Number(received.headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 5 * 60) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64');
  return String(received.headers['webhook-signature'])
    .split(' ')
    .some((candidate) => candidate === `v1,${expected}`);
}

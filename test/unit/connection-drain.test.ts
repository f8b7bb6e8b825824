import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { ConnectionDrain, type DrainResult } from '../../src/http/drain.js';

const REQUEST = 'GET / HTTP/1.1\r\nHost: drain.test\r\n\r\n';

const answerOk: RequestListener = (_request, response) => response.end('ok');

async function listening(handler: RequestListener = answerOk): Promise<{ server: Server; drain: ConnectionDrain; port: number }> {
  const drain = new ConnectionDrain();
  const server = createServer(drain.listener(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, drain, port: (server.address() as AddressInfo).port };
}

/** A kept-alive connection that has had one answer, collecting what the server sends next. */
async function answeredOnce(port: number): Promise<{ socket: Socket; received: () => string; ended: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const ended = new Promise<string>((resolve) => {
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
  });
  socket.write(REQUEST);
  while (!received.includes('\r\n\r\nok')) await new Promise((resolve) => setTimeout(resolve, 5));
  received = '';
  return { socket, received: () => received, ended };
}

function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

test('a request that arrives while the server is busy past the idle grace is answered (with Connection: close), not cut with its connection', async () => {
  let busyBegins: (() => void) | undefined;
  const { server, drain, port } = await listening((request, response) => {
    if (request.url === '/busy') {
      // The drain begins while this request keeps the server's thread busy past the grace, and
      // the other client's next request arrives meanwhile: it waits unread in its socket when
      // the grace timer comes due.
      busyBegins?.();
      blockEventLoop(100);
    }
    answerOk(request, response);
  });
  const waiting = await answeredOnce(port);
  const busy = await answeredOnce(port);
  let drained: Promise<DrainResult> | undefined;
  busyBegins = () => {
    drained = drain.drain(server, { idleGraceMs: 20, timeoutMs: 5000 });
    waiting.socket.write(REQUEST);
  };
  busy.socket.write(REQUEST.replace('GET / ', 'GET /busy '));
  assert.equal(await waiting.ended, 'closed');
  assert.match(waiting.received(), /^HTTP\/1\.1 200 OK\r\n/, `the request was cut: received ${JSON.stringify(waiting.received())}`);
  assert.match(waiting.received(), /\r\nconnection: close\r\n/i);
  assert.equal(await busy.ended, 'closed');
  assert.deepEqual(await drained, { forced: 0 });
});

test('a connection that stays idle through the grace is closed, and the drain ends without forcing anything', async () => {
  const { server, drain, port } = await listening();
  const client = await answeredOnce(port);
  const started = Date.now();
  const drained = await drain.drain(server, { idleGraceMs: 50, timeoutMs: 5000 });
  assert.deepEqual(drained, { forced: 0 });
  assert.ok(Date.now() - started >= 45, 'the idle connection was closed before its grace ended');
  assert.equal(await client.ended, 'closed');
  assert.equal(client.received(), '');
});

test('new connections are refused once the drain has begun', async () => {
  const { server, drain, port } = await listening();
  const client = await answeredOnce(port);
  const drained = drain.drain(server, { idleGraceMs: 20, timeoutMs: 5000 });
  const refused = connect(port, '127.0.0.1');
  const [error] = (await once(refused, 'error').catch((e: unknown) => [e])) as [NodeJS.ErrnoException];
  assert.equal(error.code, 'ECONNREFUSED');
  client.socket.destroy();
  assert.deepEqual(await drained, { forced: 0 });
});

// A client that never finishes its request is not held forever: unfinished headers, or a body
// that stops arriving, answer 408 in the service's error shape and the connection is closed
// (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS). Over a real socket: these never reach a route.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startHarness, type Harness } from '../helpers/harness.js';
import { newKey } from '../helpers/api.js';

let h: Harness;
let port: number;
let key: string;

before(async () => {
  h = await startHarness({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' });
  key = (await newKey(h, 'aff-1')).key;
  await h.service.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.service.app.server.address() as { port: number }).port;
});
after(async () => {
  await h.close();
});

/** Sends `text` and never more; answers what the server wrote before it closed the connection. */
function sendAndWait(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    // Bounded only so a regression fails instead of hanging: the server is expected well before.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after 10 s; received: ${received}`));
    }, 10_000).unref();
  });
}

function bodyOf(response: string): { statusCode: number; code: string } {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { statusCode: number; code: string };
}

test('headers that never finish: 408 request_timeout, connection closed', async () => {
  const response = await sendAndWait('GET /affiliate/brands HTTP/1.1\r\nHost: go.test\r\nx-api-key: afn_');
  assert.match(response, /^HTTP\/1\.1 408 RequestTimeout\r\n/);
  assert.equal(bodyOf(response).code, 'request_timeout');
});

test('a body that stops arriving: 408 request_timeout, connection closed', async () => {
  const response = await sendAndWait(`POST /affiliate/shortener/url HTTP/1.1\r\nHost: go.test\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"organizationId":`);
  assert.match(response, /^HTTP\/1\.1 408 RequestTimeout\r\n/);
  assert.equal(bodyOf(response).statusCode, 408);
});

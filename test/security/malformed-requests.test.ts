// Requests that are malformed below the API's own rules still get the service's error shape: a
// body nested absurdly deep (which once overflowed the stack while its error was described), and
// what Node's HTTP parser refuses before any handler runs (a real socket, since an injected
// request never reaches the parser).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../helpers/harness.js';
import { assertError } from '../helpers/api.js';

let h: Harness;
let port: number;

before(async () => {
  h = await startHarness();
  await h.service.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.service.app.server.address() as AddressInfo).port;
});
after(async () => {
  await h.close();
});

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { statusCode: number; code: string; success: boolean; message: string };

describe('bodies nested too deep', () => {
  for (const depth of [100, 100_000]) {
    test(`a JSON body nested ${depth.toLocaleString('en')} levels deep → 400, never 500`, async () => {
      const payload = '['.repeat(depth) + ']'.repeat(depth);
      const res = await h.request({ method: 'POST', url: '/affiliate/shortener/url', headers: { 'x-api-key': h.world.keys.aff1, 'content-type': 'application/json' }, payload });
      const error = assertError(res, 400);
      assert.match(error.message, /nests|deep|JSON/i, error.message);
    });
  }

  test('an object nested deep in a field → 400 invalid_json', async () => {
    let value: unknown = 'x';
    for (let i = 0; i < 200; i++) value = { a: value };
    const res = await h.request({ method: 'POST', url: '/affiliate/shortener/url', headers: { 'x-api-key': h.world.keys.aff1 }, payload: { organizationId: '11111111-1111-4111-8111-111111111111', type: 'Home', mdasc: value } });
    assertError(res, 400, 'invalid_json');
  });
});

describe("what Node's HTTP parser refuses", () => {
  test('a control character in the request line → 400 in the service error shape', async () => {
    const answer = await raw('GET /a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.deepEqual((({ statusCode, success }) => ({ statusCode, success }))(bodyOf(answer)), { statusCode: 400, success: false });
  });

  test('Content-Length together with Transfer-Encoding → 400 in the service error shape', async () => {
    const answer = await raw('POST /affiliate/shortener/url HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(bodyOf(answer).code, 'bad_request');
  });

  test('headers over the size limit → 431 in the service error shape', async () => {
    const answer = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.equal(bodyOf(answer).code, 'headers_too_large');
  });
});

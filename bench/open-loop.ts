// An open-loop load: requests sent at a fixed rate whatever the server does, each one's latency
// taken from the moment it was meant to be sent. A closed loop (wrk) sends the next request only
// when an answer arrives, so a stalled server is asked less and its stall hides in a few slow
// samples (coordinated omission); here a request the client could not send on time because every
// connection was busy waits in the client's queue, and that wait is counted.
//
//   npx tsx bench/open-loop.ts --url http://127.0.0.1:3901 --rate 5000 --seconds 10 \
//     --paths FILE [--warmup 2] [--connections 50] [--method GET] [--body TEXT] [--headers "a: b|c: d"]
//
// Prints one JSON line: sent, answered, errors (non-2xx/3xx and socket errors), late (answered
// more than 2 s after their time, or never), the warm-up's answers, achieved rate and latency percentiles in ms. As in
// bench/wrk-paths.lua, each request has an X-Forwarded-For of its own (every visitor new) and
// "{rand}" in the body becomes a random number.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

export interface OpenLoopResult {
  rate: number;
  sent: number;
  answered: number;
  errors: number;
  late: number;
  /** Answers of the warm-up with a status below 400 (its clicks are stored too). */
  warmupAnswered: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

const LATE_MS = 2000;

function headerPairs(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text.split('|')) {
    const match = /^\s*([^:]+):\s*(.*)$/.exec(pair);
    if (match) headers[match[1]!.toLowerCase()] = match[2]!;
  }
  return headers;
}

const percentile = (sorted: Float64Array, q: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string', default: '10' },
      // Sent at the same rate first and not recorded: connections, JIT, caches.
      warmup: { type: 'string', default: '2' },
      paths: { type: 'string' },
      connections: { type: 'string', default: '50' },
      method: { type: 'string', default: 'GET' },
      body: { type: 'string', default: '' },
      headers: { type: 'string', default: '' },
      // The first octet of every address sent (see bench/wrk-paths.lua).
      'address-block': { type: 'string', default: '10' },
    },
  });
  if (!values.url || !values.rate || !values.paths) throw new Error('--url, --rate and --paths are required');
  const rate = Number(values.rate);
  const warmups = Math.round(rate * Number(values.warmup));
  const total = warmups + Math.round(rate * Number(values.seconds));
  const paths = readFileSync(values.paths, 'utf8').split('\n').filter(Boolean);
  const headers = headerPairs(values.headers);
  const method = values.method as 'GET' | 'POST';
  // Generous client timeouts: a request answered late is counted as late, not dropped.
  const pool = new Pool(values.url, { connections: Number(values.connections), pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });

  const latencies = new Float64Array(total - warmups);
  let answered = 0;
  let errors = 0;
  let late = 0;
  let settled = 0;
  let warmupAnswered = 0;
  let visitor = Math.floor(Math.random() * 2 ** 24);
  const block = Number(values['address-block']);
  const address = (n: number) => `${block}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

  const send = (intended: number, recorded: boolean) => {
    const path = paths[Math.floor(Math.random() * paths.length)]!;
    const body = values.body ? values.body.replace('{rand}', String(Math.floor(Math.random() * 1e12))) : undefined;
    pool.request({ origin: values.url, path, method, body, headers: { ...headers, 'x-forwarded-for': address(visitor++) } }).then(
      async (response) => {
        await response.body.dump();
        settled++;
        if (!recorded) {
          if (response.statusCode < 400) warmupAnswered++;
          return;
        }
        const latency = performance.now() - intended;
        latencies[answered++] = latency;
        if (response.statusCode >= 400) errors++;
        if (latency > LATE_MS) late++;
      },
      () => {
        settled++;
        if (recorded) errors++;
      },
    );
  };

  const period = 1000 / rate;
  const start = performance.now() + 10;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * period <= now) send(start + next * period, next++ >= warmups);
      // setImmediate, not a timer: sends within microseconds of their time (this core is the load generator's alone).
      if (next < total) setImmediate(tick);
      else resolve();
    };
    tick();
  });
  const sentAt = performance.now();
  const measuredFrom = start + warmups * period;
  // What is still unanswered 30 s after the last send is late and never answered.
  while (settled < total && performance.now() - sentAt < 30_000) await new Promise((r) => setTimeout(r, 20));
  late += total - settled;
  const seconds = (sentAt - measuredFrom) / 1000;
  const sorted = latencies.subarray(0, answered).sort();
  const result: OpenLoopResult = {
    rate: Math.round((total - warmups) / Math.max(seconds, 1e-3)),
    sent: total - warmups,
    answered,
    errors,
    late,
    warmupAnswered,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    p999: percentile(sorted, 0.999),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
  await pool.close().catch(() => {});
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();

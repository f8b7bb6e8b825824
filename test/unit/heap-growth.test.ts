// limitHeapGrowth bounds the garbage a busy heap holds: a process that keeps batches of objects
// for a while (as the serving thread does under load) peaks far lower with it than with V8's own choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { childScriptOutput } from '../helpers/child-script.js';

const HEAP_GROWTH = fileURLToPath(new URL('../../src/lib/heap-growth.ts', import.meta.url));

/** The largest heap of a child that churns medium-lived objects (400 batches of 5,000), in MB. */
function peakHeapMb(percent: number): number {
  const script = `
    const { limitHeapGrowth } = await import(${JSON.stringify(HEAP_GROWTH)});
    const { getHeapStatistics } = await import('node:v8');
    limitHeapGrowth(${percent});
    const kept = [];
    let peak = 0;
    // A fixed amount of work, not a fixed time: on a busy machine a timed loop allocated less, and
    // V8's own growth then stayed lower too.
    for (let round = 0; round < 400; round++) {
      const batch = [];
      for (let i = 0; i < 5000; i++) batch.push({ id: 'click-' + Math.random(), at: new Date().toISOString(), n: i });
      kept.push(batch);
      if (kept.length > 20) kept.shift();
      peak = Math.max(peak, getHeapStatistics().total_heap_size);
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(String(peak / 1048576));`;
  return Number(childScriptOutput(script));
}

test('a growth limit keeps a busy heap well below what V8 lets it reach by itself', (t) => {
  const own = peakHeapMb(0);
  const limited = peakHeapMb(20);
  t.diagnostic(`peak heap: ${own.toFixed(0)} MB with V8's own growth, ${limited.toFixed(0)} MB limited to 20 %`);
  assert.ok(limited < own * 0.8, `limited to 20 %: ${limited.toFixed(0)} MB at most, against ${own.toFixed(0)} MB with V8's own growth`);
});

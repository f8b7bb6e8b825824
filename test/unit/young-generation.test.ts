// capYoungGeneration keeps a busy thread's new space at its cap, where V8 alone doubles it to 32 MB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { childScriptOutput } from '../helpers/child-script.js';

const YOUNG_GENERATION = fileURLToPath(new URL('../../src/lib/young-generation.ts', import.meta.url));

/** The largest new space of a child that allocates short- and medium-lived objects, in MB. */
function peakNewSpaceMb(capMb: number, { withWorker = false } = {}): number {
  const script = `
    const { capYoungGeneration, keepYoungGenerationCap, youngGenerationBytes } = await import(${JSON.stringify(YOUNG_GENERATION)});
    capYoungGeneration(${capMb});
    const { Worker } = await import('node:worker_threads');
    // As src/storage/worker-rpc.ts starts the storage workers (setting up a heap resets V8's growth factor).
    const startWorker = () => new Promise((resolve) => {
      const worker = new Worker('import("node:worker_threads").then((threads) => threads.parentPort.postMessage(1))', { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      worker.once('online', keepYoungGenerationCap);
      worker.once('message', () => void worker.terminate().then(resolve));
    });
    let kept = [];
    let peak = 0;
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 100000; i++) {
        const click = { id: 'click-' + i, at: Date.now(), n: i };
        if (i % 50 === 0) kept.push(click);
        if (kept.length > 20000) kept = [];
      }
      peak = Math.max(peak, youngGenerationBytes());
      // Once the new space is at its cap: a storage worker starts, as the read worker does on the first list.
      if (${withWorker} && round === 10) await startWorker();
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(String(peak / 1048576));`;
  return Number(childScriptOutput(script));
}

test('a capped young generation stays at its cap under allocation that grows an uncapped one past it', (t) => {
  const own = peakNewSpaceMb(0);
  const capped = peakNewSpaceMb(8);
  t.diagnostic(`peak new space: ${own} MB with V8's own limit, ${capped} MB capped at 8`);
  assert.ok(own > 8, `V8's own limit let it grow to ${own} MB`);
  assert.ok(capped <= 8, `capped at 8 MB, it reached ${capped} MB`);
});

test('a worker thread started once the cap is reached does not lift it, the cap kept as the storage workers start', (t) => {
  const capped = peakNewSpaceMb(8, { withWorker: true });
  t.diagnostic(`peak new space with a worker started at the cap: ${capped} MB`);
  assert.ok(capped <= 8, `capped at 8 MB with a worker started later, it reached ${capped} MB`);
});

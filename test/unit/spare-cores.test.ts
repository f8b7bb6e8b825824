// The click writer sizes its rollup work by the cores the rest of the process leaves unused: what
// the other threads used is the process's CPU time less the writer's own, over the wall time.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { SpareCores } from '../../src/lib/spare-cores.js';

/** A process whose CPU time and clock the test moves by hand. */
function fakeProcess(cores: number) {
  const state = { cpuMicros: 0, nowMs: 0 };
  const spare = new SpareCores({ cores, cpuMicros: () => state.cpuMicros, nowMs: () => state.nowMs });
  return { state, spare };
}

describe('SpareCores', () => {
  test('an idle process leaves every core spare', () => {
    const { state, spare } = fakeProcess(2);
    state.nowMs += 1000;
    assert.equal(spare.read(), 2);
  });

  test('other threads busy for a whole core leave the rest', () => {
    const { state, spare } = fakeProcess(2);
    state.nowMs += 1000;
    state.cpuMicros += 1_000_000;
    assert.equal(spare.read(), 1);
  });

  test("the calling thread's own work is not counted against the spare cores", () => {
    const { state, spare } = fakeProcess(1);
    state.nowMs += 100;
    state.cpuMicros += 50_000 + 20_000;
    spare.worked(50);
    assert.ok(Math.abs(spare.read() - 0.8) < 1e-9);
  });

  test('each reading covers only the time since the one before', () => {
    const { state, spare } = fakeProcess(1);
    state.nowMs += 100;
    state.cpuMicros += 100_000;
    assert.equal(spare.read(), 0, 'busy');
    state.nowMs += 100;
    assert.equal(spare.read(), 1, 'idle again');
  });

  test('never below none nor above the cores, whatever the readings', () => {
    const { state, spare } = fakeProcess(1);
    state.nowMs += 10;
    state.cpuMicros += 1_000_000;
    assert.equal(spare.read(), 0);
    state.nowMs += 10;
    spare.worked(500);
    assert.equal(spare.read(), 1);
    assert.equal(spare.read(), 1, 'no time passed');
  });

  test("where the thread's own CPU time can be read, that is what is set apart, not the time it reports", () => {
    // A writer that spent 50 ms on a step but got the core for only 20 of them (the serving thread
    // had it the rest): the other threads used 60 ms of 100, so 0.4 of the core is spare, not 0.9.
    const state = { cpuMicros: 0, threadMicros: 0, nowMs: 0 };
    const spare = new SpareCores({ cores: 1, cpuMicros: () => state.cpuMicros, threadCpuMicros: () => state.threadMicros, nowMs: () => state.nowMs });
    state.nowMs += 100;
    state.cpuMicros += 60_000 + 20_000;
    state.threadMicros += 20_000;
    spare.worked(50);
    assert.ok(Math.abs(spare.read() - 0.4) < 1e-9);
  });

  test("on this machine, the calling thread's own busy time leaves the cores spare", { skip: process.platform !== 'linux' && 'reads /proc/thread-self' }, () => {
    const cores = availableParallelism();
    const spare = new SpareCores();
    const until = performance.now() + 300;
    while (performance.now() < until); // the calling thread busy, nothing reported
    assert.ok(spare.read() > cores - 0.5, 'its own CPU time was read, not taken for another thread');
  });
});

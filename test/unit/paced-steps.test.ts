// Background steps (rollups) wait while their duty says the cores are needed elsewhere, and run
// again as soon as it allows them, or once they have waited too long.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runPaced } from '../../src/storage/paced-steps.js';

/** Steps that always find work (they handle all they are given), counted. */
function counting() {
  const state = { steps: 0 };
  return { state, step: (limit: number) => (state.steps++, limit) };
}

test('a duty of 0 puts steps off; a duty above 0 lets them run', async () => {
  const { state, step } = counting();
  let duty = 0;
  const steps = runPaced(step, { firstStep: 10, targetMs: 1, maxStep: 10, duty: () => duty, idleMs: 5, maxDeferMs: 60_000 });
  try {
    await sleep(100);
    assert.equal(state.steps, 0, 'no step while the cores are needed');
    duty = 0.5;
    await sleep(100);
    assert.ok(state.steps > 0, 'steps once the cores are spare');
  } finally {
    await steps.stop();
  }
});

test('steps put off for longer than maxDeferMs run anyway, one at a time', async () => {
  const { state, step } = counting();
  const steps = runPaced(step, { firstStep: 10, targetMs: 1, maxStep: 10, duty: () => 0, idleMs: 5, maxDeferMs: 50 });
  const started = performance.now();
  try {
    await sleep(20);
    assert.equal(state.steps, 0);
    await sleep(200);
    const most = Math.floor((performance.now() - started) / 50);
    assert.ok(state.steps >= 1 && state.steps <= most, `at most one step per 50 ms put off (${state.steps}, at most ${most})`);
  } finally {
    await steps.stop();
  }
});

test('a fixed duty runs steps without waiting', async () => {
  const { state, step } = counting();
  const steps = runPaced(step, { firstStep: 10, targetMs: 1, maxStep: 10, duty: 0.5, idleMs: 1_000 });
  try {
    await sleep(50);
    assert.ok(state.steps > 1);
  } finally {
    await steps.stop();
  }
});

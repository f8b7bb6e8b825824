// Answers per user agent are remembered for ordinary agents only, and for a bounded number of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rememberPerAgent } from '../../src/lib/agent-memo.js';

test('an ordinary agent is judged once; a made-up long one every time; past 10,000 agents all are forgotten', () => {
  const judged: string[] = [];
  const length = rememberPerAgent((agent) => (judged.push(agent), agent.length));
  const browser = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0';
  assert.equal(length(browser), browser.length);
  assert.equal(length(browser), browser.length);
  assert.equal(judged.length, 1, 'remembered');
  const long = `${browser} ${'x'.repeat(600)}`;
  length(long);
  length(long);
  assert.equal(judged.length, 3, 'a long agent is not remembered');
  for (let i = 0; i < 10_000; i++) length(`agent ${i}`);
  judged.length = 0;
  length(browser);
  assert.deepEqual(judged, [browser], 'judged again once the memo was full and started afresh');
});

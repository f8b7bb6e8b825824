// Background threads run below the serving thread (BACKGROUND_NICE): on a core they share, the
// serving thread's requests do not wait behind the click writer's or V8's helpers' time slices.
// Read from Linux as an operator would (`ps -L`): each thread's nice value in /proc.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../helpers/processes.js';
import { pollUntil } from '../helpers/wait.js';

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'affnet-priority-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Each thread's nice value (field 19 of its stat line; the name before it is in parentheses). */
function niceOfThreads(pid: number): Map<number, number> {
  const nice = new Map<number, number>();
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      nice.set(Number(entry), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nice;
}

const linux = process.platform === 'linux';

test('with BACKGROUND_NICE=7 every thread but the serving one runs 7 steps lower; the serving thread keeps its priority', { skip: !linux && 'per-thread priorities are Linux only' }, async () => {
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'nice.sqlite')}`, BACKGROUND_NICE: '7', REDIS_URL: '' });
  try {
    const pid = server.child.pid!;
    const threads = await pollUntil(
      async () => niceOfThreads(pid),
      (nice) => [...nice].every(([id, value]) => (id === pid ? value === 0 : value === 7)),
      { timeoutMs: 5000 },
    );
    assert.equal(threads.get(pid), 0, 'the serving thread keeps the priority it was started with');
    const background = [...threads].filter(([id]) => id !== pid);
    // V8's helpers, the loader's thread and the click writer at least.
    assert.ok(background.length >= 5, `background threads: ${background.length}`);
    assert.deepEqual(
      background.filter(([, value]) => value !== 7),
      [],
      'every background thread at nice 7',
    );
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('with BACKGROUND_NICE=0 every thread keeps the priority the service was started with', { skip: !linux && 'per-thread priorities are Linux only' }, async () => {
  const server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'same.sqlite')}`, BACKGROUND_NICE: '0', REDIS_URL: '' });
  try {
    const threads = niceOfThreads(server.child.pid!);
    assert.ok(threads.size >= 6, `threads: ${threads.size}`);
    assert.deepEqual([...threads.values()].filter((value) => value !== 0), []);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

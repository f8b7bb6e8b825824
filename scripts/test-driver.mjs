// Runs test files in the order given (node --test sorts them by name), so scripts/run-tests.mjs
// can start the longest first: the run then doesn't end with one long file running alone.
// Usage: node --import tsx scripts/test-driver.mjs DURATIONS_FILE FILE...; prints TAP, writes
// each file's time (scripts/file-durations.mjs) to DURATIONS_FILE, exits 1 on any failure.
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import fileDurations from './file-durations.mjs';

const [durations, ...files] = process.argv.slice(2);
// Each test file runs in its own process with this one's flags (--import tsx).
const stream = run({ files, concurrency: 2 });
stream.on('test:fail', (data) => {
  if (!data.todo && !data.skip) process.exitCode = 1;
});
const toTap = new PassThrough({ objectMode: true });
const toDurations = new PassThrough({ objectMode: true });
stream.pipe(toTap);
stream.pipe(toDurations);
toTap.compose(tap).pipe(process.stdout);
toDurations.compose(fileDurations).pipe(createWriteStream(durations));

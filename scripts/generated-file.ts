// A file the project generates and keeps in the repository: written, or with `--check` (which
// npm test runs) compared with the committed one, failing and naming the command that writes it
// when they differ.
import { readFileSync, writeFileSync } from 'node:fs';

/** Writes `text` to `path`; with `--check`, writes nothing and sets exit code 1 unless the committed file is `text`. */
export function keepGenerated(path: string, text: string, command: string): void {
  if (!process.argv.includes('--check')) {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(path, 'utf8');
  } catch {
    // missing: differs
  }
  if (committed === text) console.log(`${path}: up to date`);
  else {
    console.error(`${path} is out of date: run \`${command}\` and commit the result`);
    process.exitCode = 1;
  }
}

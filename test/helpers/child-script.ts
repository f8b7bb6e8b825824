// Measurements that need a process of their own (a heap nothing else has touched, V8 flags of its
// own): the script runs as an ES module in a fresh node, TypeScript imports resolved through tsx.
import { execFileSync } from 'node:child_process';

/** What `script` wrote to stdout; `nodeArgs` go before it (`--expose-gc`). Throws if it failed. */
export function childScriptOutput(script: string, nodeArgs: readonly string[] = []): string {
  return execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
}

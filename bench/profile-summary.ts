// npx tsx bench/profile-summary.ts <file.cpuprofile> [top]
//
// Self time per function (and per file) of a V8 CPU profile, the heaviest first: what
// `node --cpu-prof` recorded during a benchmark run (npm run bench -- --profile DIR). Then the
// thread's longest busy stretches (no idle sample between) and its longest gaps between samples
// (the thread not running: a collection, another thread on its core, the host): where a
// fixed-rate tail can come from, which self time alone does not show.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Time per sample: each sample lasts until the next one (timeDeltas are the gaps before each).
const byNode = new Map<number, number>();
profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
const total = [...byNode.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/').replace(process.cwd() + '/', '');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const time = byNode.get(node.id) ?? 0;
  if (time === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = shortUrl(url);
  const name = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
  const fileKey = where.startsWith('~/') ? where.split('/').slice(0, where.startsWith('~/@') ? 3 : 2).join('/') : where || '(native)';
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + time);
}

const table = (title: string, rows: Map<string, number>, n: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, time] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    process.stdout.write(`${((100 * time) / total).toFixed(1).padStart(5)} %  ${name}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
table('Self time by function', byFunction, top);
table('Self time by file or package', byFile, 20);

// Sample times: each sample is taken timeDeltas[i] after the one before it.
let clock = (profile as Profile & { startTime: number }).startTime;
const sampledAt = profile.timeDeltas.map((delta) => (clock += delta));
const start = sampledAt[0] ?? 0;
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const frameOf = (id: number) => {
  const { functionName, url, lineNumber } = nodeById.get(id)!.callFrame;
  return `${functionName || '(anonymous)'} ${shortUrl(url) ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
};
const stretches: Array<{ at: number; ms: number; frames: Map<string, number> }> = [];
let open: { at: number; frames: Map<string, number> } | undefined;
profile.samples.forEach((id, i) => {
  const frame = frameOf(id);
  if (frame === '(idle)') {
    if (open) stretches.push({ ...open, ms: (sampledAt[i]! - open.at) / 1000 });
    open = undefined;
    return;
  }
  open ??= { at: sampledAt[i]!, frames: new Map() };
  open.frames.set(frame, (open.frames.get(frame) ?? 0) + 1);
});
process.stdout.write('\nLongest busy stretches (s from the start, ms, most sampled functions)\n');
for (const { at, ms, frames } of stretches.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  const heaviest = [...frames].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, n]) => `${name} ×${n}`);
  process.stdout.write(`${((at - start) / 1e6).toFixed(2).padStart(8)}  ${ms.toFixed(1).padStart(7)}  ${heaviest.join(', ')}\n`);
}
process.stdout.write('\nLongest gaps between samples (s from the start, ms, the samples either side)\n');
const gaps = profile.timeDeltas.map((delta, i) => ({ i, delta })).filter(({ i }) => i > 0);
for (const { i, delta } of gaps.sort((a, b) => b.delta - a.delta).slice(0, 10)) {
  process.stdout.write(`${((sampledAt[i]! - start) / 1e6).toFixed(2).padStart(8)}  ${(delta / 1000).toFixed(1).padStart(7)}  ${frameOf(profile.samples[i - 1]!)} → ${frameOf(profile.samples[i]!)}\n`);
}

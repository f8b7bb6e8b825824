// A soak phase as Markdown: the requests by kind and status with latencies, the 5xx and when they
// came (against the outage windows), clicks and orders the load was told about against what was
// stored, each server's memory and file descriptors, what /readyz and the logs said, and the
// verdicts.
import { cpus, totalmem } from 'node:os';
import { REQUEST_KINDS, type RequestKind } from './load.js';
import type { PhaseResult } from './phase.js';
import { OUTAGE_GRACE_MS, outageOf, verdicts } from './checks.js';
import { growthPercent } from './process-stats.js';

/** "a ×3, b ×1", most frequent first. */
function countBy(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([value, n]) => `${value} ×${thousands(n)}`).join(', ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const thousands = (n: number) => n.toLocaleString('en-US');

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const KIND_NAMES: Record<RequestKind, string> = { redirect: 'redirects', list: 'list reads', create: 'link creation', conversion: 'conversions' };

function requestTable(result: PhaseResult): string[] {
  const rows = ['| kind | requests | answers by status | no answer | p50 ms | p99 ms | max ms |', '|---|---|---|---|---|---|---|'];
  let total = 0;
  for (const kind of REQUEST_KINDS) {
    const { statuses, unanswered, latenciesMs } = result.load.tally[kind];
    const answered = Object.values(statuses).reduce((a, b) => a + b, 0);
    const lost = Object.values(unanswered).reduce((a, b) => a + b, 0);
    total += answered + lost;
    const byStatus = Object.entries(statuses).map(([status, n]) => `${status}: ${thousands(n)}`).join(', ');
    const noAnswer = lost ? Object.entries(unanswered).map(([code, n]) => `${code}: ${n}`).join(', ') : '0';
    const max = latenciesMs.reduce((a, b) => Math.max(a, b), 0);
    rows.push(`| ${KIND_NAMES[kind]} | ${thousands(answered + lost)} | ${byStatus} | ${noAnswer} | ${percentile(latenciesMs, 50).toFixed(1)} | ${percentile(latenciesMs, 99).toFixed(1)} | ${max.toFixed(0)} |`);
  }
  rows.push(`| **all** | **${thousands(total)}** (${Math.round(total / (result.durationMs / 1000))}/s) | | | | | |`);
  return rows;
}

/** Share of each kind answered below 500 in the whole seconds from `fromMs` to `toMs`. */
function servedDuring(result: PhaseResult, fromMs: number, toMs: number): string {
  return REQUEST_KINDS.map((kind) => {
    const { okPerSecond, failedPerSecond } = result.load.tally[kind];
    let ok = 0;
    let failed = 0;
    for (let second = Math.ceil(fromMs / 1000); second < Math.floor(toMs / 1000); second++) {
      ok += okPerSecond[second] ?? 0;
      failed += failedPerSecond[second] ?? 0;
    }
    return `${KIND_NAMES[kind]} ${ok + failed ? Math.round((100 * ok) / (ok + failed)) : '—'} % served (${ok} of ${ok + failed})`;
  }).join(', ');
}

function serverErrorLines(result: PhaseResult): string[] {
  const errors = result.load.serverErrors;
  if (errors.length === 0 && result.outages.length === 0) return ['5xx: none.'];
  const lines: string[] = [`5xx: ${thousands(errors.length)} in all.`];
  for (const window of result.outages) {
    const inside = errors.filter((e) => outageOf(e, result.outages) === window);
    const byKind = REQUEST_KINDS.map((k) => [k, inside.filter((e) => e.kind === k).length] as const).filter(([, n]) => n > 0);
    const codes = countBy(inside.map((e) => e.code ?? (e.method === 'HEAD' ? 'no body (HEAD)' : `no code (${KIND_NAMES[e.kind]}: ${JSON.stringify(e.body ?? '')})`)));
    const span = inside.length ? `, answered from ${seconds(inside[0]!.atMs)} to ${seconds(inside.at(-1)!.atMs)} (last one ${seconds(inside.at(-1)!.atMs - window.endMs)} after the restore)` : '';
    lines.push(
      `- ${window.store} cut ${seconds(window.startMs)} → ${seconds(window.endMs)}: ${thousands(inside.length)} × 503${inside.length ? ` (${byKind.map(([k, n]) => `${KIND_NAMES[k]} ${thousands(n)}`).join(', ')}; ${codes})` : ''}${span}`,
    );
  }
  for (const window of result.outages) lines.push(`  - while ${window.store} was cut: ${servedDuring(result, window.startMs, window.endMs)}`);
  const outside = errors.filter((e) => !outageOf(e, result.outages));
  lines.push(`- outside an outage window (+${OUTAGE_GRACE_MS / 1000} s after restore): ${outside.length}`);
  for (const e of outside.slice(0, 10)) lines.push(`  - ${seconds(e.atMs)}: ${e.kind} ${e.path} → ${e.status} ${e.code ?? ''} (instance ${e.server + 1})`);
  return lines;
}

function instanceLines(result: PhaseResult): string[] {
  const rows = [
    '| instance | RSS at ready | after warm-up | at end | growth after warm-up | peak | fds at ready | after warm-up | at end | stop |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  result.servers.forEach((s, i) => {
    const peak = s.samples.reduce((a, b) => Math.max(a, b.rssMb), 0);
    rows.push(
      `| ${i + 1} | ${s.atReady.rssMb} MB | ${s.afterWarmUp.rssMb} MB (anon ${s.afterWarmUp.rssAnonMb}; at ${seconds(s.afterWarmUp.atMs)}) | ${s.atEnd.rssMb} MB (anon ${s.atEnd.rssAnonMb}) | ${growthPercent(s.afterWarmUp.rssMb, s.atEnd.rssMb)} % | ${peak} MB | ${s.atReady.fds} | ${s.afterWarmUp.fds} | ${s.atEnd.fds} | exit ${s.exit.code ?? s.exit.signal} in ${seconds(s.exit.tookMs)} |`,
    );
  });
  const lines = [...rows, ''];
  // Medians over a minute are less at the mercy of when the garbage collector last ran than two single samples.
  const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]! : Number.NaN);
  const minute = Math.min(60_000, result.durationMs / 5);
  result.servers.forEach((s, i) => {
    const early = median(s.samples.filter((x) => x.atMs >= result.warmUpMs && x.atMs < result.warmUpMs + minute).map((x) => x.rssMb));
    const late = median(s.samples.filter((x) => x.atMs >= result.durationMs - minute).map((x) => x.rssMb));
    lines.push(`Median RSS${result.instances > 1 ? ` of instance ${i + 1}` : ''} over ${seconds(minute)} after warm-up: ${early} MB; over the last ${seconds(minute)}: ${late} MB (${growthPercent(early, late)} %).`);
  });
  lines.push('');
  // The curve, in tenths of the run: a bounded cache filling looks different from a leak.
  result.servers.forEach((s, i) => {
    const points: string[] = [];
    for (let tenth = 0; tenth <= 10; tenth++) {
      const at = (result.durationMs * tenth) / 10;
      const nearest = s.samples.reduce((best, x) => (Math.abs(x.atMs - at) < Math.abs(best.atMs - at) ? x : best));
      points.push(`${Math.round(nearest.atMs / 1000)} s ${Math.round(nearest.rssMb)}/${nearest.fds}`);
    }
    lines.push(`RSS MB / fds over the run${result.instances > 1 ? `, instance ${i + 1}` : ''}: ${points.join(' · ')}`);
  });
  return lines;
}

function operatorLines(result: PhaseResult): string[] {
  const lines: string[] = [];
  result.servers.forEach((s, i) => {
    const who = result.instances > 1 ? `instance ${i + 1}` : 'the instance';
    lines.push(`- /readyz of ${who}: ${s.readiness.map((r) => `${seconds(r.atMs)} ${r.state}`).join(' → ')}`);
    const logs = s.logs.filter((g) => g.level !== 'info');
    if (logs.length === 0) lines.push(`- log of ${who} (warn and above): nothing`);
    else {
      lines.push(`- log of ${who} (warn and above):`);
      for (const g of logs.slice(0, 12)) lines.push(`  - ${g.level} ×${g.count}, ${seconds(g.firstAtMs)}–${seconds(g.lastAtMs)}: ${g.message.slice(0, 200)}`);
      if (logs.length > 12) lines.push(`  - … ${logs.length - 12} more kinds of line`);
    }
  });
  return lines;
}

export function phaseMarkdown(result: PhaseResult, options: { rss: boolean } = { rss: true }): string {
  const { clicks, orders, load } = result;
  const outages = result.outages.map((w) => `${w.store} cut from ${seconds(w.startMs)} to ${seconds(w.endMs)}`).join('; ');
  const unexpected = load.unexpected.filter((u) => typeof u.status === 'number' && u.status < 500);
  return [
    `### ${result.name}`,
    '',
    `${result.instances} instance(s) on ${result.database === 'sqlite' ? 'SQLite' : 'PostgreSQL + Redis'}, started from the ${result.launch === 'build' ? 'compiled build' : 'sources (tsx)'}; ` +
      `${thousands(load.priming.requests / result.instances)} links visited once on each instance before the load (${thousands(load.priming.clicks)} clicks in ${seconds(load.priming.tookMs)}), ` +
      `then ${seconds(result.durationMs)} of load at ${result.rate} requests/s with at most ${result.concurrency} in flight; warm-up until ${seconds(result.warmUpMs)}` +
      `${outages ? `; ${outages}` : ''}.`,
    '',
    ...requestTable(result),
    '',
    `Links created: ${thousands(load.linksCreated)}. Conversions sent again after a 503 or no answer: ${load.conversionRetries}. ` +
      `Requests sent again on a fresh connection after a keep-alive race: ${load.staleConnectionRetries}. Other unexpected answers (4xx): ${unexpected.length}` +
      `${unexpected.length ? ` — ${unexpected.slice(0, 3).map((u) => `${u.kind} ${u.path} → ${u.status} ${u.body.slice(0, 120)}`).join('; ')}` : ''}.`,
    '',
    ...serverErrorLines(result),
    '',
    `Clicks: ${thousands(clicks.received)} click ids received in 302s, ${thousands(clicks.stored)} stored after the stop; ${clicks.missingCount} missing, ${clicks.extraCount} stored but never handed out.` +
      ` Orders: ${thousands(orders.accepted)} accepted (201/200), ${thousands(orders.stored)} stored; ${orders.missingCount} missing, ${orders.extraCount} stored without an accepted answer.`,
    '',
    ...instanceLines(result),
    '',
    'What an operator sees:',
    ...operatorLines(result),
    '',
    'Checks:',
    ...verdicts(result, options).map((v) => `- ${v.ok ? 'pass' : '**FAIL**'}: ${v.check} — ${v.detail}`),
    '',
  ].join('\n');
}

export function machineLine(): string {
  return `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load generator and servers share the cores.`;
}

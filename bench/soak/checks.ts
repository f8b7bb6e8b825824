// What a soak phase must show: no 5xx but the 503s of an outage, no request left without an answer,
// every click handed out stored (and nothing else), every accepted order stored, a clean stop, and
// memory and file descriptors flat after the warm-up.
import type { ServerErrorAnswer } from './load.js';
import { REQUEST_KINDS } from './load.js';
import type { OutageWindow, PhaseResult } from './phase.js';
import { growthPercent } from './process-stats.js';

/** A 503 answered up to this long after the store came back still belongs to its outage (pools reconnect, retries wait). */
export const OUTAGE_GRACE_MS = 5000;
export const MAX_RSS_GROWTH_PERCENT = 10;
/** File descriptors may differ by this many between warm-up and end (pooled connections come and go). */
export const FD_MARGIN = 20;

export interface Verdict {
  check: string;
  ok: boolean;
  detail: string;
}

/** The outage a 5xx belongs to: a 503 answered while the store was cut, or shortly after it came back. */
export function outageOf(answer: ServerErrorAnswer, outages: OutageWindow[]): OutageWindow | undefined {
  if (answer.status !== 503) return undefined;
  return outages.find((w) => answer.atMs >= w.startMs && answer.atMs <= w.endMs + OUTAGE_GRACE_MS);
}

export function serverErrorsOutsideOutages(result: PhaseResult): ServerErrorAnswer[] {
  return result.load.serverErrors.filter((e) => !outageOf(e, result.outages));
}

export const unansweredCount = (result: PhaseResult): number =>
  REQUEST_KINDS.reduce((n, kind) => n + Object.values(result.load.tally[kind].unanswered).reduce((a, b) => a + b, 0), 0);

export function verdicts(result: PhaseResult, options: { rss: boolean } = { rss: true }): Verdict[] {
  const outside = serverErrorsOutsideOutages(result);
  const unanswered = unansweredCount(result);
  const { clicks, orders } = result;
  const list: Verdict[] = [
    {
      check: '5xx only 503 inside an outage',
      ok: outside.length === 0,
      detail: `${result.load.serverErrors.length} 5xx, ${outside.length} outside an outage window${outside.length ? `: first ${JSON.stringify(outside.slice(0, 3))}` : ''}`,
    },
    { check: 'every request answered', ok: unanswered === 0, detail: `${unanswered} without an answer` },
    {
      check: 'clicks received = clicks stored',
      ok: clicks.missingCount === 0 && clicks.extraCount === 0,
      detail: `${clicks.received} received, ${clicks.stored} stored, ${clicks.missingCount} missing, ${clicks.extraCount} stored but never handed out`,
    },
    { check: 'accepted orders stored', ok: orders.missingCount === 0, detail: `${orders.accepted} accepted, ${orders.stored} stored, ${orders.missingCount} missing` },
  ];
  result.servers.forEach((server, i) => {
    const who = result.instances > 1 ? ` (instance ${i + 1})` : '';
    const errors = server.errorsOutsideOutages;
    list.push({
      check: `no error logged outside an outage${who}`,
      ok: errors.length === 0,
      detail: `${errors.length} line(s)${errors.length ? `, first at ${(errors[0]!.atMs / 1000).toFixed(1)} s: ${errors[0]!.message.slice(0, 160)}` : ''}`,
    });
    list.push({ check: `clean stop${who}`, ok: server.exit.code === 0, detail: `exit ${server.exit.code ?? server.exit.signal} after ${server.exit.tookMs} ms` });
    const fdGrowth = server.atEnd.fds - server.afterWarmUp.fds;
    list.push({ check: `file descriptors flat${who}`, ok: fdGrowth <= FD_MARGIN, detail: `${server.afterWarmUp.fds} after warm-up, ${server.atEnd.fds} at end` });
    if (options.rss) {
      const growth = growthPercent(server.afterWarmUp.rssMb, server.atEnd.rssMb);
      list.push({ check: `RSS growth ≤ ${MAX_RSS_GROWTH_PERCENT} % after warm-up${who}`, ok: growth <= MAX_RSS_GROWTH_PERCENT, detail: `${server.afterWarmUp.rssMb} → ${server.atEnd.rssMb} MB (${growth} %)` });
    }
  });
  return list;
}

// The files a payout run trades with the bank or payment provider: the run's payouts as CSV
// (payee details in full, one column per detail), and the provider's results read back.
import { parse } from 'csv-parse/sync';
import { csvLine, csvNumber, type CsvValue } from '../../lib/csv.js';
import { majorUnits } from '../money.js';
import { invalid } from '../errors.js';
import type { ExportedPayout, PayoutResult } from './payout-runs.js';

/** The CSV cells of nested payee details, all text: one column per leaf, named by its path (method.key). */
function flatten(value: unknown, prefix: string, out: Record<string, CsvValue>): Record<string, CsvValue> {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out[prefix] = String(value);
  }
  return out;
}

export function payoutsCsv(payouts: readonly ExportedPayout[]): string {
  // Amounts are number cells (a negative one stays a number), in cents and in the currency's major units.
  const rows = payouts.map(
    (p): Record<string, CsvValue> => ({
      payout_id: p.payoutId,
      affiliate_id: p.affiliateId,
      currency: p.currency,
      amount_cents: p.amount,
      amount: csvNumber(majorUnits(p.amount, p.currency)),
      status: p.status,
      method: p.method ?? '',
      failure_reason: p.failureReason ?? '',
      ...flatten(p.payee, 'payee', {}),
    }),
  );
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [csvLine(columns), ...rows.map((r) => csvLine(columns.map((c) => r[c])))].join('');
}

/** Reads the provider's results: a CSV with columns payout_id, status (settled or failed) and reason. */
export function settlementResults(text: string): PayoutResult[] {
  let records: Array<Record<string, string>>;
  try {
    records = parse<Record<string, string>>(text, { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw invalid('invalid_settlement_file', `the results file is not CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  return records.map((r, i) => {
    const line = i + 2;
    if (!r.payout_id) throw invalid('invalid_settlement_file', `line ${line}: payout_id is missing (columns: payout_id,status,reason)`);
    if (r.status !== 'settled' && r.status !== 'failed') throw invalid('invalid_settlement_file', `line ${line}: status must be settled or failed, got "${r.status ?? ''}"`);
    return { payoutId: r.payout_id, status: r.status, ...(r.reason && { reason: r.reason }) };
  });
}

// NDJSON catalogue import: one resource per line in the API's shape. Each line is validated and
// written in its own transaction, so a bad line is reported with its number and reason and never
// aborts or half-applies the others.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BrandInput } from '../../schemas/brand.js';
import { CampaignInput } from '../../schemas/campaign.js';
import { ProductInput } from '../../schemas/product.js';
import { compileCheck, type Check } from '../../schemas/validate.js';
import { controlCharacterMessage, findControlCharacter, MAX_DEPTH, nestsDeeperThan } from '../../lib/control-characters.js';
import { DomainError } from '../errors.js';
import type { WriteOutcome } from '../../storage/repositories/brands.js';
import type { CatalogWriter } from './catalog-writer.js';

export const IMPORT_KINDS = ['brands', 'products', 'campaigns'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportSummary {
  lines: number;
  inserted: number;
  updated: number;
  rejected: number;
}

/** How a line of one kind is checked and written. */
export interface Importer {
  check: Check<unknown>;
  write(value: unknown): Promise<WriteOutcome>;
}

const checks = { brands: compileCheck(BrandInput), products: compileCheck(ProductInput), campaigns: compileCheck(CampaignInput) };

const importers = (writer: CatalogWriter): Record<ImportKind, Importer> => ({
  brands: { check: checks.brands, write: (v) => writer.upsertBrand(v as BrandInput) },
  products: { check: checks.products, write: (v) => writer.upsertProduct(v as ProductInput) },
  campaigns: { check: checks.campaigns, write: (v) => writer.upsertCampaign(v as CampaignInput) },
});

export interface ImportHooks {
  onProgress?: (bytes: number, total: number) => void;
  onRejected?: (line: number, reason: string) => void;
}

/** What became of one line: its number (from 1), and the reason when it was refused. */
export interface LineResult {
  line: number;
  status: 'inserted' | 'updated' | 'rejected';
  id?: string;
  reason?: string;
}

/**
 * Applies NDJSON lines one by one, each validated and written on its own, so a bad line is
 * reported with its number and reason and never aborts or half-applies the others. Blank lines
 * are skipped. With `maxLines`, the lines after that many are not read: one last result says so.
 */
export async function applyLines(
  lines: AsyncIterable<string>,
  importer: Importer,
  onResult: (result: LineResult) => void,
  options: { maxLines?: number; onLine?: (text: string) => void } = {},
): Promise<ImportSummary & { truncated: boolean }> {
  const summary = { lines: 0, inserted: 0, updated: 0, rejected: 0, truncated: false };
  const reject = (line: number, reason: string) => {
    summary.rejected++;
    onResult({ line, status: 'rejected', reason });
  };
  for await (const text of lines) {
    summary.lines++;
    options.onLine?.(text);
    if (text.trim() === '') continue;
    if (options.maxLines !== undefined && summary.lines > options.maxLines) {
      summary.truncated = true;
      reject(summary.lines, `over the limit of ${options.maxLines} lines per request: this line and the ones after it were not read; send them in another request`);
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      reject(summary.lines, `not valid JSON (${(error as Error).message})`);
      continue;
    }
    if (nestsDeeperThan(value, MAX_DEPTH)) {
      reject(summary.lines, `nests objects or arrays more than ${MAX_DEPTH} levels deep`);
      continue;
    }
    const control = findControlCharacter(value, { allowWhitespace: true });
    if (control) {
      reject(summary.lines, controlCharacterMessage(control));
      continue;
    }
    const checked = importer.check(value);
    if (!checked.ok) {
      reject(summary.lines, checked.message);
      continue;
    }
    try {
      const status = await importer.write(checked.value);
      summary[status]++;
      onResult({ line: summary.lines, status, ...(typeof (checked.value as { id?: unknown }).id === 'string' && { id: (checked.value as { id: string }).id }) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      reject(summary.lines, error.message);
    }
  }
  return summary;
}

export async function importNdjson(writer: CatalogWriter, kind: ImportKind, file: string, hooks: ImportHooks = {}): Promise<ImportSummary> {
  let total: number;
  try {
    total = statSync(file).size;
  } catch {
    throw new DomainError('invalid', 'file_not_found', `cannot read ${file}: no such file`);
  }
  const stream = createReadStream(file, { encoding: 'utf8' });
  let bytes = 0;
  const { truncated: _truncated, ...summary } = await applyLines(
    createInterface({ input: stream, crlfDelay: Infinity }),
    importers(writer)[kind],
    (result) => {
      if (result.status === 'rejected') hooks.onRejected?.(result.line, result.reason!);
    },
    {
      onLine: (text) => {
        bytes += Buffer.byteLength(text) + 1;
        hooks.onProgress?.(Math.min(bytes, total), total);
      },
    },
  );
  return summary;
}

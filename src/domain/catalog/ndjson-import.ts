// NDJSON catalogue import: one resource per line in the API's shape. Each line is validated and
// written in its own transaction, so a bad line is reported with its number and reason and never
// aborts or half-applies the others.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BrandInput } from '../../schemas/brand.js';
import { CampaignInput } from '../../schemas/campaign.js';
import { ProductInput } from '../../schemas/product.js';
import { compileCheck, type Check } from '../../schemas/validate.js';
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

interface Importer {
  check: Check<unknown>;
  write(writer: CatalogWriter, value: unknown): Promise<WriteOutcome>;
}

const importers: Record<ImportKind, Importer> = {
  brands: { check: compileCheck(BrandInput), write: (w, v) => w.upsertBrand(v as BrandInput) },
  products: { check: compileCheck(ProductInput), write: (w, v) => w.upsertProduct(v as ProductInput) },
  campaigns: { check: compileCheck(CampaignInput), write: (w, v) => w.upsertCampaign(v as CampaignInput) },
};

export interface ImportHooks {
  onProgress?: (bytes: number, total: number) => void;
  onRejected?: (line: number, reason: string) => void;
}

export async function importNdjson(writer: CatalogWriter, kind: ImportKind, file: string, hooks: ImportHooks = {}): Promise<ImportSummary> {
  let total: number;
  try {
    total = statSync(file).size;
  } catch {
    throw new DomainError('invalid', 'file_not_found', `cannot read ${file}: no such file`);
  }
  const importer = importers[kind];
  const summary: ImportSummary = { lines: 0, inserted: 0, updated: 0, rejected: 0 };
  const stream = createReadStream(file, { encoding: 'utf8' });
  let bytes = 0;
  const reject = (line: number, reason: string) => {
    summary.rejected++;
    hooks.onRejected?.(line, reason);
  };
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    summary.lines++;
    bytes += Buffer.byteLength(text) + 1;
    hooks.onProgress?.(Math.min(bytes, total), total);
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      reject(summary.lines, `not valid JSON (${(error as Error).message})`);
      continue;
    }
    const checked = importer.check(value);
    if (!checked.ok) {
      reject(summary.lines, checked.message);
      continue;
    }
    try {
      summary[await importer.write(writer, checked.value)]++;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      reject(summary.lines, error.message);
    }
  }
  return summary;
}

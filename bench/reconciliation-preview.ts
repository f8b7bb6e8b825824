// A timed step of `npm run bench`, after the scenarios: a brand uploads its shop's order export of
// 100,000 orders (Shopify's, test/helpers/shop-exports.ts) to the running service and waits for
// its preview (POST /advertiser/conversions/reconciliations): the time from the first byte sent to
// the answer, and the service's RSS before and its peak after (the export's parsing worker is a
// thread of the same process). The file names the brand's own orders (its newest first, as many as
// it has, up to the file's size) and then orders the network does not know, all on their days; it
// is written to a temporary file first, so making it is not measured. The preview is deleted
// afterwards, so the data set stays as it was.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { openDatabase } from '../src/storage/database.js';
import { shopifyExportStream, shopifyTime } from '../test/helpers/shop-exports.js';
import { log, residentMb } from './harness.js';

/** The step's name, as `--only` selects it. */
export const RECONCILIATION_STEP = 'reconciliation preview';
const ROWS = 100_000;

interface Preview {
  id: string;
  rows: number;
  counts: Record<string, number>;
}

/** POSTs the file as a stream; the answer's status and body. */
function upload(url: string, key: string, file: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/csv', 'content-length': statSync(file).size } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    pipeline(createReadStream(file), req).catch(reject);
  });
}

/** Runs the step against the service at `baseUrl` (its process `pid`); the Markdown of its result. */
export async function reconciliationPreview(baseUrl: string, databaseUrl: string, pid: number, brand: { id: string; key: string } | undefined): Promise<string> {
  if (!brand) return `No ${RECONCILIATION_STEP}: the data set has no brand with clicks.\n`;
  log(`Step: ${RECONCILIATION_STEP}, ${ROWS.toLocaleString('en-US')} rows`);
  const database = openDatabase(databaseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'bench-reconciliation-'));
  const file = join(dir, 'orders_export.csv');
  try {
    const orders = await database.db.selectFrom('orders').select(['order_id', 'created_at']).where('organization_id', '=', brand.id).orderBy('created_at', 'desc').limit(ROWS).execute();
    const last = orders.at(-1)?.created_at ?? new Date().toISOString();
    await pipeline(
      Readable.from(
        shopifyExportStream(ROWS, (index) => {
          const order = orders[index];
          return order
            ? { name: `#${order.order_id}`, id: String(5_000_000_000_000 + index), createdAt: shopifyTime(Date.parse(order.created_at)) }
            : { name: `#BENCH${index}`, id: String(5_000_000_000_000 + index), createdAt: shopifyTime(Date.parse(last)) };
        }),
      ),
      createWriteStream(file),
    );
    const megabytes = statSync(file).size / 1e6;
    const rssBefore = residentMb(pid, 'VmRSS');
    const started = performance.now();
    const answer = await upload(`${baseUrl}/advertiser/conversions/reconciliations`, brand.key, file);
    const seconds = (performance.now() - started) / 1000;
    const peak = residentMb(pid);
    if (answer.status !== 201) {
      process.exitCode = 1;
      return `**${RECONCILIATION_STEP} failed**: ${answer.status} ${answer.body.slice(0, 500)}\n`;
    }
    const preview = (JSON.parse(answer.body) as { data: Preview }).data;
    await database.db.deleteFrom('reconciliation_lines').where('reconciliation_id', '=', preview.id).execute();
    await database.db.deleteFrom('reconciliations').where('id', '=', preview.id).execute();
    const counts = Object.entries(preview.counts)
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => `${kind} ${count.toLocaleString('en-US')}`)
      .join(', ');
    return [
      `A shop's order export previewed (${RECONCILIATION_STEP}, bench/reconciliation-preview.ts): Shopify's export of ${ROWS.toLocaleString('en-US')} orders, ${orders.length.toLocaleString('en-US')} of them the brand's, POSTed to \`/advertiser/conversions/reconciliations\` after the scenarios; time from the first byte sent to the answer.`,
      '',
      '| step | rows | file, MB | seconds | rows/s | lines | service RSS before, MB | service peak RSS so far, MB |',
      '|---|---|---|---|---|---|---|---|',
      `| ${RECONCILIATION_STEP} | ${preview.rows.toLocaleString('en-US')} | ${megabytes.toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(preview.rows / seconds).toLocaleString('en-US')} | ${counts} | ${rssBefore} | ${peak} |`,
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await database.close();
  }
}

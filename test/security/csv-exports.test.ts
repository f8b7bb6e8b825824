// Every CSV export, fed the same hostile texts through the API (an order id a pt-BR spreadsheet
// would split on ";" into a formula, texts starting with = + - @, a tab or a carriage return,
// quotes, separators, a line break): read back with the comma and with the semicolon as
// separators, each cell is the text a spreadsheet keeps as text, a single quote before every
// formula start where a cell may begin; numbers, negative ones included, stay numbers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { newKey } from '../helpers/api.js';
import { brandKey, clickLink, conversionOf, createLink, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { operatorSession, totpCode, type OperatorSession } from '../helpers/operators.js';
import { givePayeeDetails, lockedIn } from '../helpers/money.js';
import { servicesFor } from '../helpers/databases.js';
import { ManualClock } from '../../src/lib/clock.js';

/** Each hostile text, and the cell a spreadsheet must read for it. */
const HOSTILE: ReadonlyArray<readonly [text: string, cell: string]> = [
  ["X;=cmd|'/Ccalc'!A0;x", "X;'=cmd|'/Ccalc'!A0;x"],
  ['=1+1', "'=1+1"],
  ['@SUM(A1)', "'@SUM(A1)"],
  ['-2', "'-2"],
  ['+3', "'+3"],
  ['\tTAB', "'\tTAB"],
  ['\rCR', "'\rCR"],
  ['"quoted"', '"quoted"'],
  ['a,b', 'a,b'],
  ['a;=b', "a;'=b"],
  ['line\n=2+2', "line\n'=2+2"],
];
/** The cells of the texts some fields keep trimmed (and with their spaces collapsed). */
const TRIMMED: ReadonlyMap<string, string> = new Map([
  ['TAB', 'TAB'],
  ['CR', 'CR'],
  ['line =2+2', 'line =2+2'],
]);
const cellOf = (stored: string): string => HOSTILE.find(([text]) => text === stored)?.[1] ?? TRIMMED.get(stored) ?? assert.fail(`no cell for ${JSON.stringify(stored)}`);
const trimmed = (text: string) => text.trim();
const collapsed = (text: string) => text.trim().replace(/\s+/g, ' ');
/** An order id may hold no white space: the hostile texts without any are order ids too. */
const asOrderId = (text: string, i: number) => (/\s/.test(text) ? `csv-${i}` : text);
const orderIdCell = (text: string, i: number) => (/\s/.test(text) ? `csv-${i}` : cellOf(text));

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** A formula start where a spreadsheet may see a cell begin: its start, or after a quote, a separator or a line break. */
const FORMULA_START = /(^|[",;\t\r\n])[=+\-@\t\r]/;

/**
 * A CSV's records as a spreadsheet reads them, checked: read with the semicolon as a separator
 * too, they are the same (a semicolon is never a separator outside quotes), and no cell but a
 * number starts a formula anywhere a cell may be seen to begin.
 */
function records(body: string): string[][] {
  const options = { relax_column_count: true, skip_empty_lines: true, record_delimiter: '\r\n' } as const;
  const byComma: string[][] = parse(body, { ...options, delimiter: ',' });
  assert.deepEqual(parse(body, { ...options, delimiter: [',', ';'] }), byComma, 'the same records with ; as a separator too');
  for (const cell of byComma.flat()) assert.ok(PLAIN_NUMBER.test(cell) || !FORMULA_START.test(cell), `a cell a spreadsheet would run: ${JSON.stringify(cell)}`);
  return byComma;
}

/** The records under their header, as objects by column. */
function table(rows: string[][]): Array<Record<string, string>> {
  const [header, ...lines] = rows;
  return lines.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i] ?? ''])));
}

const clock = new ManualClock();
let h: Harness;
let operator: OperatorSession;
let acme: string;
let aff3: string;
let firstChannel: string;
const orders: Conversion[] = [];
const channelNames: string[] = [];

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0', SESSION_IDLE_MINUTES: String(60 * 24), PAYEE_CHANGE_HOLD_HOURS: '0' }, { clock });
  operator = await operatorSession(h, clock.now());
  acme = await brandKey(h, BRANDS.acme);
  aff3 = (await newKey(h, 'aff-3', { rateLimit: 100_000 })).key;
  // aff-3 starts with no channel: one per hostile text, named by it, each with a link whose mdasc
  // is that text, clicked, and an order on it whose id is that text where it can be.
  const channels: string[] = [];
  for (const [text] of HOSTILE) {
    const res = await h.post('/affiliate/channels', { availableChannelId: 'site', name: text }, aff3);
    assert.equal(res.statusCode, 201, `${JSON.stringify(text)}: ${res.body}`);
    const channel = res.json<{ data: { id: string; name: string } }>().data;
    channels.push(channel.id);
    firstChannel ??= channel.id;
    channelNames.push(channel.name);
  }
  for (const [i, [text]] of HOSTILE.entries()) {
    const { code } = await createLink(h, aff3, BRANDS.acme, { mdasc: text, channelId: channels[i]! });
    const { clickId } = await clickLink(h, code);
    orders.push(conversionOf(await report(h, acme, { clickId, orderId: asOrderId(text, i), value: 10_000, items: [item(10_000)] }), 201));
  }
});
after(() => h?.close());

const operatorGet = (url: string) => h.request({ method: 'GET', url, headers: operator.headers });
const operatorPost = (url: string, payload: object) => h.request({ method: 'POST', url, headers: operator.headers, payload });
const csvOf = async (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
  return records(res.body);
};
/** A code of the operator's app now, the clock moved to a step no code was used in yet. */
function freshCode(): string {
  clock.advance(30_000);
  return totpCode(operator.secret, clock.now());
}

test('every export writes hostile texts as text a spreadsheet keeps, in any locale, and numbers as numbers', async () => {
  // The affiliate's orders: the order id, the tracking id and the channel's name.
  const exported = table(await csvOf(await h.get('/affiliate/orders.csv', aff3)));
  for (const [i, [text]] of HOSTILE.entries()) {
    const row = exported.find((r) => r.id === orders[i]!.id)!;
    assert.ok(row, `order ${i} exported`);
    assert.equal(row.orderId, orderIdCell(text, i));
    assert.equal(row.mdasc, cellOf(text));
    assert.equal(row.channelName, cellOf(channelNames[i]!));
    assert.equal(row.value, '10000', 'an amount is a number cell');
  }

  // Analytics: the orders per channel, named.
  const byChannel = table(await csvOf(await h.get('/affiliate/analytics/export?interval=all&event=orders&groupBy=channels', aff3)));
  assert.deepEqual(byChannel.map((r) => r.name).sort(), channelNames.map(cellOf).sort());

  // The brand decides with reasons: the operator's audit trail.
  for (const [i, [text]] of HOSTILE.entries()) {
    const res = await patchStatus(h, acme, orders[i]!.orderId, { status: 'approved', reason: text });
    assert.equal(res.statusCode, 200, res.body);
  }
  const audit = table(await csvOf(await operatorGet('/operator/audit.csv?action=conversion.approved')));
  for (const [i, [text]] of HOSTILE.entries()) assert.equal(audit.find((r) => r.subject_id === orders[i]!.id)?.reason, cellOf(trimmed(text)), `reason ${i}`);

  // The brand's statement of the month the orders locked in: their order ids.
  const lastMonth = new Date(Date.UTC(new Date(clock.now()).getUTCFullYear(), new Date(clock.now()).getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await lockedIn(h.service.database, orders.map((o) => o.id), lastMonth);
  const issued = await operatorPost('/operator/statements', { month: lastMonth });
  assert.equal(issued.statusCode, 200, issued.body);
  const statement = issued.json<{ data: Array<{ id: string; brandId: string }> }>().data.find((s) => s.brandId === BRANDS.acme)!;
  const lines = table(await csvOf(await h.get(`/advertiser/statements/${statement.id}.csv`, acme)));
  for (const [i, [text]] of HOSTILE.entries()) assert.ok(lines.some((l) => l.orderId === orderIdCell(text, i)), `statement line ${i}`);

  // Adjustments, one taking money away: the affiliate's statement of the month, its amounts numbers.
  // The code counts for the next minutes: the runs below need none.
  for (const [amount, code] of [[5_000, freshCode()], [-1_250, undefined]] as const) {
    const res = await operatorPost('/operator/adjustments', { affiliateId: 'aff-3', amount, currency: 'BRL', reason: HOSTILE[0]![0], ...(code && { code }) });
    assert.equal(res.statusCode, 201, res.body);
  }
  const thisMonth = new Date(clock.now()).toISOString().slice(0, 7);
  const movements = table(await csvOf(await h.get(`/affiliate/statements/${thisMonth}.csv`, aff3)));
  assert.deepEqual(movements.filter((m) => m.kind === 'adjustment').map((m) => m.amount).sort(), ['-1250', '5000'], 'a negative amount is a number cell');
  // Its movements name orders by the network's ids: no member's text reaches it.
  assert.deepEqual(movements.filter((m) => m.kind === 'approval').map((m) => m.orderId).sort(), orders.map((o) => o.id).sort());

  // The bank's file of each payout run: the payee's name as the affiliate gave it; amounts numbers.
  for (const [i, [text]] of HOSTILE.entries()) {
    await givePayeeDetails(h, 'aff-3', { legalName: `${text} ${i}`.trimStart(), country: 'BR', taxId: '529.982.247-25', method: { type: 'pix', keyType: 'cpf', key: '529.982.247-25' } });
    if (i > 0) assert.equal((await operatorPost('/operator/adjustments', { affiliateId: 'aff-3', amount: 100 + i, currency: 'BRL', reason: 'Another run' })).statusCode, 201);
    const run = await operatorPost('/operator/payout-runs', { affiliateId: 'aff-3' });
    assert.equal(run.statusCode, 200, run.body);
    const runId = run.json<{ data: { runId: string } }>().data.runId;
    const [payout] = table(await csvOf(await operatorPost(`/operator/payout-runs/${runId}/export`, {})));
    assert.equal(payout!['payee.legalName'], cellOf(collapsed(text)) + ` ${i}`, `payee ${i}`);
    const cents = i === 0 ? 3_750 : 100 + i;
    assert.deepEqual([payout!.amount_cents, payout!.amount], [String(cents), (cents / 100).toFixed(2)]);
  }

  // The network's figures by affiliate, under each name the affiliate has had.
  // From the day before: the clock moves on with each code, and may have passed midnight since the orders.
  const today = new Date(clock.now()).toISOString().slice(0, 10);
  const dayBefore = new Date(clock.now() - 86_400_000).toISOString().slice(0, 10);
  for (const [text] of HOSTILE) {
    await servicesFor(h.service.database).access.upsertAffiliate('aff-3', text);
    const figures = table(await csvOf(await operatorGet(`/operator/figures.csv?from=${dayBefore}&to=${today}&groupBy=affiliate&columns=api`)));
    assert.equal(figures.find((f) => f.affiliate_id === 'aff-3')?.name, cellOf(text));
  }

  // The product feed: the brand's product names.
  for (const [i, [text]] of HOSTILE.entries()) {
    const res = await h.request({ method: 'PUT', url: `/advertiser/products/csv-${i}`, headers: { 'x-api-key': acme }, payload: { name: text, description: text, url: `https://www.acme.com/p/csv-${i}`, available: true, price: 1_000 + i } });
    assert.ok([200, 201].includes(res.statusCode), res.body);
  }
  const feed = table(await csvOf(await h.get(`/affiliate/feeds/products.csv?channelId=${firstChannel}&organizationIds=${BRANDS.acme}`, aff3)));
  for (const [i, [text]] of HOSTILE.entries()) {
    const product = feed.find((p) => p.id === `csv-${i}`);
    assert.ok(product, `product ${i} in the feed`);
    assert.equal(product.name, cellOf(text), `product ${i}`);
    assert.equal(product.price, String(1_000 + i));
  }
});

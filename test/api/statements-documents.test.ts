// Statements as the API gives them: the brand's (list, one with its lines paged, CSV with its
// totals, PDF) and the affiliate's monthly one (JSON, CSV, PDF), made from real money events with
// the clock moved by days; PDFs read back as text, in the reader's language; nobody reaches
// another's statement.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFParse } from 'pdf-parse';
import { startHarness, type Harness } from '../helpers/harness.js';
import { BRANDS } from '../helpers/world.js';
import { assertError, newKey } from '../helpers/api.js';
import { brandKey, conversionOf, freshClick, item, patchStatus, report, type Conversion } from '../helpers/tracking.js';
import { credentialHeaders, sessionCredential } from '../helpers/route-samples.js';
import { ManualClock } from '../../src/lib/clock.js';
import { monthOf, monthRange } from '../../src/domain/time.js';
import { formatMinor } from '../../src/domain/money.js';
import type { Statement, StatementLine } from '../../src/schemas/statement.js';
import type { AffiliateStatement } from '../../src/schemas/affiliate-statement.js';
import type { StatementLineView } from '../../src/domain/ledger/statements-service.js';
import { statementPdf } from '../../src/http/documents/brand-statement.js';
import { CLI } from '../../src/domain/audit/audit-entry.js';

/** A month as each language writes it in a document ("fevereiro de 2026", "February 2026"). */
const monthIn = (language: string, month: string) => new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

const DAY = 86_400_000;
const clock = new ManualClock();
let h: Harness;
let acme: string;
let globex: string;
let aff2: string;
let orderNumber = 0;
let statement: Statement;
let month: string;
const orders: Conversion[] = [];

before(async () => {
  h = await startHarness({ WEBHOOK_POLL_MS: '0' }, { clock });
  acme = await brandKey(h, BRANDS.acme);
  globex = await brandKey(h, BRANDS.globex);
  aff2 = (await newKey(h, 'aff-2', { rateLimit: 100_000 })).key;
  // aff-1's owner reads Portuguese: with an API key, aff-1's documents are in it.
  const { users } = h.service.services;
  const owner = await users.create({ affiliateId: 'aff-1' }, 'owner@aff-1.example', 'owner');
  await users.setLanguage(owner.user.id, 'pt-BR');
});
after(() => h?.close());

const services = () => h.service.services;
let people = 0;
/** A session (as a credential) of a new person of the account, who reads `language`. */
async function personSession(account: { affiliateId: string } | { brandId: string }, role: 'owner' | 'member', language: 'en' | 'pt-BR'): Promise<string> {
  const { users } = services();
  const { user, link } = await users.create(account, `person-${++people}@documents.example`, role);
  await users.setLanguage(user.id, language);
  return sessionCredential(await users.setPassword(new URL(link).searchParams.get('token')!, 'reading statements here'));
}
const get = (url: string, credential: string) => h.request({ method: 'GET', url, headers: credentialHeaders(credential) });
async function reported(value: number): Promise<Conversion> {
  const clickId = await freshClick(h, h.world.keys.aff1, BRANDS.acme);
  return conversionOf(await report(h, acme, { clickId, orderId: `doc-${++orderNumber}`, value, items: [item(value)] }), 201);
}
async function pdfText(body: Buffer): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    const result = await parser.getText();
    return { text: result.text, pages: result.total };
  } finally {
    await parser.destroy();
  }
}
/** CSV text as rows of cells (no quoted commas in these files). */
const csvRows = (text: string) => text.split('\r\n').slice(0, -1).map((line) => (line === '' ? [] : line.split(',')));

test("a brand's statements: the list, one with its lines paged, the same as CSV with its totals", async () => {
  const profile = await h.request({ method: 'PATCH', url: '/advertiser/brand', headers: { 'x-api-key': acme }, payload: { validationDays: 5 } });
  assert.equal(profile.statusCode, 200, profile.body);
  orders.push(await reported(10_000), await reported(1_999), await reported(67)); // commissions 750, 150 (left to lock), 5
  for (const o of [orders[0]!, orders[2]!]) assert.equal((await patchStatus(h, acme, o.orderId, { status: 'approved' })).statusCode, 200);
  month = monthOf(orders[2]!.lockAt);
  clock.set(Date.parse(monthRange(month).to) + 3_600_000);
  assert.ok(clock.now() > Date.parse(orders[1]!.lockAt) + DAY / 24, 'past the lock date of the one left pending');
  // The world's February commission on a statement of its own, so the month's holds only these.
  assert.equal((await services().statements.issue('2026-02')).length, 1);
  [statement] = (await services().statements.issue(month)) as [Statement];
  assert.ok(statement);
  await services().statements.recordPayment(statement.id, 500, 'TX-1', CLI);

  const list = await get('/advertiser/statements', acme);
  assert.equal(list.statusCode, 200, list.body);
  const listed = list.json<{ data: Statement[]; meta: { total: number } }>();
  assert.deepEqual(listed.data.map((s) => [s.month, s.status]), [[month, 'open'], ['2026-02', 'open']], 'the newest month first');
  assert.deepEqual([listed.data[0]!.commission, listed.data[0]!.fee, listed.data[0]!.total, listed.data[0]!.paidAmount], [905, 272, 1_177, 500], 'fee 225 + 45 + 2 (1.5 rounded half up)');
  assert.equal('paidAt' in listed.data[0]!, false, 'not paid yet: no paidAt');
  assert.equal((await get('/advertiser/statements', globex)).json<{ meta: { total: number } }>().meta.total, 0, "another brand lists none of Acme's");

  const first = await get(`/advertiser/statements/${statement.id}?limit=2`, acme);
  assert.equal(first.statusCode, 200, first.body);
  const page1 = first.json<{ data: Statement & { lines: StatementLine[] }; meta: { total: number; totalPages: number } }>();
  assert.equal(page1.data.id, statement.id);
  assert.deepEqual([page1.data.lines.length, page1.meta.total, page1.meta.totalPages], [2, 3, 2]);
  const page2 = (await get(`/advertiser/statements/${statement.id}?limit=2&page=2`, acme)).json<{ data: { lines: StatementLine[] } }>();
  const lines = [...page1.data.lines, ...page2.data.lines];
  assert.deepEqual(lines.map((l) => [l.orderId, l.commission, l.fee, l.autoApproved]).sort(), [
    [orders[0]!.orderId, 750, 225, false],
    [orders[1]!.orderId, 150, 45, true],
    [orders[2]!.orderId, 5, 2, false],
  ].sort());

  const csv = await get(`/advertiser/statements/${statement.id}.csv`, acme);
  assert.equal(csv.statusCode, 200, csv.body);
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  assert.match(String(csv.headers['content-disposition']), new RegExp(`statement-${month}-BRL\\.csv`));
  const rows = csvRows(csv.body);
  assert.deepEqual(rows[0], ['orderId', 'affiliateId', 'orderedAt', 'lockAt', 'autoApproved', 'currency', 'value', 'commission', 'fee']);
  const body = rows.slice(1, 4);
  assert.deepEqual(body.map((r) => [r[0], r[1], r[4], r[5], r[6], r[7], r[8]]).sort(), [
    [orders[0]!.orderId, 'aff-1', 'false', 'BRL', '10000', '750', '225'],
    [orders[1]!.orderId, 'aff-1', 'true', 'BRL', '1999', '150', '45'],
    [orders[2]!.orderId, 'aff-1', 'false', 'BRL', '67', '5', '2'],
  ].sort());
  assert.deepEqual(rows[4], [], 'a blank line before the totals');
  assert.deepEqual(rows[5], ['statementId', 'month', 'currency', 'lineCount', 'commission', 'feeBasisPoints', 'fee', 'total', 'paidAmount', 'status', 'issuedAt', 'dueAt', 'paidAt']);
  assert.deepEqual(rows[6], [statement.id, month, 'BRL', '3', '905', '3000', '272', '1177', '500', 'open', statement.issuedAt, statement.dueAt, '']);
  assert.equal(rows.length, 7);
});

test("a brand's statement as PDF: its summary and every line, in the reader's language", async () => {
  const english = await get(`/advertiser/statements/${statement.id}.pdf`, acme);
  assert.equal(english.statusCode, 200, english.body);
  assert.equal(english.headers['content-type'], 'application/pdf');
  assert.equal(english.headers['content-language'], 'en', "an API key: Acme's owners chose no language");
  const { text } = await pdfText(english.rawPayload);
  for (const expected of [`Statement ${monthIn('en', month)} (BRL)`, 'Total to pay', formatMinor(1_177, 'BRL', 'en'), 'Network fee (30% of each commission)', formatMinor(272, 'BRL', 'en'), 'Paid so far', formatMinor(500, 'BRL', 'en'), 'Left to pay', formatMinor(677, 'BRL', 'en'), 'open', ...orders.map((o) => o.orderId), formatMinor(750, 'BRL', 'en')]) {
    assert.ok(text.includes(expected), `"${expected}" in:\n${text}`);
  }

  const portuguese = await get(`/advertiser/statements/${statement.id}.pdf`, await personSession({ brandId: BRANDS.acme }, 'owner', 'pt-BR'));
  assert.equal(portuguese.statusCode, 200, portuguese.body);
  assert.equal(portuguese.headers['content-language'], 'pt-BR', "the signed-in person's language");
  const pt = (await pdfText(portuguese.rawPayload)).text;
  for (const expected of [`Extrato ${monthIn('pt-BR', month)} (BRL)`, 'Total a pagar', '11,77 BRL', 'Taxa da rede (30% de cada comissão)', 'Falta pagar', '6,77 BRL', 'em aberto', 'Vencimento']) assert.ok(pt.includes(expected), `"${expected}" in:\n${pt}`);
  // With an API key, the language of the brand's first owner who chose one: now Acme has one.
  assert.equal((await get(`/advertiser/statements/${statement.id}.pdf`, acme)).headers['content-language'], 'pt-BR');
});

test("a brand never reaches another brand's statement, in any form", async () => {
  for (const suffix of ['', '.csv', '.pdf']) {
    assertError(await get(`/advertiser/statements/${statement.id}${suffix}`, globex), 404, 'statement_not_found');
    assertError(await get(`/advertiser/statements/no-such-statement${suffix}`, acme), 404, 'statement_not_found');
  }
  assertError(await get(`/advertiser/statements/${statement.id}`, h.world.keys.aff1), 403, 'forbidden');
});

test('a PDF of many lines continues on new pages, the table header repeated, every line there', async () => {
  const many: StatementLineView[] = Array.from({ length: 130 }, (_, i) => ({ orderId: `ORDER-${String(i).padStart(4, '0')}`, affiliateId: 'aff-1', value: 10_000 + i, orderedAt: '2026-10-01T10:00:00.000Z', lockAt: '2026-10-06T10:00:00.000Z', autoApproved: false, commission: 750, fee: 225 }));
  async function* batches() {
    for (let i = 0; i < many.length; i += 50) yield many.slice(i, i + 50);
  }
  const stream = await statementPdf({ ...statement, paidAt: undefined, lineCount: many.length }, 'Acme', batches(), 'en');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const { text, pages } = await pdfText(Buffer.concat(chunks));
  assert.ok(pages >= 3, `${pages} pages`);
  for (const line of many) assert.ok(text.includes(line.orderId), line.orderId);
  assert.ok(text.includes(formatMinor(10_129, 'BRL', 'en')));
  assert.ok((text.match(/Commission/g) ?? []).length >= pages, 'the header on every page');
  assert.ok(text.includes(`page ${pages}`), 'pages numbered');
});

test("an affiliate's monthly statement: JSON per currency, CSV and PDF in its language", async () => {
  // The brand pays in full: the commissions become payable; the network adjusts aff-1's balance.
  await services().statements.recordPayment(statement.id, 677, 'TX-2', CLI);
  clock.advance(DAY);
  await services().ledger.adjust({ affiliateId: 'aff-1', amount: 1_000, currency: 'BRL', reason: 'a bonus', actor: CLI });
  const now = monthOf(clock.iso());

  const res = await get(`/affiliate/statements/${now}`, h.world.keys.aff1);
  assert.equal(res.statusCode, 200, res.body);
  const { data } = res.json<{ data: AffiliateStatement[] }>();
  assert.deepEqual(data, await services().ledger.affiliateStatement('aff-1', now), 'the ledger service’s statement, as it is');
  const brl = data.find((s) => s.currency === 'BRL')!;
  assert.ok(brl.payable >= 905, 'the commissions the brand paid for became payable this month');
  assert.equal(brl.adjustments, 1_000);
  assert.equal(brl.closingBalance, brl.openingBalance + brl.approved + brl.adjustments - brl.paid + brl.returned);
  assert.ok(brl.movements.some((m) => m.kind === 'adjustment' && m.amount === 1_000 && m.adjustmentId));
  const ofOrders = data.flatMap((s) => s.movements.filter((m) => m.orderId));
  assert.ok(ofOrders.length > 0, 'the month has commissions');
  for (const m of ofOrders) assert.ok(m.orderNumber && m.brandId && m.brandName, `a commission's movement names its order and brand: ${JSON.stringify(m)}`);

  const csv = await get(`/affiliate/statements/${now}.csv`, h.world.keys.aff1);
  assert.equal(csv.statusCode, 200, csv.body);
  assert.match(String(csv.headers['content-disposition']), new RegExp(`statement-${now}\\.csv`));
  const rows = csvRows(csv.body);
  assert.deepEqual(rows[0], ['currency', 'at', 'kind', 'amount', 'orderId', 'payoutId', 'adjustmentId']);
  const movementCount = data.reduce((n, s) => n + s.movements.length, 0);
  assert.ok(rows.slice(1, 1 + movementCount).some((r) => r[0] === 'BRL' && r[2] === 'adjustment' && r[3] === '1000'));
  assert.deepEqual(rows[1 + movementCount], []);
  assert.deepEqual(rows[2 + movementCount], ['month', 'currency', 'openingBalance', 'approved', 'payable', 'paid', 'returned', 'adjustments', 'closingBalance', 'awaitingBrandPayment', 'payableBalance']);
  assert.deepEqual(rows[3 + movementCount], [now, 'BRL', brl.openingBalance, brl.approved, brl.payable, brl.paid, brl.returned, brl.adjustments, brl.closingBalance, brl.awaitingBrandPayment, brl.payableBalance].map(String));

  // For people: the same file in words, in the language of aff-1's owner (pt-BR).
  const inWords = csvRows((await get(`/affiliate/statements/${now}.csv?columns=words`, h.world.keys.aff1)).body);
  assert.deepEqual(inWords[0], ['Moeda', 'Data', 'Movimento', 'Referência', 'Valor']);
  assert.ok(inWords.slice(1, 1 + movementCount).some((r) => r[0] === 'BRL' && /^\d{2}\/\d{2}\/\d{4}$/.test(r[1]!) && r[2] === 'Ajuste' && r[4] === '10.00'), JSON.stringify(inWords));
  assert.ok(inWords.slice(1, 1 + movementCount).some((r) => r[2] === 'Comissão aprovada' && /^Pedido .+ de .+/.test(r[3]!)), 'an order named by its number and brand');
  assert.equal((await get(`/affiliate/statements/${now}.csv?columns=fancy`, h.world.keys.aff1)).statusCode, 400);

  const portuguese = await get(`/affiliate/statements/${now}.pdf`, h.world.keys.aff1);
  assert.equal(portuguese.statusCode, 200, portuguese.body);
  assert.equal(portuguese.headers['content-language'], 'pt-BR', "an API key: the language of aff-1's owner");
  const pt = (await pdfText(portuguese.rawPayload)).text;
  for (const expected of [`Extrato mensal ${monthIn('pt-BR', now)}`, 'Em BRL', 'Saldo inicial', formatMinor(brl.openingBalance, 'BRL', 'pt-BR'), 'Saldo final', formatMinor(brl.closingBalance, 'BRL', 'pt-BR'), 'Ajustes', '10,00 BRL', 'Ajuste']) {
    assert.ok(pt.includes(expected), `"${expected}" in:\n${pt}`);
  }
  const english = await get(`/affiliate/statements/${now}.pdf`, await personSession({ affiliateId: 'aff-1' }, 'member', 'en'));
  assert.equal(english.headers['content-language'], 'en', "a session: the person's own language");
  const en = (await pdfText(english.rawPayload)).text;
  for (const expected of [`Monthly statement ${monthIn('en', now)}`, 'Opening balance', 'Closing balance', formatMinor(brl.closingBalance, 'BRL', 'en'), 'Adjustments', '10.00 BRL']) assert.ok(en.includes(expected), `"${expected}" in:\n${en}`);
});

test("an affiliate's statement holds only its own money; a month not begun or malformed answers 400", async () => {
  const now = monthOf(clock.iso());
  const other = await get(`/affiliate/statements/${now}`, aff2);
  assert.equal(other.statusCode, 200, other.body);
  const theirs = other.json<{ data: AffiliateStatement[] }>().data;
  const mine = await services().ledger.affiliateStatement('aff-1', now);
  const ids = (list: AffiliateStatement[]) => list.flatMap((s) => s.movements.map((m) => m.orderId ?? m.adjustmentId ?? m.payoutId));
  assert.deepEqual(ids(theirs).filter((id) => ids(mine).includes(id)), [], "none of aff-1's movements");
  assert.ok(!(await get(`/affiliate/statements/${now}.csv`, aff2)).body.includes('adjustment,1000'));

  const next = monthOf(new Date(Date.parse(monthRange(now).to) + DAY).toISOString());
  for (const suffix of ['', '.csv', '.pdf']) {
    const future = assertError(await get(`/affiliate/statements/${next}${suffix}`, h.world.keys.aff1), 400, 'month_in_future');
    assert.match(future.message, new RegExp(now));
    for (const bad of ['2026-13', '2026-1', 'november']) assertError(await get(`/affiliate/statements/${bad}${suffix}`, h.world.keys.aff1), 400, 'invalid_month');
  }
  const empty = await get('/affiliate/statements/2001-01.pdf', aff2);
  assert.equal(empty.statusCode, 200);
  assert.ok((await pdfText(empty.rawPayload)).text.includes('Nothing was owed to you in this month.'));
  assertError(await get(`/affiliate/statements/${now}`, acme), 403, 'forbidden');
});

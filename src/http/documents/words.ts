// What the statements' PDFs say, in English and Brazilian Portuguese, and how they write amounts
// and dates in each.
import type { Language } from '../../domain/access/users-service.js';
import { formatMinor } from '../../domain/money.js';

export interface DocumentWords {
  page: (page: number) => string;
  issuedOn: (date: string) => string;
  yes: string;
  no: string;
  brand: {
    title: (month: string, currency: string) => string;
    status: Record<'open' | 'overdue' | 'paid', string>;
    statement: string;
    brand: string;
    month: string;
    statusLabel: string;
    lineCount: string;
    commission: string;
    fee: (percent: string) => string;
    total: string;
    paidAmount: string;
    due: string;
    dueAt: string;
    paidAt: string;
    columns: { orderId: string; affiliate: string; orderedAt: string; lockAt: string; auto: string; value: string; commission: string; fee: string };
    empty: string;
  };
  /** An affiliate's orders as a spreadsheet. */
  orders: {
    columns: { order: string; brand: string; date: string; status: string; currency: string; value: string; commission: string; commissionStatus: string; channel: string; label: string; coupon: string; paidAt: string };
    /** The column of the n-th sub-id (the trackers' own term, in every language). */
    subId: (n: number) => string;
    statuses: Record<string, string>;
  };
  /** The network's figures as a spreadsheet. */
  figures: {
    columns: { period: string; brand: string; affiliate: string; name: string; clicks: string; uncountedClicks: string; currency: string; orders: string; sales: string; commission: string; fee: string; declined: string; held: string; declineRate: string; holdRate: string };
  };
  affiliate: {
    title: (month: string) => string;
    affiliate: string;
    currency: (currency: string) => string;
    openingBalance: string;
    approved: string;
    payable: string;
    paid: string;
    returned: string;
    adjustments: string;
    closingBalance: string;
    awaitingBrandPayment: string;
    payableBalance: string;
    columns: { date: string; movement: string; reference: string; amount: string };
    /** A spreadsheet's columns beyond the PDF's. */
    month: string;
    currencyColumn: string;
    orderOf: (order: string, brand: string) => string;
    kinds: Record<string, string>;
    empty: string;
    nothing: string;
  };
}

const EN: DocumentWords = {
  page: (page) => `page ${page}`,
  issuedOn: (date) => `Issued on ${date}`,
  yes: 'yes',
  no: 'no',
  brand: {
    title: (month, currency) => `Statement ${month} (${currency})`,
    status: { open: 'open', overdue: 'overdue', paid: 'paid' },
    statement: 'Statement',
    brand: 'Brand',
    month: 'Month',
    statusLabel: 'Status',
    lineCount: 'Commissions billed',
    commission: 'Commissions',
    fee: (percent) => `Network fee (${percent} of each commission)`,
    total: 'Total to pay',
    paidAmount: 'Paid so far',
    due: 'Left to pay',
    dueAt: 'Due date',
    paidAt: 'Paid in full on',
    columns: { orderId: 'Order', affiliate: 'Affiliate', orderedAt: 'Ordered', lockAt: 'Locked', auto: 'Auto', value: 'Value', commission: 'Commission', fee: 'Fee' },
    empty: 'No commissions.',
  },
  orders: {
    columns: { order: 'Order', brand: 'Brand', date: 'Date', status: 'Status', currency: 'Currency', value: 'Value', commission: 'Commission', commissionStatus: 'Commission status', channel: 'Channel', label: 'Label', coupon: 'Coupon', paidAt: 'Paid on' },
    subId: (n) => `Sub-ID ${n}`,
    statuses: { pending: 'pending', held: 'held for review', approved: 'approved', payable: 'payable', paid: 'paid', canceled: 'declined' },
  },
  figures: {
    columns: { period: 'Period', brand: 'Brand id', affiliate: 'Affiliate id', name: 'Name', clicks: 'Clicks', uncountedClicks: 'Clicks not counted', currency: 'Currency', orders: 'Orders', sales: 'Sales', commission: 'Commission', fee: 'Network fee', declined: 'Declined', held: 'Held', declineRate: 'Declined (%)', holdRate: 'Held (%)' },
  },
  affiliate: {
    title: (month) => `Monthly statement ${month}`,
    affiliate: 'Affiliate',
    currency: (currency) => `In ${currency}`,
    openingBalance: 'Opening balance',
    approved: 'Commissions approved',
    payable: 'Became payable (brands paid)',
    paid: 'Paid out',
    returned: 'Returned (payouts failed)',
    adjustments: 'Adjustments',
    closingBalance: 'Closing balance',
    awaitingBrandPayment: 'of which waiting for brands to pay',
    payableBalance: 'of which payable in the next payout',
    columns: { date: 'Date', movement: 'Movement', reference: 'Reference', amount: 'Amount' },
    month: 'Month',
    currencyColumn: 'Currency',
    orderOf: (order, brand) => `Order ${order} of ${brand}`,
    kinds: { approval: 'Commission approved', opening: 'Commission owed (before statements)', adjustment: 'Adjustment', payout_sent: 'Payout sent', payout_failed: 'Payout failed, owed again' },
    empty: 'No movements this month.',
    nothing: 'Nothing was owed to you in this month.',
  },
};

const PT_BR: DocumentWords = {
  page: (page) => `página ${page}`,
  issuedOn: (date) => `Emitido em ${date}`,
  yes: 'sim',
  no: 'não',
  brand: {
    title: (month, currency) => `Extrato ${month} (${currency})`,
    status: { open: 'em aberto', overdue: 'vencido', paid: 'pago' },
    statement: 'Extrato',
    brand: 'Marca',
    month: 'Mês',
    statusLabel: 'Situação',
    lineCount: 'Comissões cobradas',
    commission: 'Comissões',
    fee: (percent) => `Taxa da rede (${percent} de cada comissão)`,
    total: 'Total a pagar',
    paidAmount: 'Pago até agora',
    due: 'Falta pagar',
    dueAt: 'Vencimento',
    paidAt: 'Pago integralmente em',
    columns: { orderId: 'Pedido', affiliate: 'Afiliado', orderedAt: 'Pedido em', lockAt: 'Travado em', auto: 'Auto', value: 'Valor', commission: 'Comissão', fee: 'Taxa' },
    empty: 'Nenhuma comissão.',
  },
  orders: {
    columns: { order: 'Pedido', brand: 'Marca', date: 'Data', status: 'Situação', currency: 'Moeda', value: 'Valor', commission: 'Comissão', commissionStatus: 'Situação da comissão', channel: 'Canal', label: 'Rótulo', coupon: 'Cupom', paidAt: 'Pago em' },
    subId: (n) => `Sub-ID ${n}`,
    statuses: { pending: 'pendente', held: 'em análise', approved: 'aprovado', payable: 'a pagar', paid: 'pago', canceled: 'recusado' },
  },
  figures: {
    columns: { period: 'Período', brand: 'Id da marca', affiliate: 'Id do afiliado', name: 'Nome', clicks: 'Cliques', uncountedClicks: 'Cliques não contados', currency: 'Moeda', orders: 'Pedidos', sales: 'Vendas', commission: 'Comissão', fee: 'Taxa da rede', declined: 'Recusados', held: 'Retidos', declineRate: 'Recusados (%)', holdRate: 'Retidos (%)' },
  },
  affiliate: {
    title: (month) => `Extrato mensal ${month}`,
    affiliate: 'Afiliado',
    currency: (currency) => `Em ${currency}`,
    openingBalance: 'Saldo inicial',
    approved: 'Comissões aprovadas',
    payable: 'Liberadas para pagamento (marcas pagaram)',
    paid: 'Pagamentos enviados',
    returned: 'Devolvidos (pagamentos que falharam)',
    adjustments: 'Ajustes',
    closingBalance: 'Saldo final',
    awaitingBrandPayment: 'dos quais aguardando o pagamento das marcas',
    payableBalance: 'dos quais a pagar no próximo pagamento',
    columns: { date: 'Data', movement: 'Movimento', reference: 'Referência', amount: 'Valor' },
    month: 'Mês',
    currencyColumn: 'Moeda',
    orderOf: (order, brand) => `Pedido ${order} de ${brand}`,
    kinds: { approval: 'Comissão aprovada', opening: 'Comissão devida (antes dos extratos)', adjustment: 'Ajuste', payout_sent: 'Pagamento enviado', payout_failed: 'Pagamento falhou, devido novamente' },
    empty: 'Nenhum movimento neste mês.',
    nothing: 'Nada lhe era devido neste mês.',
  },
};

export const wordsOf = (language: Language): DocumentWords => (language === 'pt-BR' ? PT_BR : EN);

/** An amount in cents, as people of the language write it: 123456 BRL → "1.234,56 BRL" in pt-BR. */
export const moneyIn = (language: Language) => (cents: number, currency: string) => formatMinor(cents, currency, language);

/** A day (YYYY-MM-DD of an ISO instant, UTC) as the language writes it: 2026-11-05 → 05/11/2026 in pt-BR. */
export function dayIn(language: Language, iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return language === 'pt-BR' ? `${day}/${month}/${year}` : `${year}-${month}-${day}`;
}

/** A calendar month (2026-12) as the language writes it: "dezembro de 2026", "December 2026". */
export function monthIn(language: Language, month: string): string {
  if (!/^\d{4}-\d{2}$/.test(month)) return month;
  return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
}

/** Basis points as a percentage in the language: 3000 → "30%", 3333 → "33.33%" ("33,33%" in pt-BR). */
export function percentIn(language: Language, basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = basisPoints % 100;
  const text = rest === 0 ? String(whole) : `${whole}${language === 'pt-BR' ? ',' : '.'}${String(rest).padStart(2, '0').replace(/0$/, '')}`;
  return `${text}%`;
}

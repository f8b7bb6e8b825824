// The network's figures as its operators read them: per period and per brand or affiliate, clicks
// and, per currency, orders, sales, commission, the network's fee and the decline and hold rates.
import { Type, type Static } from '@sinclair/typebox';
import { literals } from './operator.js';

export const Intervals = ['day', 'month'] as const;
export const Groupings = ['none', 'brand', 'affiliate'] as const;

const Day = (description: string) => Type.String({ format: 'date', description });

/** A range of whole UTC days, as every operator figure reads it (src/domain/console/common.ts). */
export const DayRange = {
  from: Type.Optional(Day('First UTC day of the figures (default: 29 days before to)')),
  to: Type.Optional(Day('Last UTC day of the figures, included (default: today); at most three years after from')),
};

/** The query of the figures and of their CSV. */
export const FiguresQuery = {
  ...DayRange,
  interval: Type.Optional(literals(Intervals, 'Periods of the figures over time: UTC days (default) or UTC months (the first and last cut at the range’s ends)')),
  groupBy: Type.Optional(literals(Groupings, 'Besides the periods: the figures per brand or per affiliate (default none)')),
};

const CurrencyFigures = Type.Object({
  currency: Type.String({ description: 'ISO 4217: money is never summed across currencies' }),
  orders: Type.Integer({ description: 'Orders reported in the range (by their report time), whatever became of them' }),
  sales: Type.Integer({ description: 'Their value in cents, canceled orders left out' }),
  commission: Type.Integer({ description: 'Their commission in cents, canceled commission left out (held and pending included)' }),
  fee: Type.Integer({
    description:
      'The network’s fee on that commission, in cents: for each order, what its statement line billed, or (not billed yet) the brand’s fee now, in basis points of the commission rounded half up to the cent as statements compute each line. Earned on the commission reported in the range, before any statement is issued: not what brands were billed or paid in the range.',
  }),
  declined: Type.Integer({ description: 'Orders whose commission was canceled (by the brand, a hold declined, a click that did not count)' }),
  held: Type.Integer({ description: 'Orders whose commission was ever held by the fraud rules, released or declined since or not' }),
  declineRateBp: Type.Integer({ description: 'declined / orders, in basis points (10000 = all)' }),
  holdRateBp: Type.Integer({ description: 'held / orders, in basis points' }),
});

const Figures = {
  clicks: Type.Integer({ description: 'Counted clicks' }),
  uncountedClicks: Type.Integer({ description: 'Clicks that did not count (bots, HEAD requests, repeats, suspicious, suspended)' }),
  currencies: Type.Array(CurrencyFigures, { description: 'Per currency, in code order; empty without orders' }),
};

export const NetworkFigures = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date', description: 'Included' }),
    interval: literals(Intervals),
    groupBy: literals(Groupings),
    totals: Type.Object(Figures, { description: 'The whole range' }),
    periods: Type.Array(
      Type.Object({
        period: Type.String({ description: 'YYYY-MM-DD (day) or YYYY-MM (month)' }),
        from: Type.String({ format: 'date', description: 'The period’s first day in the range' }),
        to: Type.String({ format: 'date', description: 'Its last day in the range' }),
        ...Figures,
      }),
      { description: 'Every period of the range, oldest first, empty ones too' },
    ),
    groups: Type.Optional(
      Type.Array(Type.Object({ id: Type.String({ description: 'The brand’s or affiliate’s id' }), name: Type.String(), ...Figures }), {
        description: 'Grouped: the brands or affiliates with clicks or orders in the range, most orders first (then most clicks), at most limit',
      }),
    ),
    groupCount: Type.Optional(Type.Integer({ description: 'Grouped: how many brands or affiliates had clicks or orders in the range' })),
  },
  { $id: 'NetworkFigures', description: 'The network’s clicks, orders, sales, commission and fee over a range of whole UTC days, per period and per brand or affiliate' },
);
export type NetworkFigures = Static<typeof NetworkFigures>;

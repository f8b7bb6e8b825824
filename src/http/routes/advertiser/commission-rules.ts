// The brand's commission rules (read, replaced as a whole), and the explanation of one of its
// orders' commission.
import { Type } from '@sinclair/typebox';
import { CommissionPreview, CommissionPreviewInput, CommissionRules, CommissionRulesInput, OrderCommission } from '../../../schemas/commission-rules.js';
import type { CommissionRule } from '../../../domain/orders/commission-rules.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { errorResponses } from '../../responses.js';
import { OrderIdParams } from './conversion-get.js';

export function getCommissionRulesRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/commission-rules',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Your commission rules',
        description: 'The rules in force (the latest version you saved), in the order they are tried, and your default rule after them.',
        security: [{ apiKey: [] }],
        response: { 200: Type.Object({ data: Type.Ref(CommissionRules) }) },
      },
    },
    async (request) => ({ data: await services.commissionRules.get(request.brandId) }),
  );
}

export function putCommissionRulesRoute(app: App, services: ServingServices): void {
  app.put(
    '/advertiser/commission-rules',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'Replace your commission rules',
        description:
          'Saves the whole list as your next version, used for orders reported from now on; orders already reported keep the version they were computed with, corrections included. ' +
          'Each item of an order goes to the first rule whose conditions hold (your default rule after the last): a cps rule pays its percent of the item’s price × quantity; a cpa rule its amount once per order (per: order) or per unit (per: item); the part of the order value its items do not cover (shipping, a fee) is one more unit, like an order without items, that a share pays on and an amount does not; a rule’s cap limits what it pays in one order. Each line shows its arithmetic rounded half up to the cent; the commission is the lines’ exact sum rounded once (rounding in the explanation says what that adds). ' +
          'Checked as a whole: 400 invalid_commission_rules naming the rule (rules[2]: …) when a rule comes after one without conditions (it could never match), an orderValue range is impossible (min above max), a cps value exceeds 100 or has more than two decimals, a cpa value is not whole cents, per is given on a cps rule, or a channel kind is unknown.',
        security: [{ apiKey: [] }],
        body: CommissionRulesInput,
        response: { 200: Type.Object({ data: Type.Ref(CommissionRules) }), ...errorResponses(400, 409) },
      },
    },
    async (request) => ({ data: await services.commissionRules.put(request.brandCaller, request.body.rules as CommissionRule[]) }),
  );
}

export function getConversionCommissionRoute(app: App, services: ServingServices): void {
  app.get(
    '/advertiser/conversions/:orderId/commission',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'How one of your orders’ commission was computed',
        description:
          'For the order you reported under orderId: the rules version it was computed with, the rule that took each item and the arithmetic in integer cents (the lines sum to total, which is the stored commission unless commissionReason says the network canceled it), the caps that applied, the click facts kept on the order and its attribution. Another brand’s order id, or an unknown one, answers 404.',
        security: [{ apiKey: [] }],
        params: OrderIdParams,
        response: { 200: Type.Object({ data: Type.Ref(OrderCommission) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await services.commissionRules.forBrand(request.brandId, request.params.orderId) }),
  );
}

export function previewCommissionRulesRoute(app: App, services: ServingServices): void {
  app.post(
    '/advertiser/commission-rules/preview',
    {
      schema: {
        tags: ['Advertiser'],
        summary: 'What an example order would earn',
        description:
          'Computes the commission of an example order, line by line, exactly as a reported order’s: under the rules you send (to try them before saving) or, without rules, those in force, with your default rule after them. Nothing is stored. ' +
          'The rules are checked as PUT /advertiser/commission-rules checks them: 400 invalid_commission_rules naming the rule (rules[2]: …).',
        security: [{ apiKey: [] }],
        body: CommissionPreviewInput,
        response: { 200: Type.Object({ data: Type.Ref(CommissionPreview) }), ...errorResponses(400) },
      },
    },
    async (request) => ({ data: await services.commissionRules.preview(request.brandId, request.body.rules, request.body.order) }),
  );
}

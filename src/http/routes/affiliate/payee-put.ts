import { Type } from '@sinclair/typebox';
import { PayeeInput, PayeeView } from '../../../schemas/payee.js';
import type { App } from '../../context.js';
import type { ServingServices } from '../../../services.js';
import { clientOf, SESSION_COOKIE } from '../../session-cookie.js';
import { SESSION_ONLY, userIdOf } from '../account/side.js';

export function putPayeeRoute(app: App, services: ServingServices): void {
  app.put(
    '/affiliate/payee',
    {
      schema: {
        tags: ['Payouts'],
        summary: 'Set where you are paid (payee details)',
        description: [
          'Addition to the spec. Saves your payee details whole (replacing any): legalName, country (ISO alpha-2), taxId (in Brazil a CPF or CNPJ, check digits verified; elsewhere free text, optional) and a method:',
          '`{"type":"pix","keyType":"cpf|cnpj|email|phone|random","key":…}` (each key checked for its type: a CPF or CNPJ with any punctuation, a phone as Brazilians write it, stored as +55 E.164, random as the UUID the bank made), or `{"type":"bank","iban":…}` (check digits verified), or `{"type":"bank","bankCode":"341","branch":"1234","account":"12345-6"}` (a Brazilian account).',
          'Confirm with `password`, or, if you have set up a second factor, with `code` (a current code of your authenticator app) unless this session passed its second factor within the last 10 minutes (a passkey: sign in again with it).',
          'A change mails every owner of the affiliate and holds its payouts for PAYEE_CHANGE_HOLD_HOURS (48 by default); saving the same details again changes nothing. Every bad value answers 400 naming the field and what to fix.',
          'Signed-in owners only: no API key reaches payee details (403). 503 payee_key_missing when the server has no encryption key: nothing is saved.',
        ].join(' '),
        security: SESSION_ONLY,
        body: PayeeInput,
        response: { 200: Type.Object({ data: PayeeView }) },
      },
    },
    async (request) => {
      const editor = { affiliateId: request.affiliateId, userId: userIdOf(request), sessionToken: request.cookies[SESSION_COOKIE] ?? '', client: clientOf(request) };
      // The provider types the discriminated method as unknown; the schema validated it as PayeeInput.
      return { data: await services.payees.save(editor, request.body as PayeeInput) };
    },
  );
}

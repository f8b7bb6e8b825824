// Every message in both languages: a subject, the link in the text and in the HTML, the network's
// name, and values that cannot break out of the HTML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAIL_LOCALES, renderMail, type TemplateName } from '../../src/domain/mail/templates.js';

const TEMPLATES: TemplateName[] = ['invitation', 'operator-invitation', 'password-link'];
const LINK = 'https://go.example/app/set-password?token=abc123';

test('each template in each language names the network and carries the link in text and HTML', () => {
  for (const template of TEMPLATES) {
    for (const locale of MAIL_LOCALES) {
      const mail = renderMail(template, locale, { network: 'Rede', account: 'Loja', email: 'ana@example.com', link: LINK });
      assert.ok(mail.subject.includes('Rede'), `${template} ${locale}: subject`);
      assert.ok(mail.text.includes(LINK), `${template} ${locale}: text link`);
      assert.ok(mail.html.includes(`href="${LINK}"`), `${template} ${locale}: HTML link`);
    }
  }
  assert.equal(renderMail('invitation', 'pt-BR', { network: 'Rede', account: 'Loja' }).subject, 'Você foi convidado para Loja na Rede');
  assert.equal(renderMail('invitation', 'fr', { network: 'Rede', account: 'Loja' }).subject, 'You are invited to Loja on Rede', 'English for another language');
});

test('values are escaped in the HTML', () => {
  const mail = renderMail('invitation', 'en', { network: 'Rede', account: '<script>alert("x")</script> & Co', link: LINK });
  assert.ok(!mail.html.includes('<script>'));
  assert.ok(mail.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co'));
});

test('a held commission and its release or decline, in both languages, with the amount and never a rule’s numbers', () => {
  const values = { network: 'Rede', account: 'Loja', orderId: 'A-1001', amount: 1234, currency: 'BRL', url: 'https://go.example/app/orders' };
  for (const locale of MAIL_LOCALES) {
    const held = renderMail('commission-held', locale, values);
    assert.ok(held.subject.includes('A-1001'), `${locale}: subject`);
    assert.match(held.text, /12[.,]34/, `${locale}: the amount`);
    const released = renderMail('commission-hold-resolved', locale, { ...values, outcome: 'released' });
    const declined = renderMail('commission-hold-resolved', locale, { ...values, outcome: 'declined', reason: 'Pedidos do próprio afiliado' });
    assert.notEqual(released.subject, declined.subject);
    assert.ok(declined.text.includes('Pedidos do próprio afiliado'), `${locale}: the reason`);
  }
  assert.match(renderMail('commission-held', 'pt-BR', values).subject, /em análise/);
  assert.match(renderMail('commission-hold-resolved', 'en', { ...values, outcome: 'released' }).subject, /was released/);
});

test('a suspension and a reactivation, for an affiliate and a brand, in both languages, with the reason escaped in the HTML', () => {
  const reason = 'Cliques <comprados> & falsos';
  for (const template of ['account-suspended', 'account-reactivated'] as const) {
    for (const kind of ['affiliate', 'brand'] as const) {
      for (const locale of MAIL_LOCALES) {
        const mail = renderMail(template, locale, { network: 'Rede', account: 'Loja', kind, reason, when: '2026-11-28T10:00:00.000Z' });
        assert.ok(mail.subject.includes('Loja') && mail.subject.includes('Rede'), `${template} ${kind} ${locale}: subject`);
        assert.ok(mail.text.includes(reason), `${template} ${kind} ${locale}: the reason`);
        assert.ok(mail.html.includes('Cliques &lt;comprados&gt; &amp; falsos') && !mail.html.includes('<comprados>'), `${template} ${kind} ${locale}: escaped`);
        assert.ok(mail.text.includes('2026'), `${template} ${kind} ${locale}: when`);
      }
    }
  }
  assert.match(renderMail('account-suspended', 'en', { network: 'Rede', account: 'Loja', kind: 'brand' }).text, /links to it lead to your home page without counting/);
  assert.match(renderMail('account-suspended', 'pt-BR', { network: 'Rede', account: 'Loja', kind: 'affiliate' }).text, /seus pedidos não rendem comissão/);
});

test('a change of a brand’s terms: a lowering names its date and says it waits, a raise says it pays no less, in both languages, with the brand’s page', () => {
  const values = { network: 'Rede', account: 'Loja', when: '2026-12-05T10:00:00.000Z', url: 'https://go.example/app/brands/b-1' };
  for (const locale of MAIL_LOCALES) {
    const lowering = renderMail('terms-changed', locale, { ...values, lowers: true });
    const raise = renderMail('terms-changed', locale, values);
    assert.ok(lowering.subject.includes('Loja') && lowering.subject.includes('2026'), `${locale}: the lowering's subject names the brand and the date`);
    assert.notEqual(lowering.subject, raise.subject);
    assert.ok(lowering.text.includes(values.url) && raise.text.includes(values.url), `${locale}: the brand's page`);
  }
  assert.match(renderMail('terms-changed', 'en', { ...values, lowers: true }).text, /could pay some orders less/);
  assert.match(renderMail('terms-changed', 'pt-BR', values).text, /não pagam menos/);
});

test('a raise is told as a raise, and either change names its example order, in both languages', () => {
  const values = { network: 'Rede', account: 'Loja', when: '2026-12-05T10:00:00.000Z', url: 'https://go.example/app/brands/b-1', amount: 10_000, before: 1000, after: 1500, currency: 'BRL' };
  const en = renderMail('terms-changed', 'en', { ...values, raises: true });
  assert.equal(en.subject, 'Loja raised its commission');
  assert.match(en.text, /raised its commission: its new terms pay no order less than before and some more/);
  assert.match(en.text, /For example, an order of R\$100\.00 earns R\$15\.00 instead of R\$10\.00/);
  assert.doesNotMatch(en.text, /less\b(?! than before)/);
  const pt = renderMail('terms-changed', 'pt-BR', { ...values, raises: true });
  assert.equal(pt.subject, 'Loja aumentou sua comissão');
  assert.match(pt.text, /Por exemplo, um pedido de R\$\s100,00 rende R\$\s15,00 em vez de R\$\s10,00/);
  const lowering = renderMail('terms-changed', 'pt-BR', { ...values, lowers: true, before: 1000, after: 500 });
  assert.match(lowering.text, /podem pagar menos/);
  assert.match(lowering.text, /Por exemplo, um pedido de R\$\s100,00 renderia R\$\s5,00 em vez de R\$\s10,00/);
});

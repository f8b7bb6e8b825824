// What each message says, in plain text and HTML, in English and Brazilian Portuguese. A message is
// rendered when it is sent, from the values its row keeps and the one-time link made then.
import { deviceInWords } from '../../lib/device-words.js';

export const MAIL_LOCALES = ['en', 'pt-BR'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];
export type TemplateName =
  | 'invitation'
  | 'operator-invitation'
  | 'password-link'
  | 'verify-address'
  | 'already-member'
  | 'application-received'
  | 'application-approved'
  | 'application-declined'
  | 'brand-approved'
  | 'new-device'
  | 'wrong-passwords'
  | 'second-factors-removed'
  | 'claim-filed'
  | 'claim-resolved'
  | 'commission-held'
  | 'commission-hold-resolved'
  | 'statement-issued'
  | 'statement-overdue'
  | 'payout-sent'
  | 'payout-failed'
  | 'payee-changed'
  | 'account-suspended'
  | 'account-reactivated'
  | 'terms-changed'
  | 'network-terms-changed';

export interface TemplateValues {
  /** The network's name (NETWORK_NAME). */
  network: string;
  /** The affiliate or brand whose team the person joins. */
  account?: string;
  /** The address the message goes to. */
  email?: string;
  /** The one-time link made at sending. */
  link?: string;
  /** A plain link of the service (no secret in it), where there is no one-time link. */
  url?: string;
  /** The person's name, as they gave it. */
  name?: string;
  /** affiliate (a sign-up) or brand (an application). */
  kind?: 'affiliate' | 'brand';
  /** Why an application was declined, an account suspended or reactivated. */
  reason?: string;
  /** When something happened (ISO 8601), written out in the message's language, in UTC. */
  when?: string;
  /** A browser and system, e.g. "Firefox on Linux". */
  device?: string;
  /** ISO 3166 alpha-2 (ZZ: unknown), written out as the country's name. */
  country?: string;
  /** The portal's account security page. */
  securityUrl?: string;
  /** A month, YYYY-MM. */
  month?: string;
  /** A date, YYYY-MM-DD. */
  due?: string;
  /** Where money goes, masked (e.g. "PIX cpf ***.456.789-**"). */
  method?: string;
  /** A brand's own order id. */
  orderId?: string;
  /** An amount in integer cents of currency, written out in the message's language. */
  amount?: number;
  currency?: string;
  /** How a claim was answered; how a held commission was (released or declined). */
  outcome?: 'accepted' | 'declined' | 'released';
  /** True when the network answered it (the brand did not in time). */
  byNetwork?: boolean;
  /** Payee details in one masked line, e.g. "PIX cpf ***.456.789-**". */
  summary?: string;
  /** Who made a change (their e-mail address). */
  changedBy?: string;
  /** Until when something lasts (ISO 8601), written out like `when`. */
  until?: string;
  /** A change of terms that could pay some orders less (it waits for the brand's notice). */
  lowers?: boolean;
  /** A change of terms that pays no order less and some more (in force at once). */
  raises?: boolean;
  /** The network's fee on a brand's commissions, in basis points, after and before a change. */
  fee?: number;
  previousFee?: number;
  /** Days a brand has to pay a statement, after and before a change. */
  dueDays?: number;
  previousDueDays?: number;
  /** An example order of a change of terms (its value in `amount`): its commission before and after, in cents of currency. */
  before?: number;
  after?: number;
}

/** A moment in words of `locale`, in UTC. */
function moment(iso: string | undefined, locale: MailLocale): string {
  const date = new Date(iso ?? '');
  if (Number.isNaN(date.getTime())) return '?';
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

/** A country's name in `locale`; the unknown one said so. */
function countryName(code: string | undefined, locale: MailLocale): string {
  const unknown = locale === 'pt-BR' ? 'país desconhecido' : 'unknown country';
  if (!code || !/^[A-Z]{2}$/.test(code) || code === 'ZZ') return unknown;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** An amount in cents of `currency`, in words of `locale`. */
function money(cents: number | undefined, currency: string | undefined, locale: MailLocale): string {
  if (cents === undefined || !currency) return '?';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A share in basis points as `locale` writes a percentage (250 → "2,5%" in pt-BR). */
function percent(basisPoints: number | undefined, locale: MailLocale): string {
  if (basisPoints === undefined) return '?';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}

/** A message's words: a subject, paragraphs, and the one action its link leads to. */
interface Wording {
  subject: string;
  paragraphs: string[];
  action?: string;
  closing?: string;
}

/** The greeting, with the person's name when it is known. */
const hello: Record<MailLocale, (v: TemplateValues) => string> = {
  en: (v) => (v.name ? `Hello ${v.name},` : 'Hello,'),
  'pt-BR': (v) => (v.name ? `Olá ${v.name},` : 'Olá,'),
};

const WORDING: Record<TemplateName, Record<MailLocale, (v: TemplateValues) => Wording>> = {
  invitation: {
    en: (v) => ({
      subject: `You are invited to ${v.account ?? 'a team'} on ${v.network}`,
      paragraphs: [`${v.account ?? 'A team'} added you to its team on ${v.network}, the affiliate network.`, 'Choose your password to sign in:'],
      action: 'Set your password',
      closing: 'The link works once, for 7 days. If you do not know this team, ignore this message.',
    }),
    'pt-BR': (v) => ({
      subject: `Você foi convidado para ${v.account ?? 'uma equipe'} na ${v.network}`,
      paragraphs: [`${v.account ?? 'Uma equipe'} incluiu você na equipe dela na ${v.network}, a rede de afiliados.`, 'Escolha sua senha para entrar:'],
      action: 'Definir minha senha',
      closing: 'O link funciona uma vez, por 7 dias. Se você não conhece esta equipe, ignore esta mensagem.',
    }),
  },
  'operator-invitation': {
    en: (v) => ({
      subject: `You have been made an operator of ${v.network}`,
      paragraphs: [`You have been made an operator of ${v.network}, the affiliate network: you run it from its console.`, 'Choose your password to sign in; you then set up a second factor (an authenticator app or a passkey) before anything else:'],
      action: 'Set your password',
      closing: 'The link works once, for 7 days. If you did not expect this, ignore this message and tell the network’s team.',
    }),
    'pt-BR': (v) => ({
      subject: `Você agora é operador da ${v.network}`,
      paragraphs: [`Você agora é operador da ${v.network}, a rede de afiliados: você a administra pelo console.`, 'Escolha sua senha para entrar; em seguida, configure um segundo fator (um app autenticador ou uma chave de acesso) antes de qualquer outra coisa:'],
      action: 'Definir minha senha',
      closing: 'O link funciona uma vez, por 7 dias. Se você não esperava por isso, ignore esta mensagem e avise a equipe da rede.',
    }),
  },
  'password-link': {
    en: (v) => ({
      subject: `Set a new password for ${v.network}`,
      paragraphs: [`A link to set a new password for ${v.email ?? 'your account'} on ${v.network} was asked for, by you or by an owner of your team.`],
      action: 'Set a new password',
      closing: 'The link works once, for an hour (a week if you have never set a password). If you did not ask for it, ignore this message: your password stays as it is.',
    }),
    'pt-BR': (v) => ({
      subject: `Defina uma nova senha na ${v.network}`,
      paragraphs: [`Foi pedido um link para definir uma nova senha para ${v.email ?? 'sua conta'} na ${v.network}, por você ou por um responsável da sua equipe.`],
      action: 'Definir nova senha',
      closing: 'O link funciona uma vez, por uma hora (uma semana se você nunca definiu uma senha). Se você não pediu, ignore esta mensagem: sua senha continua a mesma.',
    }),
  },
  'verify-address': {
    en: (v) => ({
      subject: `Confirm your address for ${v.network}`,
      paragraphs: [hello.en(v), v.kind === 'brand' ? `${v.account ?? 'Your company'} applied to join ${v.network}, the affiliate network, with this address.` : `You signed up to ${v.network}, the affiliate network, with this address.`, 'Confirm it so that we can look at your application:'],
      action: 'Confirm my address',
      closing: 'The link works once, for 24 hours. If you did not sign up, ignore this message: nothing happens without it.',
    }),
    'pt-BR': (v) => ({
      subject: `Confirme seu endereço na ${v.network}`,
      paragraphs: [hello['pt-BR'](v), v.kind === 'brand' ? `${v.account ?? 'Sua empresa'} pediu para entrar na ${v.network}, a rede de afiliados, com este endereço.` : `Você se cadastrou na ${v.network}, a rede de afiliados, com este endereço.`, 'Confirme-o para analisarmos seu pedido:'],
      action: 'Confirmar meu endereço',
      closing: 'O link funciona uma vez, por 24 horas. Se você não se cadastrou, ignore esta mensagem: nada acontece sem ela.',
    }),
  },
  'already-member': {
    en: (v) => ({
      subject: `You already have an account on ${v.network}`,
      paragraphs: [`Someone (perhaps you) tried to sign up to ${v.network} with ${v.email ?? 'this address'}, which already has an account. No new account was made.`, 'Sign in with it, or set a new password from the sign-in page if you forgot it:'],
      action: 'Sign in',
      closing: 'If it was not you, you need do nothing.',
    }),
    'pt-BR': (v) => ({
      subject: `Você já tem uma conta na ${v.network}`,
      paragraphs: [`Alguém (talvez você) tentou se cadastrar na ${v.network} com ${v.email ?? 'este endereço'}, que já tem uma conta. Nenhuma conta nova foi criada.`, 'Entre com ela, ou defina uma nova senha na página de entrada se a esqueceu:'],
      action: 'Entrar',
      closing: 'Se não foi você, não precisa fazer nada.',
    }),
  },
  'application-received': {
    en: (v) => ({
      subject: `We received your application to ${v.network}`,
      paragraphs: [hello.en(v), `Your address is confirmed and your application${v.account ? ` for ${v.account}` : ''} is with the ${v.network} team. We write to you here as soon as it is decided.`],
    }),
    'pt-BR': (v) => ({
      subject: `Recebemos seu pedido para a ${v.network}`,
      paragraphs: [hello['pt-BR'](v), `Seu endereço está confirmado e seu pedido${v.account ? ` para ${v.account}` : ''} está com a equipe da ${v.network}. Escrevemos para você aqui assim que ele for decidido.`],
    }),
  },
  'application-approved': {
    en: (v) => ({
      subject: `Welcome to ${v.network}`,
      paragraphs: [
        hello.en(v),
        v.kind === 'brand'
          ? `${v.account ?? 'Your brand'} is approved on ${v.network}. Set your password, then your commission and a first product or campaign: affiliates see your brand once you launch it.`
          : `Your application to ${v.network} is approved: you can sign in, find brands and make your first links.`,
      ],
      action: v.kind === 'brand' ? 'Set your password' : 'Sign in',
      ...(v.kind === 'brand' && { closing: 'The link works once, for 7 days.' }),
    }),
    'pt-BR': (v) => ({
      subject: `Boas-vindas à ${v.network}`,
      paragraphs: [
        hello['pt-BR'](v),
        v.kind === 'brand'
          ? `${v.account ?? 'Sua marca'} foi aprovada na ${v.network}. Defina sua senha, depois sua comissão e um primeiro produto ou campanha: os afiliados veem sua marca quando você a lançar.`
          : `Seu pedido para a ${v.network} foi aprovado: você já pode entrar, encontrar marcas e criar seus primeiros links.`,
      ],
      action: v.kind === 'brand' ? 'Definir minha senha' : 'Entrar',
      ...(v.kind === 'brand' && { closing: 'O link funciona uma vez, por 7 dias.' }),
    }),
  },
  'application-declined': {
    en: (v) => ({
      subject: `Your application to ${v.network}`,
      paragraphs: [hello.en(v), `We are sorry: your application${v.account ? ` for ${v.account}` : ''} to ${v.network} was declined.`, ...(v.reason ? [`The reason: ${v.reason}`] : [])],
      closing: 'You may apply again once what stood in the way has changed.',
    }),
    'pt-BR': (v) => ({
      subject: `Seu pedido para a ${v.network}`,
      paragraphs: [hello['pt-BR'](v), `Sentimos muito: seu pedido${v.account ? ` para ${v.account}` : ''} na ${v.network} foi recusado.`, ...(v.reason ? [`O motivo: ${v.reason}`] : [])],
      closing: 'Você pode pedir de novo quando o que impediu tiver mudado.',
    }),
  },
  'brand-approved': {
    en: (v) => ({
      subject: `${v.account ?? 'A brand'} approved you on ${v.network}`,
      paragraphs: [`${v.account ?? 'A brand'} approved you to promote it: its products and campaigns are in your lists, and your links to it work.`],
      action: 'Make links',
    }),
    'pt-BR': (v) => ({
      subject: `${v.account ?? 'Uma marca'} aprovou você na ${v.network}`,
      paragraphs: [`${v.account ?? 'Uma marca'} aprovou você para divulgá-la: os produtos e campanhas dela estão nas suas listas, e seus links para ela funcionam.`],
      action: 'Criar links',
    }),
  },
  'new-device': {
    en: (v) => ({
      subject: `New sign-in to your ${v.network} account`,
      paragraphs: [
        `Your account ${v.email ?? ''} on ${v.network} was signed in to from a device it had not been used on before:`,
        `When: ${moment(v.when, 'en')}\nDevice: ${deviceInWords(v.device, 'en')}\nCountry: ${countryName(v.country, 'en')}`,
        `If it was you, there is nothing to do. If not, change your password now (“Forgot your password?” on the sign-in page) and sign out your other sessions on the security page of your account${v.securityUrl ? `: ${v.securityUrl}` : ''}.`,
      ],
    }),
    'pt-BR': (v) => ({
      subject: `Novo acesso à sua conta na ${v.network}`,
      paragraphs: [
        `Sua conta ${v.email ?? ''} na ${v.network} foi acessada de um dispositivo em que ainda não tinha sido usada:`,
        `Quando: ${moment(v.when, 'pt-BR')}\nDispositivo: ${deviceInWords(v.device, 'pt-BR')}\nPaís: ${countryName(v.country, 'pt-BR')}`,
        `Se foi você, não há nada a fazer. Se não foi, troque sua senha agora (“Esqueceu sua senha?” na página de entrada) e encerre suas outras sessões na página de segurança da sua conta${v.securityUrl ? `: ${v.securityUrl}` : ''}.`,
      ],
    }),
  },
  'wrong-passwords': {
    en: (v) => ({
      subject: `Wrong passwords typed for your ${v.network} account`,
      paragraphs: [
        `Someone typed wrong passwords for your account ${v.email ?? ''} on ${v.network} several times, the last one:`,
        `When: ${moment(v.when, 'en')}\nDevice: ${deviceInWords(v.device, 'en')}\nCountry: ${countryName(v.country, 'en')}`,
        'Each further try now has to wait longer. If it was you, there is nothing to do. If not, someone may know your e-mail or hold one of your sessions: change your password (“Forgot your password?” on the sign-in page), sign out your other sessions and set up a second factor on the security page of your account' +
          (v.securityUrl ? `: ${v.securityUrl}` : '.'),
      ],
    }),
    'pt-BR': (v) => ({
      subject: `Senhas erradas digitadas para sua conta na ${v.network}`,
      paragraphs: [
        `Alguém digitou senhas erradas para sua conta ${v.email ?? ''} na ${v.network} várias vezes, a última:`,
        `Quando: ${moment(v.when, 'pt-BR')}\nDispositivo: ${deviceInWords(v.device, 'pt-BR')}\nPaís: ${countryName(v.country, 'pt-BR')}`,
        'Cada nova tentativa agora precisa esperar mais. Se foi você, não há nada a fazer. Se não foi, alguém pode conhecer seu e-mail ou ter uma das suas sessões: troque sua senha (“Esqueceu sua senha?” na página de entrada), encerre suas outras sessões e configure um segundo fator na página de segurança da sua conta' +
          (v.securityUrl ? `: ${v.securityUrl}` : '.'),
      ],
    }),
  },
  'second-factors-removed': {
    en: (v) => ({
      subject: `Your second factors on ${v.network} were removed`,
      paragraphs: [
        `At your request, the network removed the second factors of your account ${v.email ?? ''} on ${v.network} (authenticator app, recovery codes and passkeys), and signed out all your sessions.`,
        `Reason given: ${v.reason ?? '—'}`,
        `Sign in with your password and set up a second factor again on the security page of your account${v.securityUrl ? `: ${v.securityUrl}` : '.'} If you did not ask for this, tell the network at once and change your password.`,
      ],
    }),
    'pt-BR': (v) => ({
      subject: `Seus segundos fatores na ${v.network} foram removidos`,
      paragraphs: [
        `A seu pedido, a rede removeu os segundos fatores da sua conta ${v.email ?? ''} na ${v.network} (app autenticador, códigos de recuperação e chaves de acesso) e encerrou todas as suas sessões.`,
        `Motivo informado: ${v.reason ?? '—'}`,
        `Entre com sua senha e configure de novo um segundo fator na página de segurança da sua conta${v.securityUrl ? `: ${v.securityUrl}` : '.'} Se você não pediu isso, avise a rede imediatamente e troque sua senha.`,
      ],
    }),
  },
  'statement-issued': {
    en: (v) => ({
      subject: `Your ${v.network} statement for ${v.month ?? ''}`,
      paragraphs: [`${v.account ?? 'Your brand'}'s statement for ${v.month ?? ''} is ready: ${v.amount === undefined ? '' : money(v.amount, v.currency, 'en')}, the commissions your orders earned affiliates that month and the network's fee.`, `Please pay it by ${v.due ?? ''}. Affiliates are paid once it is paid.`],
      action: 'See the statement',
    }),
    'pt-BR': (v) => ({
      subject: `Seu extrato da ${v.network} de ${v.month ?? ''}`,
      paragraphs: [`O extrato de ${v.account ?? 'sua marca'} de ${v.month ?? ''} está pronto: ${v.amount === undefined ? '' : money(v.amount, v.currency, 'pt-BR')}, as comissões que seus pedidos renderam aos afiliados no mês e a taxa da rede.`, `Pague até ${v.due ?? ''}. Os afiliados recebem depois que ele for pago.`],
      action: 'Ver o extrato',
    }),
  },
  'statement-overdue': {
    en: (v) => ({
      subject: `Your ${v.network} statement for ${v.month ?? ''} is overdue`,
      paragraphs: [`${v.account ?? 'Your brand'}'s statement for ${v.month ?? ''} was due on ${v.due ?? ''}; ${v.amount === undefined ? '' : money(v.amount, v.currency, 'en')} is still to be paid.`, 'Your campaigns keep running, but the affiliates who earned these commissions are paid only once it is paid.'],
      action: 'See the statement',
    }),
    'pt-BR': (v) => ({
      subject: `Seu extrato da ${v.network} de ${v.month ?? ''} está vencido`,
      paragraphs: [`O extrato de ${v.account ?? 'sua marca'} de ${v.month ?? ''} venceu em ${v.due ?? ''}; faltam pagar ${v.amount === undefined ? '' : money(v.amount, v.currency, 'pt-BR')}.`, 'Suas campanhas continuam no ar, mas os afiliados que ganharam essas comissões só recebem depois que ele for pago.'],
      action: 'Ver o extrato',
    }),
  },
  'payout-sent': {
    en: (v) => ({
      subject: `${v.network} sent you ${v.amount === undefined ? 'a payment' : money(v.amount, v.currency, 'en')}`,
      paragraphs: [`${v.network} sent ${v.amount === undefined ? 'a payment' : money(v.amount, v.currency, 'en')} to ${v.account ?? 'you'} by ${v.method ?? 'your payout method'}.`, 'It may take a day or two to arrive, depending on the means of payment.'],
      action: 'See your payouts',
    }),
    'pt-BR': (v) => ({
      subject: `A ${v.network} enviou ${v.amount === undefined ? 'um pagamento' : money(v.amount, v.currency, 'pt-BR')} para você`,
      paragraphs: [`A ${v.network} enviou ${v.amount === undefined ? 'um pagamento' : money(v.amount, v.currency, 'pt-BR')} para ${v.account ?? 'você'} por ${v.method ?? 'seu meio de recebimento'}.`, 'Pode levar um ou dois dias para chegar, conforme o meio de pagamento.'],
      action: 'Ver seus pagamentos',
    }),
  },
  'payout-failed': {
    en: (v) => ({
      subject: `A payment from ${v.network} did not go through`,
      paragraphs: [`The payment of ${v.amount === undefined ? '' : money(v.amount, v.currency, 'en')} to ${v.account ?? 'you'} by ${v.method ?? 'your payout method'} failed${v.reason ? `: ${v.reason}` : '.'}`, 'The commissions it held are payable again and go into the next payout run. Check your payout details.'],
      action: 'Check your payout details',
    }),
    'pt-BR': (v) => ({
      subject: `Um pagamento da ${v.network} não foi concluído`,
      paragraphs: [`O pagamento de ${v.amount === undefined ? '' : money(v.amount, v.currency, 'pt-BR')} para ${v.account ?? 'você'} por ${v.method ?? 'seu meio de recebimento'} falhou${v.reason ? `: ${v.reason}` : '.'}`, 'As comissões dele voltaram a ficar a pagar e entram no próximo pagamento. Confira seus dados de recebimento.'],
      action: 'Conferir dados de recebimento',
    }),
  },

  'claim-filed': {
    en: (v) => ({
      subject: `${v.account ?? 'An affiliate'} claims order ${v.orderId ?? ''} on ${v.network}`,
      paragraphs: [
        `${v.account ?? 'An affiliate'} says your order ${v.orderId ?? ''} (${money(v.amount, v.currency, 'en')}) came through them, though your tracking did not record it.`,
        `Accept it (at that value or the actual one) or decline it saying why. Unanswered, it is accepted at the claimed value on ${moment(v.when, 'en')}.`,
      ],
      action: 'Answer the claim',
    }),
    'pt-BR': (v) => ({
      subject: `${v.account ?? 'Um afiliado'} reivindica o pedido ${v.orderId ?? ''} na ${v.network}`,
      paragraphs: [
        `${v.account ?? 'Um afiliado'} diz que seu pedido ${v.orderId ?? ''} (${money(v.amount, v.currency, 'pt-BR')}) veio por meio dele, embora seu rastreamento não o tenha registrado.`,
        `Aceite (por esse valor ou pelo real) ou recuse dizendo o motivo. Sem resposta, ele é aceito pelo valor reivindicado em ${moment(v.when, 'pt-BR')}.`,
      ],
      action: 'Responder à reivindicação',
    }),
  },
  'claim-resolved': {
    en: (v) => ({
      subject: `Your claim of order ${v.orderId ?? ''} was ${v.outcome === 'accepted' ? 'accepted' : 'declined'}`,
      paragraphs:
        v.outcome === 'accepted'
          ? [`${v.byNetwork ? `${v.account ?? 'The brand'} did not answer in time, so ${v.network} accepted` : `${v.account ?? 'The brand'} accepted`} your claim of order ${v.orderId ?? ''} at ${money(v.amount, v.currency, 'en')}: it is among your orders, its commission pending like any other.`]
          : [`${v.byNetwork ? v.network : (v.account ?? 'The brand')} declined your claim of order ${v.orderId ?? ''}.`, ...(v.reason ? [`The reason: ${v.reason}`] : [])],
      action: 'See your claims',
    }),
    'pt-BR': (v) => ({
      subject: `Sua reivindicação do pedido ${v.orderId ?? ''} foi ${v.outcome === 'accepted' ? 'aceita' : 'recusada'}`,
      paragraphs:
        v.outcome === 'accepted'
          ? [`${v.byNetwork ? `${v.account ?? 'A marca'} não respondeu a tempo, então a ${v.network} aceitou` : `${v.account ?? 'A marca'} aceitou`} sua reivindicação do pedido ${v.orderId ?? ''} por ${money(v.amount, v.currency, 'pt-BR')}: ele está entre seus pedidos, com a comissão pendente como qualquer outro.`]
          : [`${v.byNetwork ? `A ${v.network}` : (v.account ?? 'A marca')} recusou sua reivindicação do pedido ${v.orderId ?? ''}.`, ...(v.reason ? [`O motivo: ${v.reason}`] : [])],
      action: 'Ver suas reivindicações',
    }),
  },
  'commission-held': {
    en: (v) => ({
      subject: `Your commission on order ${v.orderId ?? ''} of ${v.account ?? 'a brand'} is under review`,
      paragraphs: [
        `${v.network} holds your commission of ${money(v.amount, v.currency, 'en')} on order ${v.orderId ?? ''} of ${v.account ?? 'a brand'} for review: the conversion looks unusual to our fraud checks. Nothing is decided yet.`,
        'While it is held, the commission is neither approved nor paid. We will tell you when it is released (it then goes on as any pending commission) or declined.',
      ],
      action: 'See your orders',
    }),
    'pt-BR': (v) => ({
      subject: `Sua comissão no pedido ${v.orderId ?? ''} de ${v.account ?? 'uma marca'} está em análise`,
      paragraphs: [
        `A ${v.network} retém sua comissão de ${money(v.amount, v.currency, 'pt-BR')} no pedido ${v.orderId ?? ''} de ${v.account ?? 'uma marca'} para análise: a conversão parece incomum às nossas verificações de fraude. Nada está decidido ainda.`,
        'Enquanto estiver retida, a comissão não é aprovada nem paga. Avisaremos quando ela for liberada (segue então como qualquer comissão pendente) ou recusada.',
      ],
      action: 'Ver seus pedidos',
    }),
  },
  'commission-hold-resolved': {
    en: (v) => ({
      subject: `Your commission on order ${v.orderId ?? ''} of ${v.account ?? 'a brand'} was ${v.outcome === 'released' ? 'released' : 'declined'}`,
      paragraphs:
        v.outcome === 'released'
          ? [`${v.network} reviewed order ${v.orderId ?? ''} of ${v.account ?? 'a brand'} and released your commission of ${money(v.amount, v.currency, 'en')}: it is pending again, like any other.`]
          : [`${v.network} reviewed order ${v.orderId ?? ''} of ${v.account ?? 'a brand'} and declined your commission of ${money(v.amount, v.currency, 'en')}.`, ...(v.reason ? [`The reason: ${v.reason}`] : [])],
      action: 'See your orders',
    }),
    'pt-BR': (v) => ({
      subject: `Sua comissão no pedido ${v.orderId ?? ''} de ${v.account ?? 'uma marca'} foi ${v.outcome === 'released' ? 'liberada' : 'recusada'}`,
      paragraphs:
        v.outcome === 'released'
          ? [`A ${v.network} analisou o pedido ${v.orderId ?? ''} de ${v.account ?? 'uma marca'} e liberou sua comissão de ${money(v.amount, v.currency, 'pt-BR')}: ela está pendente de novo, como qualquer outra.`]
          : [`A ${v.network} analisou o pedido ${v.orderId ?? ''} de ${v.account ?? 'uma marca'} e recusou sua comissão de ${money(v.amount, v.currency, 'pt-BR')}.`, ...(v.reason ? [`O motivo: ${v.reason}`] : [])],
      action: 'Ver seus pedidos',
    }),
  },
  'payee-changed': {
    en: (v) => ({
      subject: `Payout details of ${v.account ?? 'your account'} changed on ${v.network}`,
      paragraphs: [
        `The payout details of ${v.account ?? 'your account'} on ${v.network} were changed by ${v.changedBy ?? 'an owner'} on ${moment(v.when, 'en')}. Payouts now go to:`,
        `${v.summary ?? '?'}`,
        `To protect you, payouts are held until ${moment(v.until, 'en')}.`,
        'If you or a fellow owner made this change, there is nothing to do. If not, sign in, put the right details back, change your password and sign out the other sessions on the security page: every owner of the account is told of this change.',
      ],
      action: 'Review the payout details',
    }),
    'pt-BR': (v) => ({
      subject: `Dados de pagamento de ${v.account ?? 'sua conta'} alterados na ${v.network}`,
      paragraphs: [
        `Os dados de pagamento de ${v.account ?? 'sua conta'} na ${v.network} foram alterados por ${v.changedBy ?? 'um proprietário'} em ${moment(v.when, 'pt-BR')}. Os pagamentos agora vão para:`,
        `${v.summary ?? '?'}`,
        `Para sua proteção, os pagamentos ficam retidos até ${moment(v.until, 'pt-BR')}.`,
        'Se você ou outro proprietário fez esta alteração, não há nada a fazer. Se não, entre, coloque de volta os dados certos, troque sua senha e encerre as outras sessões na página de segurança: todos os proprietários da conta são avisados desta alteração.',
      ],
      action: 'Conferir os dados de pagamento',
    }),
  },
  'account-suspended': {
    en: (v) => ({
      subject: `${v.account ?? 'Your account'} is suspended on ${v.network}`,
      paragraphs: [
        `${v.network} suspended ${v.account ?? 'your account'} on ${moment(v.when, 'en')}.`,
        ...(v.reason ? [`The reason: ${v.reason}`] : []),
        v.kind === 'brand'
          ? 'While it lasts, your brand is out of affiliates’ sight, links to it lead to your home page without counting, and your API keys, postback token and sessions are refused.'
          : 'While it lasts, your links still take visitors to the brands but count no click, your orders earn no commission, payouts wait, and your API keys and sessions are refused.',
        'If you think this is a mistake, answer this message.',
      ],
    }),
    'pt-BR': (v) => ({
      subject: `${v.account ?? 'Sua conta'} está suspensa na ${v.network}`,
      paragraphs: [
        `A ${v.network} suspendeu ${v.account ?? 'sua conta'} em ${moment(v.when, 'pt-BR')}.`,
        ...(v.reason ? [`O motivo: ${v.reason}`] : []),
        v.kind === 'brand'
          ? 'Enquanto durar, sua marca fica fora da vista dos afiliados, os links para ela levam à sua página inicial sem contar, e suas chaves de API, seu token de postback e suas sessões são recusados.'
          : 'Enquanto durar, seus links continuam levando os visitantes às marcas, mas não contam cliques, seus pedidos não rendem comissão, os pagamentos esperam, e suas chaves de API e sessões são recusadas.',
        'Se você acha que é um engano, responda a esta mensagem.',
      ],
    }),
  },
  'account-reactivated': {
    en: (v) => ({
      subject: `${v.account ?? 'Your account'} is active again on ${v.network}`,
      paragraphs: [
        `${v.network} reactivated ${v.account ?? 'your account'} on ${moment(v.when, 'en')}.`,
        ...(v.reason ? [`The reason: ${v.reason}`] : []),
        v.kind === 'brand'
          ? 'Your brand is back in affiliates’ lists, links to it count again, and your API keys, postback token and sessions work again.'
          : 'Your links count clicks again, your new orders earn commissions, payouts resume, and your API keys and sessions work again. Orders reported while the account was suspended keep no commission.',
      ],
    }),
    'pt-BR': (v) => ({
      subject: `${v.account ?? 'Sua conta'} está ativa de novo na ${v.network}`,
      paragraphs: [
        `A ${v.network} reativou ${v.account ?? 'sua conta'} em ${moment(v.when, 'pt-BR')}.`,
        ...(v.reason ? [`O motivo: ${v.reason}`] : []),
        v.kind === 'brand'
          ? 'Sua marca voltou às listas dos afiliados, os links para ela voltam a contar, e suas chaves de API, seu token de postback e suas sessões funcionam de novo.'
          : 'Seus links voltam a contar cliques, seus novos pedidos rendem comissão, os pagamentos voltam, e suas chaves de API e sessões funcionam de novo. Os pedidos informados enquanto a conta estava suspensa continuam sem comissão.',
      ],
    }),
  },
  'terms-changed': {
    en: (v) => ({
      subject: v.lowers ? `${v.account ?? 'A brand'} changes its commission on ${moment(v.when, 'en')}` : v.raises ? `${v.account ?? 'A brand'} raised its commission` : `${v.account ?? 'A brand'} changed its commission`,
      paragraphs: [
        ...(v.lowers
          ? [
              `${v.account ?? 'A brand'}, which you promote on ${v.network}, saved new commission terms that could pay some orders less. They apply to orders reported from ${moment(v.when, 'en')}; until then, and for every order reported before, the terms in force now apply.`,
            ]
          : v.raises
            ? [`${v.account ?? 'A brand'}, which you promote on ${v.network}, raised its commission: its new terms pay no order less than before and some more, for orders reported from ${moment(v.when, 'en')}.`]
            : [`${v.account ?? 'A brand'}, which you promote on ${v.network}, changed its commission terms: they pay no less than before, for orders reported from ${moment(v.when, 'en')}.`]),
        ...exampleOf(v, 'en'),
        ...(v.lowers ? ['The brand’s page shows the terms in force and the upcoming ones.'] : []),
      ],
      action: 'See the brand’s terms',
    }),
    'pt-BR': (v) => ({
      subject: v.lowers ? `${v.account ?? 'Uma marca'} muda sua comissão em ${moment(v.when, 'pt-BR')}` : v.raises ? `${v.account ?? 'Uma marca'} aumentou sua comissão` : `${v.account ?? 'Uma marca'} mudou sua comissão`,
      paragraphs: [
        ...(v.lowers
          ? [
              `${v.account ?? 'Uma marca'}, que você divulga na ${v.network}, salvou novas condições de comissão que podem pagar menos em alguns pedidos. Elas valem para pedidos informados a partir de ${moment(v.when, 'pt-BR')}; até lá, e para todo pedido informado antes, valem as condições de agora.`,
            ]
          : v.raises
            ? [`${v.account ?? 'Uma marca'}, que você divulga na ${v.network}, aumentou sua comissão: as novas condições não pagam menos do que antes em nenhum pedido e pagam mais em alguns, para pedidos informados a partir de ${moment(v.when, 'pt-BR')}.`]
            : [`${v.account ?? 'Uma marca'}, que você divulga na ${v.network}, mudou suas condições de comissão: elas não pagam menos do que antes, para pedidos informados a partir de ${moment(v.when, 'pt-BR')}.`]),
        ...exampleOf(v, 'pt-BR'),
        ...(v.lowers ? ['A página da marca mostra as condições em vigor e as próximas.'] : []),
      ],
      action: 'Ver as condições da marca',
    }),
  },
  'network-terms-changed': {
    en: (v) => ({
      subject: `${v.network} changed its terms for ${v.account ?? 'your brand'}`,
      paragraphs: [
        `${v.network} changed its terms for ${v.account ?? 'your brand'}'s statements: its fee is ${percent(v.fee, 'en')} of each commission (it was ${percent(v.previousFee, 'en')}), and you have ${v.dueDays ?? '?'} day(s) to pay a statement (it was ${v.previousDueDays ?? '?'}).`,
        `Why: ${v.reason ?? ''}`,
        'The next statement issued bills with these terms; statements issued already keep theirs.',
      ],
      action: 'See your statements',
    }),
    'pt-BR': (v) => ({
      subject: `A ${v.network} mudou as condições de ${v.account ?? 'sua marca'}`,
      paragraphs: [
        `A ${v.network} mudou as condições dos extratos de ${v.account ?? 'sua marca'}: a taxa é de ${percent(v.fee, 'pt-BR')} de cada comissão (era ${percent(v.previousFee, 'pt-BR')}), e o prazo para pagar um extrato é de ${v.dueDays ?? '?'} dia(s) (era ${v.previousDueDays ?? '?'}).`,
        `Motivo: ${v.reason ?? ''}`,
        'O próximo extrato emitido já usa essas condições; os extratos já emitidos mantêm as deles.',
      ],
      action: 'Ver meus extratos',
    }),
  },
};

/** A change of terms' example order, in a sentence: what it earned and what it earns (or would). */
function exampleOf(v: TemplateValues, locale: MailLocale): string[] {
  if (v.amount === undefined || v.before === undefined || v.after === undefined) return [];
  const [value, before, after] = [v.amount, v.before, v.after].map((cents) => money(cents, v.currency, locale));
  if (locale === 'pt-BR') return [`Por exemplo, um pedido de ${value} ${v.lowers ? 'renderia' : 'rende'} ${after} em vez de ${before}, conforme as condições que a página da marca mostra.`];
  return [`For example, an order of ${value} ${v.lowers ? 'would earn' : 'earns'} ${after} instead of ${before}, under the terms the brand’s page shows.`];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function isTemplate(name: string): name is TemplateName {
  return name in WORDING;
}

/** The message in the person's language (English when theirs is not one of ours). */
export function renderMail(template: TemplateName, locale: string, values: TemplateValues): RenderedMail {
  const wording = WORDING[template][(MAIL_LOCALES as readonly string[]).includes(locale) ? (locale as MailLocale) : 'en'](values);
  const target = values.link ?? values.url;
  const action = wording.action && target ? { label: wording.action, url: target } : undefined;
  const text = [...wording.paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), ...(wording.closing ? [wording.closing] : []), `— ${values.network}`].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111827">',
    ...wording.paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.url)}" style="display: inline-block; padding: 0.6em 1em; background: #1d4ed8; color: #fff; border-radius: 6px; text-decoration: none">${escapeHtml(action.label)}</a></p>`, `<p style="font-size: 0.9em; color: #4b5563">${escapeHtml(action.url)}</p>`] : []),
    ...(wording.closing ? [`<p style="font-size: 0.9em; color: #4b5563">${escapeHtml(wording.closing)}</p>`] : []),
    `<p>— ${escapeHtml(values.network)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: wording.subject, text, html };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

// What each message says, in plain text and HTML, in English and Brazilian Portuguese. A message is
// rendered when it is sent, from the values its row keeps and the one-time link made then.
export const MAIL_LOCALES = ['en', 'pt-BR'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];
export type TemplateName = 'invitation' | 'password-link' | 'new-device';

export interface TemplateValues {
  /** The network's name (NETWORK_NAME). */
  network: string;
  /** The affiliate or brand whose team the person joins. */
  account?: string;
  /** The address the message goes to. */
  email?: string;
  /** The one-time link made at sending. */
  link?: string;
  /** When something happened (ISO 8601), written out in the message's language, in UTC. */
  when?: string;
  /** A browser and system, e.g. "Firefox on Linux". */
  device?: string;
  /** ISO 3166 alpha-2 (ZZ: unknown), written out as the country's name. */
  country?: string;
  /** The portal's account security page. */
  securityUrl?: string;
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

/** A message's words: a subject, paragraphs, and the one action its link leads to. */
interface Wording {
  subject: string;
  paragraphs: string[];
  action?: string;
  closing?: string;
}

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
  'new-device': {
    en: (v) => ({
      subject: `New sign-in to your ${v.network} account`,
      paragraphs: [
        `Your account ${v.email ?? ''} on ${v.network} was signed in to from a device it had not been used on before:`,
        `When: ${moment(v.when, 'en')}\nDevice: ${v.device ?? 'unknown'}\nCountry: ${countryName(v.country, 'en')}`,
        `If it was you, there is nothing to do. If not, change your password now (“Forgot your password?” on the sign-in page) and sign out your other sessions on the security page of your account${v.securityUrl ? `: ${v.securityUrl}` : ''}.`,
      ],
    }),
    'pt-BR': (v) => ({
      subject: `Novo acesso à sua conta na ${v.network}`,
      paragraphs: [
        `Sua conta ${v.email ?? ''} na ${v.network} foi acessada de um dispositivo em que ainda não tinha sido usada:`,
        `Quando: ${moment(v.when, 'pt-BR')}\nDispositivo: ${v.device ?? 'desconhecido'}\nPaís: ${countryName(v.country, 'pt-BR')}`,
        `Se foi você, não há nada a fazer. Se não foi, troque sua senha agora (“Esqueceu sua senha?” na página de entrada) e encerre suas outras sessões na página de segurança da sua conta${v.securityUrl ? `: ${v.securityUrl}` : ''}.`,
      ],
    }),
  },
};

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
  const action = wording.action && values.link ? { label: wording.action, url: values.link } : undefined;
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

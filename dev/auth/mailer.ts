// Auth emails over SMTP to the local mail catcher (maildev), rendered from the same Go-template
// files Supabase is configured with (supabase/templates/*.html). Only the plain `{{ .Name }}`
// substitutions those templates use are understood. A send that fails (catcher down) rejects;
// the endpoints send in the background and log the failure, so their answer (and its timing)
// never depends on the mail.
import { readFile } from 'node:fs/promises';
import nodemailer from 'nodemailer';

export type TemplateData = Record<'SiteURL' | 'TokenHash' | 'Email' | 'RedirectTo', string>;

/** GoTrue's default reauthentication email (Supabase has no template of ours for it). */
const REAUTHENTICATION_TEMPLATE = `<!doctype html>
<html><head><title>Confirm reauthentication</title></head>
<body><h2>Confirm reauthentication</h2><p>Enter the code: {{ .Token }}</p></body></html>`;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Substitutes `{{ .Name }}` with the HTML-escaped value, as Go's html/template would. */
export function renderTemplate(template: string, data: Partial<Record<string, string>>): string {
  return template.replace(/\{\{-?\s*\.(\w+)\s*-?\}\}/g, (whole, name: string) => {
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    return value === undefined ? whole : escapeHtml(value);
  });
}

/** A plain-text part for mail clients that do not show HTML: the visible text, links spelled out. */
function plainText(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2: $1')
    .replace(/<(br|\/p|\/h\d|\/tr|\/div)[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

export interface Mailer {
  sendRecovery(to: string, data: TemplateData): Promise<void>;
  /** The email_change template, to the new address (`Email` the current one, `NewEmail` the new). */
  sendEmailChange(to: string, data: TemplateData & { NewEmail: string }): Promise<void>;
  /** The 6-digit code GET /reauthenticate sends, for PUT /user's `nonce`. */
  sendReauthentication(to: string, data: { Token: string; Email: string; SiteURL: string }): Promise<void>;
  close(): void;
}

export function createMailer(options: {
  smtp: { host: string; port: number };
  from: string;
  recoveryTemplatePath: string;
  /** Default: email_change.html next to the recovery template. */
  emailChangeTemplatePath?: string;
}): Mailer {
  const emailChangeTemplatePath =
    options.emailChangeTemplatePath ?? options.recoveryTemplatePath.replace(/recovery\.html$/, 'email_change.html');
  const transport = nodemailer.createTransport({
    host: options.smtp.host,
    port: options.smtp.port,
    secure: false,
    ignoreTLS: true,
  });
  async function sendTemplate(path: string, to: string, data: Record<string, string>, fallbackSubject: string) {
    const template = await readFile(path, 'utf8');
    const html = renderTemplate(template, data);
    const title = /<title>([^<]*)<\/title>/i.exec(template)?.[1]?.trim();
    await transport.sendMail({
      from: options.from,
      to,
      subject: title || fallbackSubject,
      html,
      text: plainText(html),
    });
  }
  return {
    async sendRecovery(to, data) {
      await sendTemplate(options.recoveryTemplatePath, to, data, 'Reset your FareBack password');
    },
    async sendEmailChange(to, data) {
      await sendTemplate(emailChangeTemplatePath, to, data, 'Confirm your new FareBack email address');
    },
    async sendReauthentication(to, data) {
      const html = renderTemplate(REAUTHENTICATION_TEMPLATE, data);
      await transport.sendMail({
        from: options.from,
        to,
        subject: 'Confirm reauthentication',
        html,
        text: plainText(html),
      });
    },
    close() {
      transport.close();
    },
  };
}

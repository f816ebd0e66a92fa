// A local stand-in for the parts of Google the Gmail connection talks to, on one base URL:
// OAuth 2.0 authorization (the consent page is the account chooser the local Google sign-in
// shows, dev/auth/google-chooser.ts), the token endpoint (authorization code with PKCE S256,
// refresh), revocation, and the Gmail API calls a scan makes (profile, message search, raw
// message, history). It keeps Google's rules that matter to FareBack: a code is single use, bound
// to its client, redirect URI and PKCE challenge; a revoked grant refuses its refresh and access
// tokens; Gmail answers 401 for a dead token and 404 for a history id older than it keeps. Each
// account's mailbox starts as the repository's sample mailbox (dev/mailbox). Tests steer it
// (failures, expiry, revocation by the user, new mail) and read what it was asked.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderGoogleChooser } from '../auth/google-chooser.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SAMPLE_MAILBOX_DIR = path.join(here, '../mailbox');

interface PendingAuthorization {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string;
  scope: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  email: string;
  used: boolean;
  expiresAt: number;
}

interface Grant {
  id: string;
  email: string;
  revoked: boolean;
}

interface Message {
  id: string;
  raw: Buffer;
  historyId: number;
}

interface Mailbox {
  messages: Message[];
  historyId: number;
  /** History older than this is gone (404), as Gmail keeps about a week. */
  oldestHistoryId: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  form: Record<string, string>;
}

export interface GoogleStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  requests: RecordedRequest[];
  /**
   * The next `times` Gmail API calls answer `status` (429 with Retry-After `retryAfter` seconds,
   * default 1); only those of `account`, and whose path after users/me/ starts with `only`, when
   * given.
   */
  failGmail(status: number, times: number, options?: { retryAfter?: number; only?: string; account?: string }): void;
  /** The user removes FareBack's access in their Google account: every token of theirs dies. */
  revokeByUser(email: string): void;
  /** Access tokens of this account expire now (refresh still works). */
  expireAccessTokens(email: string): void;
  /** New mail in an account's inbox; answers its Gmail id. */
  deliver(email: string, raw: string | Buffer): string;
  /** Gmail's history before now is no longer kept for this account. */
  forgetHistory(email: string): void;
  stop(): Promise<void>;
}

const base64Url = (buffer: Buffer) => buffer.toString('base64url');
const sha256 = (text: string) => base64Url(createHash('sha256').update(text).digest());

function sampleMessages(dir: string): Buffer[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map((name) => readFileSync(path.join(dir, name)));
  } catch {
    return [];
  }
}

export async function startGoogleStandIn(
  options: { port?: number; clientId?: string; clientSecret?: string; mailboxDir?: string } = {},
): Promise<GoogleStandIn> {
  const clientId = options.clientId ?? 'fareback-local.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? `GOCSPX-${randomBytes(12).toString('hex')}`;
  const seed = sampleMessages(options.mailboxDir ?? SAMPLE_MAILBOX_DIR);
  const pending = new Map<string, PendingAuthorization>();
  const codes = new Map<string, IssuedCode>();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { grantId: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { grantId: string }>();
  const mailboxes = new Map<string, Mailbox>();
  const accounts = new Map<string, string | null>();
  const requests: RecordedRequest[] = [];
  let gmailFailures: {
    status: number;
    times: number;
    retryAfter: number;
    only: string;
    account: string | null;
  } | null = null;
  let nextMessage = 0x18c0000;

  const mailboxOf = (email: string): Mailbox => {
    let box = mailboxes.get(email);
    if (!box) {
      box = { messages: [], historyId: 1000, oldestHistoryId: 0 };
      for (const raw of seed) box.messages.push({ id: (nextMessage++).toString(16), raw, historyId: ++box.historyId });
      mailboxes.set(email, box);
    }
    return box;
  };

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
  function redirect(res: http.ServerResponse, to: string) {
    res.writeHead(302, { location: to });
    res.end();
  }
  function withParams(base: string, params: Record<string, string | null>): string {
    const url = new URL(base);
    for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
    return url.toString();
  }

  async function readForm(req: http.IncomingMessage): Promise<Record<string, string>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
  }

  function issueTokens(grantId: string, withRefresh: boolean) {
    const access = `ya29.${randomBytes(24).toString('base64url')}`;
    accessTokens.set(access, { grantId, expiresAt: Date.now() + 3600_000 });
    const body: Record<string, unknown> = {
      access_token: access,
      expires_in: 3599,
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
      token_type: 'Bearer',
    };
    if (withRefresh) {
      const refresh = `1//${randomBytes(24).toString('base64url')}`;
      refreshTokens.set(refresh, { grantId });
      body.refresh_token = refresh;
    }
    return body;
  }

  function tokenEndpoint(form: Record<string, string>, res: http.ServerResponse) {
    if (form.client_id !== clientId || form.client_secret !== clientSecret) {
      return send(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
    }
    if (form.grant_type === 'authorization_code') {
      const issued = codes.get(form.code ?? '');
      if (!issued || issued.used || issued.expiresAt < Date.now()) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
      }
      issued.used = true;
      if (issued.redirectUri !== form.redirect_uri) {
        return send(res, 400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' });
      }
      if (!form.code_verifier)
        return send(res, 400, { error: 'invalid_grant', error_description: 'Missing code verifier.' });
      if (sha256(form.code_verifier) !== issued.challenge) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
      }
      const grant: Grant = { id: randomBytes(8).toString('hex'), email: issued.email, revoked: false };
      grants.set(grant.id, grant);
      return send(res, 200, issueTokens(grant.id, true));
    }
    if (form.grant_type === 'refresh_token') {
      const refresh = refreshTokens.get(form.refresh_token ?? '');
      const grant = refresh ? grants.get(refresh.grantId) : undefined;
      if (!grant || grant.revoked) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      }
      return send(res, 200, issueTokens(grant.id, false));
    }
    return send(res, 400, { error: 'unsupported_grant_type' });
  }

  function grantOfToken(token: string): Grant | undefined {
    const id = accessTokens.get(token)?.grantId ?? refreshTokens.get(token)?.grantId;
    return id ? grants.get(id) : undefined;
  }

  function gmail(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const access = accessTokens.get(token);
    const grant = access ? grants.get(access.grantId) : undefined;
    if (!access || !grant || grant.revoked || access.expiresAt < Date.now()) {
      return send(res, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    }
    const rest = url.pathname.slice('/gmail/v1/users/me/'.length);
    if (
      gmailFailures &&
      gmailFailures.times > 0 &&
      rest.startsWith(gmailFailures.only) &&
      (gmailFailures.account === null || gmailFailures.account === grant.email)
    ) {
      gmailFailures.times -= 1;
      const { status, retryAfter } = gmailFailures;
      return send(
        res,
        status,
        {
          error: { code: status, message: 'User-rate limit exceeded.', errors: [{ reason: 'userRateLimitExceeded' }] },
        },
        status === 429 ? { 'retry-after': String(retryAfter) } : {},
      );
    }
    const box = mailboxOf(grant.email);
    if (rest === 'profile') {
      return send(res, 200, {
        emailAddress: grant.email,
        messagesTotal: box.messages.length,
        historyId: String(box.historyId),
      });
    }
    if (rest === 'messages') {
      const newestFirst = [...box.messages].reverse();
      const max = Math.min(500, Number(url.searchParams.get('maxResults') ?? 100));
      const offset = Number(url.searchParams.get('pageToken') ?? 0);
      const page = newestFirst.slice(offset, offset + max);
      const body: Record<string, unknown> = {
        messages: page.map((m) => ({ id: m.id, threadId: m.id })),
        resultSizeEstimate: newestFirst.length,
      };
      if (offset + max < newestFirst.length) body.nextPageToken = String(offset + max);
      return send(res, 200, body);
    }
    const one = /^messages\/([0-9a-f]+)$/.exec(rest);
    if (one) {
      const message = box.messages.find((m) => m.id === one[1]);
      if (!message) return send(res, 404, { error: { code: 404, message: 'Requested entity was not found.' } });
      return send(res, 200, {
        id: message.id,
        threadId: message.id,
        historyId: String(message.historyId),
        raw: base64Url(message.raw),
      });
    }
    if (rest === 'history') {
      const start = Number(url.searchParams.get('startHistoryId'));
      if (!Number.isFinite(start) || start < box.oldestHistoryId) {
        return send(res, 404, { error: { code: 404, message: 'Requested entity was not found.' } });
      }
      const added = box.messages.filter((m) => m.historyId > start);
      return send(res, 200, {
        history: added.map((m) => ({
          id: String(m.historyId),
          messagesAdded: [{ message: { id: m.id, threadId: m.id } }],
        })),
        historyId: String(box.historyId),
      });
    }
    return send(res, 404, { error: { code: 404, message: 'Not Found' } });
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = req.method === 'POST' ? await readForm(req) : {};
      requests.push({ method: req.method ?? 'GET', path: url.pathname, form });

      if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
        const p = url.searchParams;
        if (p.get('client_id') !== clientId) {
          res.writeHead(401, { 'content-type': 'text/plain' });
          return res.end('Error 401: invalid_client. The OAuth client was not found.');
        }
        const redirectUri = p.get('redirect_uri') ?? '';
        if (!/^https?:\/\//.test(redirectUri)) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          return res.end('Error 400: redirect_uri_mismatch');
        }
        const state = p.get('state');
        if (
          p.get('response_type') !== 'code' ||
          !p.get('code_challenge') ||
          p.get('code_challenge_method') !== 'S256'
        ) {
          return redirect(res, withParams(redirectUri, { error: 'invalid_request', state }));
        }
        const id = randomBytes(16).toString('hex');
        pending.set(id, {
          clientId,
          redirectUri,
          state,
          challenge: p.get('code_challenge') ?? '',
          scope: p.get('scope') ?? '',
        });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          renderGoogleChooser({
            accounts: [...accounts].map(([email, name]) => ({ email, name })),
            state: id,
            callbackPath: '/o/oauth2/v2/approve',
            cancelUrl: `/o/oauth2/v2/deny?request=${id}`,
          }),
        );
      }
      if (req.method === 'POST' && url.pathname === '/o/oauth2/v2/approve') {
        const request = pending.get(form.state ?? '');
        const email = (form.email ?? '').trim().toLowerCase();
        if (!request || !email) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          return res.end('Error 400: invalid_request');
        }
        pending.delete(form.state ?? '');
        accounts.set(email, form.name?.trim() || null);
        const code = `4/${randomBytes(24).toString('base64url')}`;
        codes.set(code, { ...request, email, used: false, expiresAt: Date.now() + 600_000 });
        return redirect(res, withParams(request.redirectUri, { code, state: request.state, scope: request.scope }));
      }
      if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/deny') {
        const request = pending.get(url.searchParams.get('request') ?? '');
        if (!request) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          return res.end('Error 400: invalid_request');
        }
        pending.delete(url.searchParams.get('request') ?? '');
        return redirect(res, withParams(request.redirectUri, { error: 'access_denied', state: request.state }));
      }
      if (req.method === 'POST' && url.pathname === '/token') return tokenEndpoint(form, res);
      if (req.method === 'POST' && url.pathname === '/revoke') {
        const grant = grantOfToken(form.token ?? url.searchParams.get('token') ?? '');
        if (!grant || grant.revoked)
          return send(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
        grant.revoked = true;
        return send(res, 200, {});
      }
      if (url.pathname.startsWith('/gmail/v1/users/me/')) return gmail(req, url, res);
      return send(res, 404, { error: 'not_found' });
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    requests,
    failGmail(status, times, options = {}) {
      gmailFailures = {
        status,
        times,
        retryAfter: options.retryAfter ?? 1,
        only: options.only ?? '',
        account: options.account?.toLowerCase() ?? null,
      };
    },
    revokeByUser(email) {
      for (const grant of grants.values()) if (grant.email === email.toLowerCase()) grant.revoked = true;
    },
    expireAccessTokens(email) {
      for (const [, access] of accessTokens) {
        if (grants.get(access.grantId)?.email === email.toLowerCase()) access.expiresAt = 0;
      }
    },
    deliver(email, raw) {
      const box = mailboxOf(email.toLowerCase());
      const message = { id: (nextMessage++).toString(16), raw: Buffer.from(raw), historyId: ++box.historyId };
      box.messages.push(message);
      return message.id;
    },
    forgetHistory(email) {
      const box = mailboxOf(email.toLowerCase());
      box.oldestHistoryId = box.historyId + 1;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

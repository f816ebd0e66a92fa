// Request bodies and query strings of the email import calls, shared by the api and the web app
// (the 'Enter Authorization Code' dialog validates with the same schema).
import { z } from 'zod';
import { listQuerySchema } from './pagination.ts';

export const AUTHORIZATION_CODE_MESSAGES = {
  /** The toast's title and description when the code is empty. */
  title: 'Authorization code required',
  description: 'Please enter the authorization code you received.',
} as const;

/** `POST /api/email/manual-token-exchange` */
export const manualTokenExchangeSchema = z.object({
  code: z
    .string({ error: AUTHORIZATION_CODE_MESSAGES.title })
    .trim()
    .min(1, { error: AUTHORIZATION_CODE_MESSAGES.title })
    .max(2048, { error: 'Authorization code is too long' }),
});
export type ManualTokenExchangeInput = z.infer<typeof manualTokenExchangeSchema>;

/**
 * `POST /api/email/oauth-exchange`: the code and state Google returned to the browser, sent by the
 * site's `/connect-email` page under the session that started the connection.
 */
export const oauthExchangeSchema = z.object({
  code: z.string({ error: 'Authorization code required' }).min(1, { error: 'Authorization code required' }).max(2048),
  state: z.string({ error: 'State required' }).min(1, { error: 'State required' }).max(256),
});
export type OAuthExchangeInput = z.infer<typeof oauthExchangeSchema>;

/** `GET /api/email/messages`: newest read first by default. */
export const importedEmailsQuerySchema = listQuerySchema({
  sortKeys: ['readAt', 'date'] as const,
  defaultSort: 'readAt',
  defaultOrder: 'desc',
});

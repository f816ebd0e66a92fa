// The contact form's request body. The web form validates with this same
// schema, so the minimums and their messages live only here. The maximums match the CHECK
// constraints of public.contact_messages (migration 20261122001000_contact.sql): oversized input
// is refused here with a message naming the field, never by the database.
import { z } from 'zod';
import { CONTACT_MESSAGE_MIN_LENGTH, CONTACT_NAME_MIN_LENGTH, CONTACT_SUBJECT_MIN_LENGTH } from '../constants.ts';

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const CONTACT_SUBJECT_MAX_LENGTH = 200;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

export const CONTACT_MESSAGES = {
  name: `Name must be at least ${CONTACT_NAME_MIN_LENGTH} characters`,
  email: 'Please enter a valid email address',
  subject: `Subject must be at least ${CONTACT_SUBJECT_MIN_LENGTH} characters`,
  message: `Message must be at least ${CONTACT_MESSAGE_MIN_LENGTH} characters`,
} as const;

/** A text field, trimmed; missing or wrong-typed input gets the field's own minimum message. */
function trimmedText(label: string, min: number, max: number, tooShort: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`,
    })
    .trim()
    .min(min, { error: tooShort, abort: true })
    .max(max, { error: `${label} must be at most ${max} characters` });
}

export const contactInputSchema = z.object({
  name: trimmedText('Name', CONTACT_NAME_MIN_LENGTH, CONTACT_NAME_MAX_LENGTH, CONTACT_MESSAGES.name),
  email: z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'Email is required' : 'Email must be text',
    })
    .trim()
    .max(CONTACT_EMAIL_MAX_LENGTH, {
      error: `Email must be at most ${CONTACT_EMAIL_MAX_LENGTH} characters`,
      abort: true,
    })
    .pipe(z.email({ error: CONTACT_MESSAGES.email })),
  subject: trimmedText('Subject', CONTACT_SUBJECT_MIN_LENGTH, CONTACT_SUBJECT_MAX_LENGTH, CONTACT_MESSAGES.subject),
  message: trimmedText('Message', CONTACT_MESSAGE_MIN_LENGTH, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES.message),
});
export type ContactInput = z.infer<typeof contactInputSchema>;

/** What POST /api/contact answers with 201. */
export interface ContactResponse {
  message: string;
}

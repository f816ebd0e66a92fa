// Request bodies of the account endpoints. The sign-up, login, forgot- and reset-password forms
// validate with these same schemas, so a rule and its message live only here.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../constants.ts';

/** Missing and wrong-typed values both name the field: "Email is required" / "Email must be text". */
function textField(label: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`,
  });
}

export const PASSWORD_STRENGTH_MESSAGE =
  'Password must contain an uppercase letter, a lowercase letter, a number and a special character (@$!%*?&)';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

/** Email addresses are stored and compared lower-case; 254 is the longest address SMTP allows. */
const emailField = textField('Email')
  .trim()
  .min(1, { error: 'Email is required', abort: true })
  .max(254, { error: 'Email must be at most 254 characters', abort: true })
  .pipe(z.email({ error: INVALID_EMAIL_MESSAGE }))
  .transform((email) => email.toLowerCase());

/** Shown under every new-password field (sign-up, reset, change): the words of `passwordRule`. */
export const PASSWORD_HINT = 'At least 8 characters with uppercase, lowercase, number and special character (@$!%*?&).';

/** The rule shown on sign-up: 8-100 characters with upper, lower, digit and one of @$!%*?&. */
export const passwordRule = textField('Password')
  .min(PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  })
  .max(PASSWORD_MAX_LENGTH, {
    error: `Password must be less than ${PASSWORD_MAX_LENGTH} characters`,
    abort: true,
  })
  .refine(
    (password) => /[a-z]/.test(password) && /[A-Z]/.test(password) && /\d/.test(password) && /[@$!%*?&]/.test(password),
    {
      error: PASSWORD_STRENGTH_MESSAGE,
    },
  );

/** bcrypt, which Supabase Auth stores passwords with, reads at most 72 bytes; Auth refuses longer. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_TOO_LONG_MESSAGE = `Password must be at most ${PASSWORD_MAX_BYTES} bytes (letters with accents and symbols count as 2 to 4)`;

/** A password the account can be given now: the sign-up rule, within what Auth can store. */
export const newPasswordRule = passwordRule.refine(
  (password) => new TextEncoder().encode(password).length <= PASSWORD_MAX_BYTES,
  { error: PASSWORD_TOO_LONG_MESSAGE, abort: true },
);

export const usernameRule = textField('Username')
  .trim()
  .min(1, { error: 'Username is required', abort: true })
  .min(USERNAME_MIN_LENGTH, {
    error: `Username must be at least ${USERNAME_MIN_LENGTH} characters`,
    abort: true,
  })
  .max(USERNAME_MAX_LENGTH, {
    error: `Username must be at most ${USERNAME_MAX_LENGTH} characters`,
    abort: true,
  })
  .regex(/^[A-Za-z0-9_.-]+$/, {
    error: 'Username may only contain letters, numbers, underscores, dots and hyphens',
  });

export const registerInputSchema = z.object({
  username: usernameRule,
  email: emailField,
  password: newPasswordRule,
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

/** Login accepts a username or an email address in the username field. */
export const loginInputSchema = z.object({
  username: textField('Username')
    .trim()
    .min(1, { error: 'Username is required', abort: true })
    .max(254, { error: 'Username must be at most 254 characters' }),
  password: textField('Password')
    .min(1, { error: 'Password is required', abort: true })
    .max(1024, { error: 'Password must be at most 1024 characters' }),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const forgotPasswordInputSchema = z.object({
  email: emailField,
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInputSchema>;

export const resetPasswordInputSchema = z.object({
  token: textField('Reset token')
    .trim()
    .min(1, { error: 'Reset token is required', abort: true })
    .max(512, { error: 'Reset token is invalid' }),
  password: newPasswordRule,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

/** `POST /api/auth/confirm-email`: the token of the link in a confirmation email. */
export const confirmEmailInputSchema = z.object({
  token: textField('Confirmation token')
    .trim()
    .min(1, { error: 'Confirmation token is required', abort: true })
    .max(512, { error: 'Confirmation token is invalid' }),
});
export type ConfirmEmailInput = z.infer<typeof confirmEmailInputSchema>;

/** The reset form: the new password twice; the token comes from the page's query string. */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordRule,
    confirmPassword: textField('Password confirmation'),
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

/** `POST /api/auth/change-email`: a confirmation link goes to the new address. */
export const changeEmailInputSchema = z.object({
  email: emailField,
});
export type ChangeEmailInput = z.infer<typeof changeEmailInputSchema>;

/** `POST /api/auth/confirm-email-change`: the token of the link mailed to the new address. */
export const confirmEmailChangeInputSchema = z.object({
  token: textField('Confirmation token')
    .trim()
    .min(1, { error: 'Confirmation token is required', abort: true })
    .max(512, { error: 'Confirmation token is invalid' }),
});
export type ConfirmEmailChangeInput = z.infer<typeof confirmEmailChangeInputSchema>;

/** `POST /api/auth/change-password`: the current password proves it is the owner. */
export const changePasswordInputSchema = z.object({
  currentPassword: textField('Current password')
    .min(1, { error: 'Current password is required', abort: true })
    .max(1024, { error: 'Current password must be at most 1024 characters' }),
  newPassword: newPasswordRule,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** The Change Password form: the request's fields plus the new password typed twice. */
export const changePasswordFormSchema = changePasswordInputSchema
  .extend({ confirmPassword: textField('Password confirmation') })
  .refine((form) => form.newPassword === form.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/**
 * `POST /api/account/delete`: the password re-checks the owner; an account that signs in only with
 * Google leaves it out and re-checks by a fresh Google sign-in instead.
 */
export const deleteAccountInputSchema = z.object({
  password: textField('Password').max(1024, { error: 'Password must be at most 1024 characters' }).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInputSchema>;

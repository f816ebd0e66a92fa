// Passwords as Supabase Auth judges and stores them: the strength rules of supabase/config.toml
// (`[auth] minimum_password_length` and `password_requirements`, checked the way GoTrue's
// checkPasswordStrength does, with its messages and `weak_password.reasons`), bcrypt hashes, and
// a dummy hash of the same cost so that a sign-in for an unknown address costs as much as one
// for a known address (no account enumeration by timing).
import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';
import { AuthError } from './errors.ts';

/** GoTrue's bcrypt cost. */
export const BCRYPT_COST = 10;
/** bcrypt reads at most 72 bytes; GoTrue refuses longer passwords rather than truncate them. */
export const MAX_PASSWORD_BYTES = 72;

/** The character sets of config.toml's `password_requirements` values, as GoTrue receives them. */
export const PASSWORD_REQUIREMENTS = {
  '': [],
  letters_digits: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits: ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits_symbols: [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789',
    `!@#$%^&*()_+-=[]{};':"|<>?,./\`~`,
  ],
} as const satisfies Record<string, readonly string[]>;

export type PasswordRequirements = keyof typeof PASSWORD_REQUIREMENTS;

export interface PasswordPolicy {
  minLength: number;
  requirements: PasswordRequirements;
}

/** What supabase/config.toml sets (config.test.ts holds the two together). */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 8,
  requirements: 'lower_upper_letters_digits_symbols',
};

/**
 * GoTrue's checkPasswordStrength: 400 validation_failed past 72 bytes, else 422 weak_password
 * with the reasons (`length`, `characters`) and GoTrue's sentences. Lengths are bytes, as in Go.
 */
export function checkPasswordStrength(password: string, policy: PasswordPolicy): void {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes > MAX_PASSWORD_BYTES) {
    throw new AuthError(400, 'validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  const reasons: string[] = [];
  const messages: string[] = [];
  if (bytes < policy.minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  const sets: readonly string[] = PASSWORD_REQUIREMENTS[policy.requirements];
  if (sets.some((set) => ![...set].some((ch) => password.includes(ch)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  if (reasons.length > 0) {
    throw new AuthError(422, 'weak_password', messages.join(' '), { weak_password: { reasons } });
  }
}

/** How passwords are hashed and compared; tests pass a wrapper to observe the comparisons. */
export interface PasswordHasher {
  hash(password: string, cost: number): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

export const bcryptHasher: PasswordHasher = {
  hash: (password, cost) => bcrypt.hash(password, cost),
  compare: (password, hash) => bcrypt.compare(password, hash),
};

/**
 * Compares `password` with `hash`, or, when there is no hash (no such user, or a Google-only
 * account), with a dummy hash of the same cost, so both cases take a bcrypt comparison's time.
 */
export function createPasswordVerifier(
  hasher: PasswordHasher,
): (password: string, hash: string | null) => Promise<boolean> {
  // Made at once, so the first unknown address is not the one sign-in that costs two hashes.
  const dummy = hasher.hash(randomBytes(24).toString('base64url'), BCRYPT_COST);
  dummy.catch(() => {});
  return async (password, hash) => {
    if (hash) return hasher.compare(password, hash);
    await hasher.compare(password, await dummy);
    return false;
  };
}

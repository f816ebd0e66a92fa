import assert from 'node:assert/strict';
import {
  forgotPasswordInputSchema,
  loginInputSchema,
  PASSWORD_STRENGTH_MESSAGE,
  passwordRule,
  registerInputSchema,
  resetPasswordFormSchema,
  resetPasswordInputSchema,
} from './auth.ts';
import type { z } from 'zod';

function messages(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, `expected ${JSON.stringify(input)} to be rejected`);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

function firstMessage(schema: z.ZodType, input: unknown, field: string): string | undefined {
  const result = schema.safeParse(input);
  assert.equal(result.success, false);
  return result.success ? undefined : result.error.issues.find((issue) => issue.path[0] === field)?.message;
}

const valid = { username: 'alice_01', email: 'Alice@Example.com ', password: 'Secret@123' };

Deno.test('register: a valid sign-up passes, email trimmed and lower-cased', () => {
  const parsed = registerInputSchema.parse(valid);
  assert.deepEqual(parsed, { username: 'alice_01', email: 'alice@example.com', password: 'Secret@123' });
});

Deno.test('register: username rules name the field', () => {
  assert.equal(firstMessage(registerInputSchema, { ...valid, username: '' }, 'username'), 'Username is required');
  assert.equal(
    firstMessage(registerInputSchema, { ...valid, username: undefined }, 'username'),
    'Username is required',
  );
  assert.equal(
    firstMessage(registerInputSchema, { ...valid, username: 'ab' }, 'username'),
    'Username must be at least 3 characters',
  );
  assert.equal(
    firstMessage(registerInputSchema, { ...valid, username: 'a'.repeat(31) }, 'username'),
    'Username must be at most 30 characters',
  );
  assert.equal(
    firstMessage(registerInputSchema, { ...valid, username: 'bad name!' }, 'username'),
    'Username may only contain letters, numbers, underscores, dots and hyphens',
  );
  assert.equal(firstMessage(registerInputSchema, { ...valid, username: 42 }, 'username'), 'Username must be text');
  assert.equal(registerInputSchema.parse({ ...valid, username: 'a.b-c_D' }).username, 'a.b-c_D');
});

Deno.test('register: email must be a valid address', () => {
  for (const email of ['not-an-email', 'a@', '@b.com', 'a b@c.com']) {
    assert.deepEqual(messages(registerInputSchema, { ...valid, email }), ['Please enter a valid email address']);
  }
  assert.equal(firstMessage(registerInputSchema, { ...valid, email: '' }, 'email'), 'Email is required');
  assert.equal(
    firstMessage(registerInputSchema, { ...valid, email: `${'a'.repeat(250)}@b.com` }, 'email'),
    'Email must be at most 254 characters',
  );
});

Deno.test('password rule: length and strength, each with its own message', () => {
  assert.equal(passwordRule.parse('Abcdef1!'.replace('!', '@')), 'Abcdef1@');
  assert.equal(messages(passwordRule, 'Ab1@')[0], 'Password must be at least 8 characters long');
  assert.deepEqual(messages(passwordRule, `Ab1@${'x'.repeat(97)}`), ['Password must be less than 100 characters']);
  assert.equal(passwordRule.parse(`Ab1@${'x'.repeat(96)}`).length, 100);
  for (const weak of ['alllower1@', 'ALLUPPER1@', 'NoDigits@@', 'NoSpecial12', 'Special#Not1']) {
    assert.deepEqual(messages(passwordRule, weak), [PASSWORD_STRENGTH_MESSAGE], weak);
  }
  for (const special of '@$!%*?&') passwordRule.parse(`Abcdefg1${special}`);
  assert.deepEqual(messages(passwordRule, undefined), ['Password is required']);
});

Deno.test('login: username (or email) and password are required', () => {
  assert.deepEqual(loginInputSchema.parse({ username: ' alice ', password: 'x' }), {
    username: 'alice',
    password: 'x',
  });
  assert.deepEqual(
    loginInputSchema.parse({ username: 'alice@example.com', password: 'x' }).username,
    'alice@example.com',
  );
  assert.equal(firstMessage(loginInputSchema, { username: '', password: 'x' }, 'username'), 'Username is required');
  assert.equal(firstMessage(loginInputSchema, { password: 'x' }, 'username'), 'Username is required');
  assert.equal(firstMessage(loginInputSchema, { username: 'a', password: '' }, 'password'), 'Password is required');
  assert.equal(firstMessage(loginInputSchema, { username: 'a' }, 'password'), 'Password is required');
});

Deno.test('forgot password: a valid email', () => {
  assert.deepEqual(forgotPasswordInputSchema.parse({ email: 'Bob@Example.com' }), { email: 'bob@example.com' });
  assert.deepEqual(messages(forgotPasswordInputSchema, { email: 'bob' }), ['Please enter a valid email address']);
});

Deno.test('reset password: token and a password that follows the rule', () => {
  assert.deepEqual(resetPasswordInputSchema.parse({ token: 'abc', password: 'Secret@123' }), {
    token: 'abc',
    password: 'Secret@123',
  });
  assert.equal(
    firstMessage(resetPasswordInputSchema, { token: '', password: 'Secret@123' }, 'token'),
    'Reset token is required',
  );
  assert.equal(
    firstMessage(resetPasswordInputSchema, { token: 't', password: 'short' }, 'password'),
    'Password must be at least 8 characters long',
  );
  assert.equal(
    firstMessage(resetPasswordInputSchema, { token: 't', password: 'x'.repeat(101) }, 'password'),
    'Password must be less than 100 characters',
  );
});

Deno.test('reset form: the confirmation must match, reported on the confirm field', () => {
  const result = resetPasswordFormSchema.safeParse({ password: 'Secret@123', confirmPassword: 'Secret@124' });
  assert.equal(result.success, false);
  assert.deepEqual(
    result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
    [['confirmPassword', "Passwords don't match"]],
  );
});

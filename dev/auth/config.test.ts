// The local auth server stands in for Supabase Auth configured by supabase/config.toml: the
// settings it mirrors must say the same thing in both places.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_REQUIREMENTS } from './passwords.ts';
import { REFRESH_TOKEN_REUSE_INTERVAL_SECONDS, SECURE_PASSWORD_CHANGE } from './server.ts';

function parseValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The scalar `key = value` lines of each `[section]` (all config.toml needs here). */
async function readConfig(): Promise<Record<string, Record<string, unknown>>> {
  const path = fileURLToPath(new URL('../../supabase/config.toml', import.meta.url));
  const sections: Record<string, Record<string, unknown>> = {};
  let current = '';
  for (const raw of (await readFile(path, 'utf8')).split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header?.[1]) {
      current = header[1];
      sections[current] ??= {};
      continue;
    }
    const pair = /^([\w]+)\s*=\s*(.+)$/.exec(line);
    if (!pair?.[1] || pair[2] === undefined) continue;
    (sections[current] ??= {})[pair[1]] = parseValue(pair[2].trim());
  }
  return sections;
}

describe('supabase/config.toml and the local auth server', () => {
  it('agree on the password rules, the refresh-token reuse interval and secure password change', async () => {
    const config = await readConfig();
    expect(config.auth?.minimum_password_length).toBe(DEFAULT_PASSWORD_POLICY.minLength);
    expect(config.auth?.password_requirements).toBe(DEFAULT_PASSWORD_POLICY.requirements);
    expect(Object.keys(PASSWORD_REQUIREMENTS)).toContain(config.auth?.password_requirements);
    expect(config.auth?.refresh_token_reuse_interval).toBe(REFRESH_TOKEN_REUSE_INTERVAL_SECONDS);
    expect(config.auth?.enable_refresh_token_rotation).toBe(true);
    expect(config['auth.email']?.secure_password_change).toBe(SECURE_PASSWORD_CHANGE);
  });

  it('keeps the settings where Supabase reads them, and email sign-in on', async () => {
    const config = await readConfig();
    // The CLI reads the password rules from [auth]; under [auth.email] they would be ignored.
    expect(config['auth.email']).not.toHaveProperty('minimum_password_length');
    expect(config['auth.email']).not.toHaveProperty('password_requirements');
    // [auth.email] enable_signup is the email provider itself: false turns off password sign-in.
    expect(config['auth.email']?.enable_signup).toBe(true);
    for (const key of ['sign_in_sign_ups', 'token_verifications', 'token_refresh', 'email_sent']) {
      expect(config['auth.rate_limit']?.[key], key).toEqual(expect.any(Number));
    }
  });
});

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from './mailer.ts';

const data = {
  SiteURL: 'https://fareback.app',
  TokenHash: 'abc123',
  Email: "o'brien+test@example.com",
  RedirectTo: 'https://fareback.app/reset-password?x=1&y=2',
};

describe('renderTemplate', () => {
  it('substitutes Go-template fields, spaced or not, escaping HTML', () => {
    expect(
      renderTemplate('<a href="{{ .SiteURL }}/r?token={{.TokenHash}}">{{ .Email }}</a> {{ .RedirectTo }}', data),
    ).toBe(
      '<a href="https://fareback.app/r?token=abc123">o&#39;brien+test@example.com</a> https://fareback.app/reset-password?x=1&#38;y=2',
    );
  });

  it('leaves fields it does not know untouched', () => {
    expect(renderTemplate('{{ .ConfirmationURL }} {{ .Token }}', data)).toBe('{{ .ConfirmationURL }} {{ .Token }}');
  });
});

describe('supabase/templates/recovery.html', () => {
  it('links to the reset page with the token hash and names the product', async () => {
    const path = fileURLToPath(new URL('../../supabase/templates/recovery.html', import.meta.url));
    const template = await readFile(path, 'utf8');
    expect(template).toContain('<title>Reset your FareBack password</title>');
    expect(template).toContain('href="{{ .SiteURL }}/reset-password?token={{ .TokenHash }}"');
    const html = renderTemplate(template, data);
    expect(html).toContain('href="https://fareback.app/reset-password?token=abc123"');
    expect(html).not.toMatch(/\{\{/);
  });
});

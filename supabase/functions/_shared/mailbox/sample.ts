// The repository's sample mailbox (dev/mailbox/*.eml, newest first by name) for the local stack,
// so the whole scan works offline. It reads files only: a missing folder fails as Deno.readDir
// does, and an id that is not a sample file name is refused.
import type { Mailbox } from './types.ts';

/**
 * Where the sample mailbox is: EMAIL_DEV_MAILBOX_DIR, else the repository's (four levels up from
 * this file: the repository root).
 */
export function sampleMailboxDir(devMailboxDir: string | null): string {
  return devMailboxDir ?? new URL('../../../../dev/mailbox/', import.meta.url).pathname;
}

export function sampleMailbox(dir: string): Mailbox {
  const path = (name: string) => `${dir.replace(/\/+$/, '')}/${name}`;
  return {
    via: 'sample',
    async list(_since, max) {
      const names: string[] = [];
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && entry.name.endsWith('.eml')) names.push(entry.name);
      }
      names.sort().reverse();
      return { ids: names.slice(0, max), historyId: null, mode: 'full' };
    },
    async fetch(id) {
      if (!/^[\w.-]+\.eml$/.test(id)) throw new Error('not a sample message');
      return await Deno.readFile(path(id));
    },
  };
}

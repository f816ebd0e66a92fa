import { describe, expect, it } from 'vitest';
import { loadToasterStore } from '@/components/ui/toaster';
import { toaster } from '@/components/ui/toaster-store';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';

function runMutation(
  client: ReturnType<typeof createQueryClient>,
  options: { fail?: Error; meta?: Record<string, unknown> },
) {
  return client
    .getMutationCache()
    .build(client, {
      mutationFn: async () => {
        if (options.fail) throw options.fail;
        return 'ok';
      },
      meta: options.meta,
    })
    .execute(undefined)
    .catch(() => undefined);
}

describe('createQueryClient', () => {
  it('never retries, keeps data fresh and collects it after 5 minutes', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      retry: false,
      staleTime: Infinity,
      gcTime: 300_000,
      refetchOnWindowFocus: false,
    });
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('invalidates the queries a successful mutation names in meta.invalidates', async () => {
    const client = createQueryClient();
    client.setQueryData(['flights', 'list'], []);
    client.setQueryData(['dashboard', 'stats'], {});
    client.setQueryData(['billing', 'history'], []);

    await runMutation(client, { meta: { invalidates: [['flights'], ['dashboard', 'stats']] } });

    expect(client.getQueryState(['flights', 'list'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['dashboard', 'stats'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['billing', 'history'])?.isInvalidated).toBe(false);
  });

  it("toasts meta.errorTitle with the server's message, or the fallback", async () => {
    const client = createQueryClient();
    await runMutation(client, {
      fail: new ApiError(409, 'Conflict', '{"message":"Flight limit reached"}'),
      meta: { errorTitle: 'Error Adding Flight', errorFallback: 'Please try again.' },
    });
    // notify() shows the toast once the toast store has loaded; earlier calls go first.
    await loadToasterStore();
    expect(toaster.getVisibleToasts()).toEqual([
      expect.objectContaining({
        title: 'Error Adding Flight',
        description: 'Flight limit reached',
        type: 'error',
      }),
    ]);

    await runMutation(client, {
      fail: new ApiError(500, 'Internal Server Error', ''),
      meta: { errorTitle: 'Rebooking failed', errorFallback: 'Please try again.' },
    });
    await loadToasterStore();
    // One toast at a time: the newest replaces the last.
    expect(toaster.getVisibleToasts()).toEqual([
      expect.objectContaining({ title: 'Rebooking failed', description: 'Please try again.' }),
    ]);
  });

  it("toasts meta.errorDescription always, the server's reason after it", async () => {
    const client = createQueryClient();
    await runMutation(client, {
      fail: new ApiError(409, 'Conflict', '{"message":"The last admin cannot be removed"}'),
      meta: { errorTitle: 'Update Failed', errorDescription: 'Failed to update user admin status' },
    });
    await loadToasterStore();
    expect(toaster.getVisibleToasts()).toEqual([
      expect.objectContaining({
        title: 'Update Failed',
        description: 'Failed to update user admin status. The last admin cannot be removed',
      }),
    ]);

    await runMutation(client, {
      fail: new ApiError(500, 'Internal Server Error', ''),
      meta: { errorTitle: 'Creation Failed', errorDescription: 'Failed to create the subscription plan.' },
    });
    await loadToasterStore();
    expect(toaster.getVisibleToasts()).toEqual([
      expect.objectContaining({ title: 'Creation Failed', description: 'Failed to create the subscription plan.' }),
    ]);
  });

  it('leaves errors of mutations without errorTitle to their caller', async () => {
    await runMutation(createQueryClient(), { fail: new Error('boom') });
    await loadToasterStore();
    expect(toaster.getVisibleToasts()).toEqual([]);
  });
});

import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './query-client';
import type { QueryRuntime } from './query-runtime-loader';

/** Loaded on demand through ./query-runtime-loader.ts; see there for why. */
export function createQueryRuntime(client: QueryClient = createQueryClient()): QueryRuntime {
  return {
    client,
    observe(options) {
      const observer = new QueryObserver(client, options);
      return {
        // Subscribing starts the fetch and the refetch interval, as useQuery's mount does.
        subscribe: (onChange) => observer.subscribe(() => onChange()),
        getSnapshot: () => observer.getCurrentResult(),
      };
    },
  };
}

// Picks the fare source the configuration names and wraps it with timeouts, retries and the
// per-source rate limit.
import type { FareSource } from './types.ts';

export * from './types.ts';

export interface FareSourceOptions {
  kind: 'simulated' | 'duffel';
  duffelAccessToken: string | null;
  duffelApiUrl: string;
  timeoutMs: number;
  maxRetries: number;
  ratePerSecond: number;
  simulatedLatencyMs: number;
}

export function createFareSource(_options: FareSourceOptions): FareSource {
  throw new Error('The fare source is not built yet');
}

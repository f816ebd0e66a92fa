// Picks the fare source the configuration names and wraps it with timeouts, retries and the
// per-source rate limit (resilient.ts). Model, test codes and settings: docs/architecture.md,
// "Fare source".
import { createDuffelFareSource } from './duffel.ts';
import { withResilience } from './resilient.ts';
import { createSimulatedFareSource } from './simulated.ts';
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

export function createFareSource(options: FareSourceOptions): FareSource {
  let source: FareSource;
  if (options.kind === 'duffel') {
    if (!options.duffelAccessToken) throw new Error('DUFFEL_ACCESS_TOKEN is required when FARE_SOURCE is duffel');
    source = createDuffelFareSource({ accessToken: options.duffelAccessToken, apiUrl: options.duffelApiUrl });
  } else {
    source = createSimulatedFareSource({ latencyMs: options.simulatedLatencyMs });
  }
  return withResilience(source, {
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    ratePerSecond: options.ratePerSecond,
  });
}

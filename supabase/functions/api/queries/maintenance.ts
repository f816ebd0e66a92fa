// Housekeeping of server-side tables (the maintenance job, services/maintenance.ts), each by its
// own retention rule (in the function that prunes it): login attempts after a day, fare-source
// call counts after a day, finished jobs after a week and dead letters after a month (a kind's
// newest job is kept). Service connection only.
import type { Tx } from '../db.ts';

export interface Pruned {
  loginAttempts: number;
  fareSourceCalls: number;
  jobs: number;
}

export async function pruneExpiredRows(tx: Tx): Promise<Pruned> {
  const [row] = await tx<{ login_attempts: number; fare_source_calls: number; jobs: number }[]>`
    select private.prune_login_attempts() as login_attempts,
           private.prune_fare_source_calls() as fare_source_calls,
           private.prune_jobs() as jobs
  `;
  return {
    loginAttempts: row?.login_attempts ?? 0,
    fareSourceCalls: row?.fare_source_calls ?? 0,
    jobs: row?.jobs ?? 0,
  };
}

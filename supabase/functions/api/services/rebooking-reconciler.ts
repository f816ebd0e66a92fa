// Settles rebookings a request left open (private.rebookings, migration 20261123000200):
// - confirmed: the source made the change but recording it failed; recorded now from the kept
//   result (credit, commission, billing, flight);
// - claimed for longer than REBOOKING_CLAIM_MINUTES: the request died, or the source's answer was
//   lost (a timeout on the change). The source is asked what happened (`rebookingOutcome`): a
//   change found is recorded, none releases the claim so the flight can be rebooked again.
// Run by the `maintenance` job (services/maintenance.ts, every 15 minutes). A source that is down
// leaves the record open for the next run (counted in `attempts`).
import {
  BookingMismatchError,
  BookingNotFoundError,
  FareSourceUnavailableError,
} from '../../_shared/fare-source/types.ts';
import type { AppDeps } from '../context.ts';
import { listOpenRebookings, noteRebookingAttempt, releaseRebooking } from '../queries/flights.ts';
import { recordConfirmedRebooking } from './flights.ts';

export interface ReconcileResult {
  recorded: number;
  released: number;
  pending: number;
}

export async function reconcileRebookings(
  deps: Pick<AppDeps, 'db' | 'fareSource' | 'log'>,
  limit = 50,
): Promise<ReconcileResult> {
  const open = await deps.db.asService((tx) => listOpenRebookings(tx, limit));
  const outcome: ReconcileResult = { recorded: 0, released: 0, pending: 0 };
  for (const rebooking of open) {
    const { id: rebookingId, userId, flightId } = rebooking;
    let result = rebooking.state === 'confirmed' ? rebooking.result : null;
    if (!result && rebooking.request) {
      try {
        result = await deps.fareSource.rebookingOutcome(rebooking.request);
      } catch (error) {
        if (error instanceof BookingNotFoundError || error instanceof BookingMismatchError) {
          // the booking is gone or was changed by someone else: nothing of ours to record
          deps.log({ level: 'warn', msg: 'rebooking released: booking no longer matches', rebookingId, flightId });
          await deps.db.asService((tx) =>
            releaseRebooking(tx, { rebookingId, userId, flightId, status: 'price_drop', error: String(error) }),
          );
          outcome.released += 1;
          continue;
        }
        if (!(error instanceof FareSourceUnavailableError)) throw error;
        await deps.db.asService((tx) => noteRebookingAttempt(tx, rebookingId, String(error)));
        outcome.pending += 1;
        continue;
      }
    }
    if (result) {
      const recorded = await recordConfirmedRebooking(deps, { rebookingId, userId, flightId, result });
      if (recorded) {
        outcome.recorded += 1;
        deps.log({ level: 'info', msg: 'rebooking recorded by the reconciler', rebookingId, flightId });
      }
      continue;
    }
    // Nothing changed at the source: the flight is a price drop again until a check says otherwise.
    await deps.db.asService((tx) =>
      releaseRebooking(tx, {
        rebookingId,
        userId,
        flightId,
        status: 'price_drop',
        error: 'released by the reconciler: the source made no change',
      }),
    );
    outcome.released += 1;
  }
  return outcome;
}

// A shared secret compared without telling the caller how close a guess came: the scheduler's
// CRON_SECRET, the inbound mail provider's INBOUND_EMAIL_SECRET.
import { sha256 } from '../../_shared/sha256.ts';

/**
 * Compares digests rather than the strings, so the time taken says nothing about how much of the
 * secret a guess got right, nor about its length.
 */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [x, y] = await Promise.all([sha256(given), sha256(expected)]);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= (x[i] as number) ^ (y[i] as number);
  return difference === 0;
}

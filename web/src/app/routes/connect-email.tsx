import { ConnectEmailPage } from '@/features/email/connect-email-page';
import { flightKeys } from '@/features/flights/keys';

/**
 * /connect-email: the email feature's page, whose confirmed held bookings become flights (the
 * flights feature's queries).
 */
export function ConnectEmailRoute() {
  return <ConnectEmailPage refreshAfterConfirm={[flightKeys.all]} />;
}

import { AccountPage } from '@/features/account/account-page';
import { EmailConnectionPanel } from '@/features/email';
import { flightKeys } from '@/features/flights/keys';

/**
 * /account composes the account feature's page with the email feature's connection panel, whose
 * confirmed held bookings become flights (the flights feature's queries).
 */
export function AccountRoute() {
  return <AccountPage emailPanel={<EmailConnectionPanel showDisconnect refreshAfterConfirm={[flightKeys.all]} />} />;
}

import { AccountPage } from '@/features/account/account-page';
import { EmailConnectionPanel } from '@/features/email';

/** /account composes the account feature's page with the email feature's connection panel. */
export function AccountRoute() {
  return <AccountPage emailPanel={<EmailConnectionPanel showDisconnect />} />;
}

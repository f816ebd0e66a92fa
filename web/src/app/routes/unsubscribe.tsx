import { AuthLayout } from '@/features/auth/components/auth-layout';
import { UnsubscribePage } from '@/features/unsubscribe';

/** /unsubscribe: the unsubscribe feature's page in the auth pages' centred card. */
export function UnsubscribeRoute() {
  return <UnsubscribePage Layout={AuthLayout} />;
}

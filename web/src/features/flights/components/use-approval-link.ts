import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useApproveRebooking } from '../api';

/**
 * An approval email's link opens /dashboard?approve=<token>: opening it while signed in is the
 * approval, posted once; the token (signed, single use, expiring with the quote) names its flight
 * as its second part. The parameter is removed at once so a reload does not post it again.
 */
export function useApprovalLink(): void {
  const [params, setParams] = useSearchParams();
  const approve = useApproveRebooking();
  const posted = useRef<string | null>(null);
  const token = params.get('approve');

  useEffect(() => {
    if (!token || posted.current === token) return;
    posted.current = token;
    const flightId = Number(token.split('.')[1]);
    setParams(
      (current) => {
        current.delete('approve');
        return current;
      },
      { replace: true },
    );
    if (Number.isSafeInteger(flightId) && flightId > 0) approve.mutate({ flightId, approvalToken: token });
  }, [token, approve, setParams]);
}

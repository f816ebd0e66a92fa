// The one-click unsubscribe calls (public; the token in the link is the authority):
//   GET  /api/notifications/unsubscribe?token=...  -> UnsubscribeInfo (what the link turns off; changes nothing)
//   POST /api/notifications/unsubscribe?token=...  -> UnsubscribeResponse (turns it off; also RFC 8058 one-click)
// A token that does not verify answers 400 { error: UNSUBSCRIBE_INVALID_LINK }.

export interface UnsubscribeInfo {
  kind: string;
  /** What stops, e.g. 'price-drop alert emails'. */
  description: string;
}

export interface UnsubscribeResponse {
  message: string;
}

export const UNSUBSCRIBE_INVALID_LINK =
  'This unsubscribe link is invalid. Log in and change your notification preferences in Settings instead.';

/** The kinds a link can turn off and what each one stops. */
export const UNSUBSCRIBE_KIND_DESCRIPTIONS: Readonly<Record<string, string>> = {
  price_drop: 'price-drop alert emails',
  rebooking: 'rebooking emails (rebookings done for you and lower fares to ask your airline for)',
  flight_cancelled: 'flight cancellation emails',
  credit_expiring: 'airline credit expiry reminders',
  import_over_limit: 'notices about flights found in your inbox past your plan',
  digest: 'daily and weekly summary emails (price drops and rebookings)',
};

export const unsubscribedMessage = (description: string) =>
  `Done: you will no longer get ${description}. You can turn them back on in Settings.`;

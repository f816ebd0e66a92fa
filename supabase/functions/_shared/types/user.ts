// The current user as the API returns it (`GET /api/auth/me`, register and login, under `user`):
// the fields of the current user in camelCase, plus the profile fields the account
// and subscription screens read. Money is integer cents; dates are ISO 8601 strings.
import type { EmailConnectionState } from './email.ts';
import type { NotificationFrequency, SubscriptionTier, ThresholdCondition, ThresholdType } from '../constants.ts';

export type { SubscriptionTier, ThresholdCondition, ThresholdType, NotificationFrequency };

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  isAdmin: boolean;
  emailConnected: boolean;
  /** The mailbox connection: 'needs_reconnect' when Google refused the stored token (types/email.ts). */
  emailConnectionState: EmailConnectionState;
  subscriptionTier: SubscriptionTier;
  subscriptionStartDate: string | null;
  subscriptionEndDate: string | null;
  flightLimit: number;
  autoRebooking: boolean;
  thresholdType: ThresholdType;
  percentThreshold: number;
  absoluteThreshold: number;
  minSavingsPercent: number;
  minSavingsAmount: number;
  thresholdCondition: ThresholdCondition;
  useSeparateInternationalThresholds: boolean;
  internationalMinSavingsPercent: number;
  internationalMinSavingsAmount: number;
  notifyPriceDrops: boolean;
  notifyRebookings: boolean;
  notifyCancellations: boolean;
  minPriceDrop: number;
  minPriceDropPercent: number;
  notificationFrequency: NotificationFrequency;
  /** Time of day for daily and weekly digests, HH:MM. */
  notificationTime: string;
  /** IANA name the notification time is read in, as the browser reported it ('UTC' until then). */
  timeZone: string;
  totalCreditsEarned: number;
  commissionOwed: number;
  /** Commission paid so far (cents): with commissionOwed, every commission recorded. */
  commissionPaid: number;
  /** The plan the traveller is on (its id and name) and its commission rate (percent, 0 for none). */
  planId: number;
  planName: string;
  commissionRate: number;
  lastBillingDate: string | null;
  createdAt: string;
  /** Whether the owner has finished or skipped onboarding (false: new accounts go to /onboarding). */
  onboardingCompleted: boolean;
  /**
   * Whether the owner has opened the confirmation link mailed to `email`. Until then FareBack mails
   * the address nothing but that link: no alerts, no reset links (services/email-confirmation.ts).
   */
  emailConfirmed: boolean;
}

/** `GET /api/auth/me` */
export interface CurrentUserResponse {
  user: CurrentUser;
}

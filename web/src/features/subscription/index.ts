// What the app composes into its routes; everything else in this feature is internal.
export { SubscriptionTab } from './subscription-tab';
export { PaymentReturn } from './payment-return';
export { PaymentIssueNotice } from './components/payment-issue';

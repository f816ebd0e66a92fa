import {
  COMMISSION_RATE_PERCENT,
  LANDING_AIRLINES,
  MANUAL_ENTRY_AIRLINES,
  SUPPORTED_FARE_TYPES,
} from '@shared/constants.ts';

/*
 * The landing page's words. The FAQ answers the questions travellers ask before
 * they hand over their inbox and a commission; every answer describes what the product actually
 * does (see the privacy policy and terms for the same facts at length).
 */

function listOf(items: readonly string[]): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

const landingAirlines = new Set<string>(LANDING_AIRLINES);
/** Airlines of the manual entry list that the landing list does not already name. */
const otherManualAirlines = MANUAL_ENTRY_AIRLINES.map((name) => name.replace(/ (Airlines|Air Lines|Airways)$/, ''))
  .filter((name) => !landingAirlines.has(name))
  .map((name) => (name === 'Allegiant Air' ? 'Allegiant' : name));

/** The plans' features; the flight limit and the rate are the plans' (features/landing/api.ts). */
export function freeFeatures(flightLimit: number): string[] {
  return [`Up to ${flightLimit} flights`, 'Email price-drop alerts', 'Manual rebooking'];
}
export function premiumFeatures(commissionRate: number): string[] {
  return [
    'Unlimited monitoring',
    'Automatic rebooking at lower prices',
    'Priority alerts',
    `${commissionRate}% commission on refunds or trip credits`,
  ];
}

export interface FaqItem {
  id: string;
  question: string;
  answer: string[];
}

export const FAQ: FaqItem[] = [
  {
    id: 'faq-fares',
    question: 'Which tickets can FareBack rebook?',
    answer: [
      `Tickets the airline lets you change without losing their value: ${listOf(SUPPORTED_FARE_TYPES)}.`,
      'Basic Economy fares are non-refundable and cannot be changed, so those tickets cannot be changed automatically. We still track their price and show you what you would have saved, which helps you choose a flexible fare next time.',
    ],
  },
  {
    id: 'faq-credit',
    question: 'What is airline credit, and how do I use it?',
    answer: [
      "When a fare drops and we rebook you on the same flight at the lower price, the airline keeps your original payment and returns the difference as credit in your name (airlines call it a trip credit, travel credit or e-credit). You don't lose your seat or change your itinerary.",
      'The credit is usually valid for one year and can be spent on a future booking with the same airline. Your dashboard lists each credit with its amount, reference number and expiry date.',
    ],
  },
  {
    id: 'faq-commission',
    question: `How is the ${COMMISSION_RATE_PERCENT}% commission charged?`,
    answer: [
      `Only Premium members pay a commission, and only when a rebooking succeeds: ${COMMISSION_RATE_PERCENT}% of the credit or refund you received. If we save you $80, the commission is $20 and you keep $60.`,
      'The commission appears on your next billing statement, with the flight it came from. No savings, no commission. The Free plan has no commission at all.',
    ],
  },
  {
    id: 'faq-gmail',
    question: 'What do you do with my Gmail access, and how do I revoke it?',
    answer: [
      "Connecting Gmail gives us read-only access (Google's gmail.readonly permission). We look only for airline booking confirmations and copy out the flight details: airline, flight number, dates, route, confirmation code, passenger last name and price. We never send, delete or change email, and we don't keep the rest of your inbox.",
      'You can disconnect any time under Account Settings → Email Connection, or remove FareBack from your Google Account under Security → Third-party access. You can also skip Gmail entirely and add flights by hand.',
    ],
  },
  {
    id: 'faq-cancel',
    question: 'Can I cancel Premium?',
    answer: [
      'Yes, whenever you like: open the Subscription tab of your dashboard and choose Downgrade to Free. Automatic rebooking stops straight away and your plan goes back to monitoring up to five flights.',
      'Rebookings already made are yours to keep; any commission on them stays due on your statement.',
    ],
  },
  {
    id: 'faq-airlines',
    question: 'Which airlines do you support?',
    answer: [
      `We monitor fares on ${listOf(LANDING_AIRLINES)}.`,
      `You can also add bookings with ${listOf(otherManualAirlines)} by hand; a flight we cannot fully track shows as Limited Monitoring on your dashboard.`,
    ],
  },
  {
    id: 'faq-price-rises',
    question: 'What happens if the price goes up instead?',
    answer: [
      'Nothing changes for you. We never rebook at a higher fare, so your original booking and price stay exactly as they are.',
      'We keep watching until departure, because fares often fall again, and your price history shows the highest and lowest prices we have seen.',
    ],
  },
];

export interface Testimonial {
  quote: string;
  name: string;
  detail: string;
}

export const TESTIMONIALS: Testimonial[] = [
  {
    quote:
      'Our family trip to Orlando dropped by $212 two weeks after I booked. FareBack rebooked it overnight and the credit paid for our flights to my parents at Thanksgiving.',
    name: 'Maria G.',
    detail: 'Premium member, Chicago',
  },
  {
    quote:
      "I fly Boston to Denver every month for work. I used to check prices myself; now I just get an email when there's money back. $640 in credits so far this year.",
    name: 'James T.',
    detail: 'Premium member, Boston',
  },
  {
    quote:
      'I was nervous about giving an app my inbox, but it only reads airline confirmations and I can disconnect in one click. The first alert saved me $95 on a Delta flight.',
    name: 'Priya S.',
    detail: 'Free plan, Seattle',
  },
];

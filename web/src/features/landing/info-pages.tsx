import { Button, Card, Heading, Text } from '@chakra-ui/react';
import {
  AIRLINE_CREDIT_VALIDITY_MONTHS,
  COMMISSION_RATE_PERCENT,
  FREE_FLIGHT_LIMIT,
  PREMIUM_PRICE_CENTS,
  SUPPORTED_FARE_TYPES,
} from '@shared/constants.ts';
import { Link as RouterLink } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { formatMoney } from '@/lib/format';
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_RESPONSE_TIME } from '@/lib/support';
import { Bullets, InlineLink, MailLink, Prose, ProseSection, Question } from './components/legal';

/*
 * The help center, privacy policy and terms (linked from every footer). They describe what the
 * product actually does, with the product's own figures; the privacy policy lists
 * exactly what the database keeps (see supabase/migrations).
 */

const POLICY_DATE = 'November 22, 2026';
const fareTypes = SUPPORTED_FARE_TYPES.join(', ');

function StillNeedHelp() {
  return (
    <Card.Root variant="subtle" borderRadius="xl" bg="brand.subtle">
      <Card.Body gap="3">
        <Heading as="h2" fontSize="xl">
          Still need help?
        </Heading>
        <Text>
          Our support team is available {SUPPORT_HOURS} (closed at weekends) and replies within {SUPPORT_RESPONSE_TIME}.
          Write to <MailLink address={SUPPORT_EMAIL} /> or use the contact form.
        </Text>
        <Button asChild alignSelf="flex-start">
          <RouterLink to="/contact">Contact Us</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

export function HelpPage() {
  return (
    <ContentLayout
      title="Help Center"
      description="Answers to the questions travellers ask most about price monitoring, rebooking and airline credit."
    >
      <Prose>
        <ProseSection id="help-start" title="Getting started">
          <Question title="How do I add my flights?">
            <Text>
              Connect your Gmail account and FareBack finds the airline confirmations in your inbox, or open the Manual
              Entry tab of your dashboard and enter the airline, your booking confirmation code and the passenger&apos;s
              last name as it appears on the booking.
            </Text>
          </Question>
          <Question title="How often are prices checked?">
            <Text>
              Several times a day, until the flight departs. The flight card shows when the price was last checked;
              press Check Now on a card to check it straight away.
            </Text>
          </Question>
        </ProseSection>

        <ProseSection id="help-rebooking" title="Price drops and rebooking">
          <Question title="Which tickets can be rebooked?">
            <Text>
              {fareTypes}. Basic Economy tickets are non-refundable, so they cannot be changed automatically; we keep
              monitoring them and show what you would have saved.
            </Text>
          </Question>
          <Question title="What happens when a price drops?">
            <Text>
              The flight card shows the new price and your savings, and we email you if price-drop alerts are on. On the
              Free plan you rebook with the Rebook at Lower Price button. On Premium, FareBack rebooks for you when the
              savings pass the thresholds you set in Settings.
            </Text>
          </Question>
          <Question title="What is airline credit?">
            <Text>
              When you are rebooked on the same flight at a lower fare, the airline returns the difference as credit in
              your name. It is typically valid for {AIRLINE_CREDIT_VALIDITY_MONTHS} months and can be used on a future
              booking with that airline. The Airline Credits tab lists each credit with its reference number and expiry
              date.
            </Text>
          </Question>
          <Question title="What if the price goes up?">
            <Text>Nothing happens: we never rebook at a higher fare. We keep watching in case it falls again.</Text>
          </Question>
        </ProseSection>

        <ProseSection id="help-plans" title="Plans and billing">
          <Question title="What is the difference between Free and Premium?">
            <Text>
              Free monitors up to {FREE_FLIGHT_LIMIT} flights with email price-drop alerts and manual rebooking. Premium
              ({formatMoney(PREMIUM_PRICE_CENTS)} a year, billed annually) adds unlimited monitoring, automatic
              rebooking, custom thresholds and priority alerts.
            </Text>
          </Question>
          <Question title={`How does the ${COMMISSION_RATE_PERCENT}% commission work?`}>
            <Text>
              On Premium, a successful rebooking costs {COMMISSION_RATE_PERCENT}% of the credit or refund you received,
              shown on your next billing statement. If nothing is saved, nothing is charged.
            </Text>
          </Question>
          <Question title="How do I cancel Premium?">
            <Text>
              Open the Subscription tab of your dashboard and choose Downgrade to Free. Automatic rebooking stops at
              once and the {FREE_FLIGHT_LIMIT}-flight limit applies again.
            </Text>
          </Question>
        </ProseSection>

        <ProseSection id="help-email" title="Email connection and privacy">
          <Question title="What can FareBack see in my inbox?">
            <Text>
              Read-only access, used only to find airline booking confirmations and copy out the flight details. We
              never send, delete or change your email. The <InlineLink to="/privacy">Privacy Policy</InlineLink> lists
              exactly what we keep.
            </Text>
          </Question>
          <Question title="How do I disconnect Gmail?">
            <Text>
              Go to Account Settings → Email Connection and choose Disconnect Email. You can also remove FareBack from
              your Google Account under Security → Third-party access.
            </Text>
          </Question>
        </ProseSection>

        <ProseSection id="help-account" title="Your account">
          <Question title="I forgot my password">
            <Text>
              Use <InlineLink to="/forgot-password">Forgot password?</InlineLink> on the log-in page. We email a link
              that is valid for one hour.
            </Text>
          </Question>
          <Question title="How do I delete my account?">
            <Text>
              Email <MailLink address={SUPPORT_EMAIL} /> from the address on your account and we will delete it with all
              its data.
            </Text>
          </Question>
        </ProseSection>

        <StillNeedHelp />
      </Prose>
    </ContentLayout>
  );
}

export function PrivacyPage() {
  return (
    <ContentLayout
      title="Privacy Policy"
      description="What FareBack keeps about you, what it reads from your inbox, and how to have it deleted."
    >
      <Prose updated={POLICY_DATE}>
        <ProseSection id="privacy-keep" title="What we keep">
          <Bullets
            items={[
              <>
                <strong>Your account:</strong> username, email address, when you joined, your plan, and your settings
                (alert and rebooking thresholds, notification preferences). Your password is stored only as a one-way
                hash by our authentication provider; we cannot read it.
              </>,
              <>
                <strong>Your flights:</strong> airline, flight numbers, route, dates, booking confirmation code,
                passenger last name, fare type, cabin and seat, the price you paid and, after a rebooking, the new price
                and the airline credit with its reference number and expiry.
              </>,
              <>
                <strong>Price history:</strong> each price we find for your flights, with the lowest and highest seen
                and when they were checked.
              </>,
              <>
                <strong>Email connection:</strong> the Gmail address you connected, when, and the access and refresh
                tokens Google issued. The tokens are encrypted before they are stored and are never sent to your browser
                or anyone else.
              </>,
              <>
                <strong>Notifications and billing records:</strong> the alerts we sent you, and each subscription or
                commission charge (amount, date, status).
              </>,
              <>
                <strong>Messages you send us</strong> through the contact form.
              </>,
            ]}
          />
        </ProseSection>

        <ProseSection id="privacy-inbox" title="What we read from your inbox, and what we don't">
          <Text>
            Connecting Gmail grants FareBack Google&apos;s read-only permission (gmail.readonly). We use it only to
            search for airline booking confirmations and read those messages, from which we copy the flight details
            listed above.
          </Text>
          <Bullets
            items={[
              'We do not read, store or analyse any other email.',
              'We do not keep the confirmation emails themselves, only the flight details taken from them.',
              'We never send, delete, label or change anything in your mailbox.',
              'We do not use your email for advertising and never sell or share it.',
            ]}
          />
          <Text>
            Disconnect at any time in Account Settings → Email Connection, or revoke access from your Google Account
            (Security → Third-party access). Either stops all reading at once; disconnecting in FareBack also deletes
            the stored tokens.
          </Text>
          <Text>
            <strong>Google API Services Limited Use.</strong> FareBack&apos;s use and transfer of information received
            from Google APIs adheres to the Google API Services User Data Policy, including the Limited Use
            requirements. We use Gmail data only to find your flight bookings for you; we do not transfer it to anyone
            except as needed to provide that feature, to comply with the law, or as part of a merger or sale with your
            notice; we do not use it for advertising; and no person reads it unless you ask us to (for support), it is
            needed for security or the law requires it.
          </Text>
        </ProseSection>

        <ProseSection id="privacy-payments" title="Payments">
          <Text>
            Card payments are handled by our payment provider, Stripe. Your card number and security code go straight to
            Stripe and never reach our servers; we keep only the record of each charge described above.
          </Text>
        </ProseSection>

        <ProseSection id="privacy-use" title="How we use it">
          <Text>
            To monitor your flights, alert you about price drops, rebook when you ask us to (or automatically on
            Premium), bill subscriptions and commissions, and answer your messages. Client network addresses are kept
            for at most a day, only to slow repeated failed log-ins and contact-form abuse.
          </Text>
        </ProseSection>

        <ProseSection id="privacy-retention" title="Retention and deletion">
          <Text>
            We keep your data while your account is open. Flights and price history stay available after travel so you
            can see your savings and credits. The Gmail tokens are kept only while your inbox is connected.
          </Text>
          <Text>
            <strong>Download my data</strong> in Account Settings gives you, at once, a JSON file of everything we hold
            on you. <strong>Delete account</strong> there deletes it after you confirm with your password (or a fresh
            Google sign-in): the Gmail access is revoked at Google and its tokens deleted, and your profile, flights,
            price history, rebooking records, notifications and settings are deleted at once. Only your payment records
            and any commission you still owe are kept, anonymised so they no longer name you, because tax law requires
            payment records to be kept for 7 years; they are deleted after that.
          </Text>
          <Text>
            You can also write to <MailLink address={SUPPORT_EMAIL} /> from the address on your account; we act on
            requests within 30 days.
          </Text>
        </ProseSection>

        <ProseSection id="privacy-contact" title="Questions">
          <Text>
            Write to <MailLink address={SUPPORT_EMAIL} /> or use the <InlineLink to="/contact">contact form</InlineLink>
            . We reply within {SUPPORT_RESPONSE_TIME}.
          </Text>
        </ProseSection>
      </Prose>
    </ContentLayout>
  );
}

export function TermsPage() {
  return (
    <ContentLayout
      title="Terms of Service"
      description="The agreement between you and FareBack when you use the service."
    >
      <Prose updated={POLICY_DATE}>
        <ProseSection id="terms-service" title="1. The service">
          <Text>
            FareBack monitors the prices of flights you have booked and helps you rebook the same itinerary at a lower
            fare, with the difference returned by the airline, usually as airline credit. We are not an airline or a
            travel agent of record: your ticket remains a contract between you and the airline, under its fare rules.
          </Text>
        </ProseSection>

        <ProseSection id="terms-account" title="2. Your account">
          <Text>
            You must give accurate details, keep your password secret and only add bookings you are entitled to manage.
            You are responsible for what is done through your account.
          </Text>
        </ProseSection>

        <ProseSection id="terms-plans" title="3. Plans and payment">
          <Bullets
            items={[
              `Free: monitoring of up to ${FREE_FLIGHT_LIMIT} flights, email price-drop alerts and manual rebooking, at no charge.`,
              `Premium: ${formatMoney(PREMIUM_PRICE_CENTS)} per year, billed annually at the price shown at checkout, with unlimited monitoring, automatic rebooking, custom thresholds and priority alerts.`,
              'You can downgrade to Free at any time from your dashboard; automatic rebooking stops immediately.',
            ]}
          />
        </ProseSection>

        <ProseSection id="terms-commission" title={`4. The ${COMMISSION_RATE_PERCENT}% commission`}>
          <Text>
            On Premium, each successful rebooking incurs a commission of {COMMISSION_RATE_PERCENT}% of the savings: the
            airline credit or refund the rebooking produced. It is added to your next billing statement and shown with
            the flight it relates to. No commission is charged when a rebooking does not save money, and none is charged
            on the Free plan. Commission on a completed rebooking remains due if you later downgrade or close your
            account, and is not reduced if you do not use the airline credit.
          </Text>
        </ProseSection>

        <ProseSection id="terms-autorebook" title="5. Automatic rebooking: your consent">
          <Text>
            By turning on automatic rebooking, you authorise FareBack to change your booking with the airline on your
            behalf, without asking you each time, whenever the savings meet the thresholds in your settings. Each
            rebooking keeps the same flights, dates and cabin; we aim to keep your seat but the airline decides seat
            assignment. You can turn automatic rebooking off at any time in Settings, which withdraws this consent for
            future rebookings.
          </Text>
          <Text>
            Only tickets whose fare rules allow changes ({fareTypes}) are rebooked. Airline credit is issued and
            governed by the airline: it is typically valid for {AIRLINE_CREDIT_VALIDITY_MONTHS} months, and its terms
            (expiry, transferability, use) are the airline&apos;s.
          </Text>
        </ProseSection>

        <ProseSection id="terms-limits" title="6. What we cannot promise">
          <Text>
            Fares are set by airlines and can change or disappear within minutes. We do not guarantee that a price drop
            will occur, that a lower fare will still be available when we try to rebook, or that an airline will accept
            a change. Our liability for any claim is limited to the fees you paid us in the twelve months before it
            arose.
          </Text>
        </ProseSection>

        <ProseSection id="terms-privacy" title="7. Your data">
          <Text>
            How we handle your information, including what we read from a connected inbox, is described in the{' '}
            <InlineLink to="/privacy">Privacy Policy</InlineLink>.
          </Text>
        </ProseSection>

        <ProseSection id="terms-changes" title="8. Changes and contact">
          <Text>
            We will email you before material changes to these terms take effect. Questions:{' '}
            <MailLink address={SUPPORT_EMAIL} /> ({SUPPORT_HOURS}; replies within {SUPPORT_RESPONSE_TIME}).
          </Text>
        </ProseSection>
      </Prose>
    </ContentLayout>
  );
}

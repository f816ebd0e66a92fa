-- =============================================================================================
-- The catalog explains itself: a comment on every table and column of public and private
-- =============================================================================================
-- Operators read FareBack's tables in Supabase Studio, which shows these comments beside each
-- table and column. Each says what the column holds, its unit (money is integer cents in the
-- row's currency, rates and thresholds integer percent, durations ms or seconds as named), the
-- values it may take, and who writes it. Comments only: nothing else changes here.
-- supabase/tests/catalog-comments.test.ts holds every later table, view and column to the same
-- rule (a money column must say "cents", a percent column "percent").
--
-- "The api" below is the edge function on its own connection (the migrations' role, which
-- bypasses row-level security); "the traveller" is a signed-in user acting through the api as
-- role authenticated, under the table's policies and column grants.

-- =============================================================================================
-- public.profiles
-- =============================================================================================

comment on table public.profiles is
  'One row per account (auth.users), created by the sign-up trigger private.handle_new_user. The traveller changes only the preference columns granted to authenticated; plan, billing, email and flags are written by the api and security definer functions.';
comment on column public.profiles.id is 'The account id: auth.users.id (deleting the user deletes the profile and everything it owns).';
comment on column public.profiles.username is 'Unique regardless of case, 3-30 of A-Z a-z 0-9 _ . -; from the sign-up metadata or derived from the email. Written by the sign-up trigger.';
comment on column public.profiles.email is 'The account address, kept equal to auth.users.email by a trigger; unique regardless of case. Product email goes here only once email_confirmed_at is set.';
comment on column public.profiles.email_connected is 'Whether a mailbox is connected for import: follows public.email_connections.status = ''connected'' (trigger private.sync_email_connected); the local stack''s Toggle Email (Dev) sets it directly.';
comment on column public.profiles.auto_rebooking is 'The traveller''s automatic rebooking switch. Premium plans only (trigger private.enforce_auto_rebooking_premium refuses it otherwise; leaving a premium plan turns it off).';
comment on column public.profiles.notify_price_drops is 'Email switch for price_drop notifications (the unsubscribe link of a price-drop alert or a digest turns it off).';
comment on column public.profiles.notify_rebookings is 'Email switch for rebooking and action_needed notifications.';
comment on column public.profiles.notify_cancellations is 'Email switch for flight_cancelled notifications.';
comment on column public.profiles.is_admin is 'Administrator of FareBack (the /admin area, every row through the admin policies). Changed by another admin (never on oneself) or by an operator with private.make_admin(email).';
comment on column public.profiles.threshold_type is 'Alert threshold mode of the spec''s user record: ''percent'' or ''absolute''. Stored and reported in /api/auth/me; price-drop alerts use min_price_drop and min_price_drop_percent.';
comment on column public.profiles.percent_threshold is 'Spec''s percent alert threshold, integer percent 1-90 (default 10). Stored and reported only; alerts use min_price_drop_percent.';
comment on column public.profiles.absolute_threshold is 'Spec''s absolute alert threshold in cents, 100-100000 (default 2000 = $20). Stored and reported only; alerts use min_price_drop.';
comment on column public.profiles.min_price_drop is 'Price-drop alert threshold in cents, 0-10000000 (default 2500 = $25): an alert is sent when the fare fell by at least this much or by min_price_drop_percent. Set by the traveller (Settings).';
comment on column public.profiles.min_price_drop_percent is 'Price-drop alert threshold in percent of the fare before the drop, 0-100 (default 10). Either threshold met sends the alert. Set by the traveller.';
comment on column public.profiles.min_savings_percent is 'Automatic rebooking threshold: net savings as integer percent of the price paid, 1-90 (default 15). Premium travellers only may change it (trigger private.enforce_rebooking_thresholds_premium).';
comment on column public.profiles.min_savings_amount is 'Automatic rebooking threshold: net savings in cents, 100-100000 (default 5000 = $50). Premium only may change it.';
comment on column public.profiles.threshold_condition is 'How the two rebooking thresholds combine: ''either'' (the smaller one is enough) or ''both'' (the larger is needed). Premium only may change it.';
comment on column public.profiles.use_separate_international_thresholds is 'Whether routes crossing a border (private.airport_countries) use the international_min_savings_* pair instead. Premium only may change it.';
comment on column public.profiles.international_min_savings_percent is 'Rebooking threshold for international routes: net savings as integer percent of the price paid, 1-90 (default 20).';
comment on column public.profiles.international_min_savings_amount is 'Rebooking threshold for international routes: net savings in cents, 100-100000 (default 10000 = $100).';
comment on column public.profiles.notification_frequency is '''instant'' (each email at once), ''daily'' or ''weekly'' (price drops and rebookings wait for the digest; other kinds stay instant).';
comment on column public.profiles.notification_time is 'Time of day of the digest, ''HH:MM'' 24-hour, read in time_zone (weekly digests go on Mondays).';
comment on column public.profiles.notify_email is 'Master email switch: off, the outbox writes no notification for this traveller.';
comment on column public.profiles.notify_push is 'Push notification preference of the spec; stored only, FareBack sends no push messages.';
comment on column public.profiles.notify_sms is 'SMS preference of the spec; stored only, FareBack sends no SMS.';
comment on column public.profiles.subscription_start_date is 'Start of the current paid period; set by the api when a subscription payment succeeds or Stripe reports the subscription.';
comment on column public.profiles.subscription_end_date is 'End of the current paid period (a year after a one-off payment, Stripe''s period end for a subscription); never before the start.';
comment on column public.profiles.total_credits_earned is 'Airline credit in cents that FareBack''s rebookings won this traveller, all time; added to by each recorded rebooking.';
comment on column public.profiles.commission_owed is 'Commission in cents owed now: each recorded rebooking on a plan with a commission rate adds round(credit x rate / 100); payments move it to commission_paid, a refund moves it back. Ledger: commissions recorded = commission_owed + commission_paid.';
comment on column public.profiles.last_billing_date is 'When the last payment (subscription or commission) succeeded; written by private.payment_succeeded.';
comment on column public.profiles.created_at is 'When the account was created.';
comment on column public.profiles.updated_at is 'When the row last changed (trigger private.set_updated_at).';
comment on column public.profiles.plan_id is 'The plan the traveller is on (public.subscription_plans.id); its tier, flight limit and commission rate apply. New accounts start on private.default_plan_id(); changed by payments, Stripe events and operators (service connection).';
comment on column public.profiles.commission_paid is 'Commission in cents paid so far, all time (succeeded commission payments, less refunds).';

-- =============================================================================================
-- public.subscription_plans
-- =============================================================================================

comment on table public.subscription_plans is
  'The plans on offer and every plan anyone is on. Never deleted, only retired (is_active = false). Visitors and travellers read the active ones; admins create and edit them.';
comment on column public.subscription_plans.id is 'Plan id (profiles.plan_id points here).';
comment on column public.subscription_plans.name is 'Display name, unique regardless of case, 1-100 characters. Renaming changes nobody''s terms.';
comment on column public.subscription_plans.price is 'Price of one year of the plan in cents (Premium: 2499 = $24.99); 0 for a free plan.';
comment on column public.subscription_plans.flight_limit is 'How many watched flights the plan allows; -1 is unlimited.';
comment on column public.subscription_plans.auto_rebooking_enabled is 'Shown as the Auto-Rebooking feature of the plan. Automatic rebooking itself is allowed by tier = ''premium''.';
comment on column public.subscription_plans.commission_rate is 'Commission on airline credit won by a rebooking, integer percent 0-100 (Premium: 25); null or 0: no commission.';
comment on column public.subscription_plans.description is 'Text shown with the plan, at most 2000 characters.';
comment on column public.subscription_plans.is_active is 'Offered to new buyers. A retired plan (false) keeps its travellers and their terms.';
comment on column public.subscription_plans.features is 'JSON array of feature lines shown with the plan, or null.';
comment on column public.subscription_plans.created_at is 'When the plan was created.';
comment on column public.subscription_plans.updated_at is 'When the plan last changed (trigger private.set_updated_at).';
comment on column public.subscription_plans.tier is 'What the plan gives: ''free'' or ''premium'' (premium allows automatic rebooking and custom rebooking thresholds), whatever it is called.';

-- =============================================================================================
-- public.flights
-- =============================================================================================

comment on table public.flights is
  'A booked itinerary under watch. Written only by the api (manual entry after retrieving the booking from the fare source, email import, price checks, rebookings); the traveller reads and removes their own. Prices are integer cents in currency.';
comment on column public.flights.id is 'Flight id.';
comment on column public.flights.user_id is 'The traveller (public.profiles.id) whose booking this is.';
comment on column public.flights.airline is 'Operating airline''s name as retrieved or entered, 1-100 characters.';
comment on column public.flights.flight_number is 'Flight number of the outbound leg, e.g. DL123, 1-10 characters.';
comment on column public.flights.booking_code is 'The airline booking reference (PNR), upper case A-Z 0-9, 1-20 characters.';
comment on column public.flights.passenger_last_name is 'Last name on the booking, with the code what the fare source finds it by.';
comment on column public.flights.departure_airport is 'IATA code of the origin airport, three capital letters.';
comment on column public.flights.arrival_airport is 'IATA code of the destination airport, three capital letters.';
comment on column public.flights.departure_date is 'Date of the outbound departure (local to the airport). After it the flight is no longer watched.';
comment on column public.flights.return_date is 'Date of the return leg for a round trip, not before departure_date; null one way.';
comment on column public.flights.is_round_trip is 'Whether the booking includes a return leg.';
comment on column public.flights.return_flight_number is 'Flight number of the return leg, or null.';
comment on column public.flights.currency is 'ISO 4217 code of every price on this row (default USD).';
comment on column public.flights.original_price is 'Price paid for the booking, in cents.';
comment on column public.flights.current_price is 'Latest quoted fare for the same itinerary in cents (price checks; a rebooking sets the new price); null until checked.';
comment on column public.flights.lowest_price is 'Lowest fare quoted since it was added, in cents; null until checked.';
comment on column public.flights.highest_price is 'Highest fare quoted since it was added, in cents; null until checked.';
comment on column public.flights.last_checked is 'When a price check last quoted it (Check Now or a sweep); a sweep re-checks flights not checked within its interval.';
comment on column public.flights.fare_type is 'Fare brand as retrieved (e.g. Refundable Economy, Basic Economy); decides is_eligible_for_rebooking.';
comment on column public.flights.is_eligible_for_rebooking is 'Whether the fare can be changed for a lower price (supported fare types, or the source says changeable). False: status ''limited'', drops are missed opportunities.';
comment on column public.flights.has_been_rebooked is 'Set when a rebooking was recorded; the flight is no longer watched.';
comment on column public.flights.rebooking_date is 'When the rebooking was recorded.';
comment on column public.flights.rebooking_price is 'The lower fare the booking was changed to, in cents.';
comment on column public.flights.airline_credit is 'Airline credit in cents the rebooking earned the traveller, as the fare source reported it or the traveller confirmed it (assisted path).';
comment on column public.flights.credit_expiry_date is 'When the airline credit expires (a year after the rebooking unless confirmed otherwise); credit_expiring reminders 30 and 7 days before.';
comment on column public.flights.credit_reference_number is 'The airline''s reference for the credit (voucher or ticket number), as reported by the source or the traveller.';
comment on column public.flights.status is 'monitoring (watched), price_drop (quoted below the price paid), limited (fare not changeable), rebooking (a rebooking claim is under way, since rebooking_claimed_at), rebooked, departed, cancelled (by the airline). Written by the api only.';
comment on column public.flights.email_source is 'For a flight found by email import: the email it came from (via, messageId, from, subject, date) as a JSON object; null for manual entry.';
comment on column public.flights.is_manual_entry is 'Added by the traveller through Manual Entry (false: found in an email).';
comment on column public.flights.can_cancel is 'Whether the fare allows cancellation, as the source reported it.';
comment on column public.flights.cancellation_fee is 'Fee in cents to cancel the booking, as the source reported it; null when unknown.';
comment on column public.flights.seat_number is 'Seat assigned on the booking, if known (kept through a rebooking).';
comment on column public.flights.cabin_class is 'Cabin as the fare source retrieved it or the email said.';
comment on column public.flights.notes is 'Free text the traveller entered with the flight, at most 1000 characters.';
comment on column public.flights.created_at is 'When the flight was added.';
comment on column public.flights.updated_at is 'When the row last changed (trigger private.set_updated_at).';
comment on column public.flights.rebooking_method is '''source'': the fare source changes the booking itself (simulated source, Duffel orders); ''assisted'': the traveller changes it with the airline and confirms the new price and credit.';
comment on column public.flights.source_reference is 'The fare source''s id for the booking (a Duffel order id), at most 100 characters; null for assisted bookings.';
comment on column public.flights.commission_amount is 'Commission in cents this flight''s rebooking added to the owner''s commission_owed (round(credit x plan rate / 100)); null before a rebooking or on a plan without commission.';
comment on column public.flights.rebooking_claimed_at is 'When the current rebooking claim was taken (status moved price_drop -> rebooking); null when not being rebooked. The reconciler settles claims older than 5 minutes; see public.ops_stuck_rebookings.';
comment on column public.flights.recent_prices is 'The last 30 price checks as a JSON array, oldest first, each {price (cents), checkedAt}: a copy of flight_prices for the flight list, appended by the same statement.';
comment on column public.flights.change_penalty is 'Fee in cents the airline charges to change this fare, from the last quote; net savings = drop - change_penalty. Null when the quote gave none (treated as 0).';
comment on column public.flights.refund_form is 'How a fare difference comes back, from the last quote: ''credit'' (airline credit) or ''cash''; null when unknown (treated as credit).';
comment on column public.flights.over_limit is 'Found in an email while the plan''s flight limit was reached: kept but not watched, until a later scan finds room (private.promote_found_flights).';

-- =============================================================================================
-- public.flight_prices
-- =============================================================================================

comment on table public.flight_prices is
  'Price history: one row per quote recorded for a flight (Check Now, sweeps). Written by the api''s price checks; the traveller reads their own, admins all.';
comment on column public.flight_prices.id is 'Price check id.';
comment on column public.flight_prices.flight_id is 'The flight quoted (with user_id, a foreign key to public.flights).';
comment on column public.flight_prices.user_id is 'The flight''s owner, copied for row-level security and kept equal by the composite foreign key.';
comment on column public.flight_prices.price is 'The fare quoted for the same itinerary, in cents.';
comment on column public.flight_prices.currency is 'ISO 4217 code of price.';
comment on column public.flight_prices.checked_at is 'When the quote was made.';
comment on column public.flight_prices.source is 'Which fare source quoted: ''simulated'' or ''duffel'' (at most 50 characters).';

-- =============================================================================================
-- public.notification_history
-- =============================================================================================

comment on table public.notification_history is
  'The outbox: one row per message FareBack sends a traveller, written by private.queue_notification and delivered by the api''s notification_email / notification_digest jobs. The traveller reads their own and marks them read.';
comment on column public.notification_history.id is 'Notification id (the delivery job''s payload notificationId).';
comment on column public.notification_history.user_id is 'The traveller it is for.';
comment on column public.notification_history.flight_id is 'The flight it is about, or null (account messages; set to null when the flight is removed).';
comment on column public.notification_history.type is 'Kind of message: price_drop, rebooking, action_needed, flight_cancelled, credit_expiring, payment_failed, commission_statement, email_reconnect, import_over_limit (1-50 characters).';
comment on column public.notification_history.title is 'Headline shown in the app''s notification list (emails use a fixed subject per type).';
comment on column public.notification_history.message is 'The message text, 1-10000 characters.';
comment on column public.notification_history.status is 'pending (queued) -> sending (handed to the mailer under delivery_key) -> sent; suppressed (address unconfirmed or kind turned off when due); failed (the mailer refused it after the last retry; see public.ops_failed_notifications).';
comment on column public.notification_history.channel is 'Delivery channel: ''email'' (all FareBack sends today); ''push'', ''sms'', ''in_app'' are allowed by the check.';
comment on column public.notification_history.sent_at is 'When it was sent (set on sent; until then the time it was written).';
comment on column public.notification_history.read_at is 'When the traveller marked it read; null while unread.';
comment on column public.notification_history.additional_data is 'The type''s data as JSON (amounts in cents), e.g. price_drop {airline, flightNumber, route, oldPrice, newPrice, netSavings, qualifies, reason}.';
comment on column public.notification_history.created_at is 'When it was queued.';
comment on column public.notification_history.dedupe_key is 'Names the news once per traveller (e.g. credit_expiring:<flight>:<expiry>:7): queueing it again answers the same row.';
comment on column public.notification_history.delivery is '''instant'' (its own notification_email job) or ''digest'' (waits for the daily or weekly digest).';
comment on column public.notification_history.delivery_key is 'Idempotency key it was handed to the mailer under (fareback-notification-<id>, or the digest''s fareback-digest-<job id>).';
comment on column public.notification_history.digest_key is 'The digest that took it (fareback-digest-<notification_digest job id>); null for instant delivery.';
comment on column public.notification_history.attempts is 'How many times a delivery job took it for sending.';
comment on column public.notification_history.last_error is 'The mailer''s last error for it, at most 1000 characters; cleared when sent.';

-- =============================================================================================
-- public.billing_transactions
-- =============================================================================================

comment on table public.billing_transactions is
  'The billing history travellers see: subscription payments, commissions (one pending row per rebooking, monthly statements) and refunds, in cents. Written by the api and payment functions; admins may correct a status.';
comment on column public.billing_transactions.id is 'Transaction id.';
comment on column public.billing_transactions.user_id is 'The traveller billed.';
comment on column public.billing_transactions.amount is 'Amount in cents (never negative; a refund is its own type). A statement''s amount is everything owed when it closed.';
comment on column public.billing_transactions.currency is 'ISO 4217 code of amount (default USD).';
comment on column public.billing_transactions.status is 'pending, completed, failed or refunded.';
comment on column public.billing_transactions.type is 'subscription, commission (a rebooking''s commission, or a monthly statement when billing_period_start is set), refund, credit or adjustment.';
comment on column public.billing_transactions.description is 'Line shown in the billing history, at most 1000 characters.';
comment on column public.billing_transactions.transaction_date is 'When it happened (a commission: the rebooking; completed payments: when they succeeded).';
comment on column public.billing_transactions.payment_method is 'How it was paid: ''card'' (Stripe or test mode), ''manual'' (recorded by an admin), or null while unpaid.';
comment on column public.billing_transactions.payment_reference is 'The payment intent id that pays it (unique, so a replayed webhook cannot bill twice); null for rows no payment names.';
comment on column public.billing_transactions.billing_period_start is 'First day of the period a commission statement closes (one statement per traveller and period); null otherwise.';
comment on column public.billing_transactions.billing_period_end is 'Last day of the statement''s period; null otherwise.';
comment on column public.billing_transactions.credits_earned_in_period is 'Airline credit in cents behind it: the rebooking''s credit for a commission row, the period''s credits for a statement; 0 otherwise.';
comment on column public.billing_transactions.created_at is 'When the row was written.';
comment on column public.billing_transactions.updated_at is 'When the row last changed (trigger private.set_updated_at).';

-- =============================================================================================
-- public.price_check_logs and public.auto_rebooking_logs
-- =============================================================================================

comment on table public.price_check_logs is
  'One row per price sweep (scheduled every 15 minutes, or Run Price Check by an admin): running while its price_check jobs are outstanding, then its totals. Written by private.start_price_sweep / finish_price_sweep; admins read.';
comment on column public.price_check_logs.id is 'Sweep id (the sweepId in its price_check jobs'' payload).';
comment on column public.price_check_logs.started_at is 'When the sweep started.';
comment on column public.price_check_logs.total_flights_checked is 'Flights quoted by the sweep''s completed batches (a count).';
comment on column public.price_check_logs.total_price_drops_found is 'Flights the sweep found below their price paid (status price_drop after the check, newly or still), a count.';
comment on column public.price_check_logs.execution_time_ms is 'Duration in ms from start to finish, including any wait for a crashed sweep to be resumed; 0 while running.';
comment on column public.price_check_logs.initiated_by is 'The admin who ran it, or null for the scheduler (set to null if that account is deleted).';
comment on column public.price_check_logs.success is 'True when every batch finished and every flight could be quoted; false while running.';
comment on column public.price_check_logs.error_message is 'Why it failed: flights that could not be quoted, dead batches and their errors (at most 1000 characters).';
comment on column public.price_check_logs.additional_data is 'JSON: flightsDue, batches, checkIntervalMinutes, batchSize, quotesMade, quoteErrors, failedBatches.';
comment on column public.price_check_logs.created_at is 'When the row was written.';
comment on column public.price_check_logs.status is 'running (at most one at a time), completed or failed.';
comment on column public.price_check_logs.finished_at is 'When the last batch was accounted for; null while running.';

comment on table public.auto_rebooking_logs is
  'One row per automatic rebooking run (after a sweep, Run Auto-Rebooking by an admin, or a traveller''s Run Check). Written by private.start_auto_rebooking_run / finish_auto_rebooking_run; admins read.';
comment on column public.auto_rebooking_logs.id is 'Run id (the runId in its auto_rebook_* jobs'' payload).';
comment on column public.auto_rebooking_logs.started_at is 'When the run started.';
comment on column public.auto_rebooking_logs.total_flights_evaluated is 'Watched flights of premium travellers with auto-rebooking on that the run looked at (a count).';
comment on column public.auto_rebooking_logs.total_flights_rebooked is 'Flights the run rebooked (a count).';
comment on column public.auto_rebooking_logs.total_savings is 'Airline credit in cents won by the run''s rebookings, summed from its batches.';
comment on column public.auto_rebooking_logs.execution_time_ms is 'Duration in ms from start to the last batch''s report; 0 while running.';
comment on column public.auto_rebooking_logs.initiated_by is 'The admin or traveller who asked, or null for the scheduler.';
comment on column public.auto_rebooking_logs.success is 'True when no batch reported an error; false while running.';
comment on column public.auto_rebooking_logs.error_message is 'The batches'' errors joined with ''; '' (or why a run left running for an hour was closed).';
comment on column public.auto_rebooking_logs.additional_data is 'JSON: flightsQualifying, batchSize, actionNeeded, failed, batchesReported.';
comment on column public.auto_rebooking_logs.created_at is 'When the row was written.';
comment on column public.auto_rebooking_logs.status is 'running (one per scope at a time), completed or failed (not finished within an hour).';
comment on column public.auto_rebooking_logs.trigger is 'Who started it: ''scheduler'', ''admin'' or ''traveller''.';
comment on column public.auto_rebooking_logs.scope_user_id is 'The traveller a Run Check is limited to; null for a run over everyone.';
comment on column public.auto_rebooking_logs.batches is 'How many auto_rebook_* job batches the run enqueued.';
comment on column public.auto_rebooking_logs.finished_at is 'When the run was closed; null while running.';

-- =============================================================================================
-- public.contact_messages
-- =============================================================================================

comment on table public.contact_messages is
  'Messages sent through the public contact form, stored by the api after validation and rate limits (and mailed to support). Admins read them and set status; nobody else.';
comment on column public.contact_messages.id is 'Message id.';
comment on column public.contact_messages.user_id is 'The signed-in sender''s account, or null for a visitor (null too once the account is deleted).';
comment on column public.contact_messages.name is 'Sender''s name as entered, 2-100 characters.';
comment on column public.contact_messages.email is 'Sender''s reply address as entered (the mail''s reply-to).';
comment on column public.contact_messages.subject is 'Subject as entered, 5-200 characters.';
comment on column public.contact_messages.message is 'The message, 10-5000 characters.';
comment on column public.contact_messages.status is 'new, read, replied or archived; set by admins.';
comment on column public.contact_messages.created_at is 'When it was received.';
comment on column public.contact_messages.updated_at is 'When the row last changed (trigger private.set_updated_at).';

-- =============================================================================================
-- public.email_connections, public.email_scans, public.email_imports
-- =============================================================================================

comment on table public.email_connections is
  'A traveller''s connected mailbox for flight import (Gmail read-only through OAuth, or the local stack''s sample mailbox), one per traveller. Written by the api; the traveller reads it (not the tokens) and may disconnect (delete).';
comment on column public.email_connections.id is 'Connection id.';
comment on column public.email_connections.user_id is 'The traveller (one connection each).';
comment on column public.email_connections.provider is '''gmail'' or ''sample'' (dev/mailbox, offered only by the local stack).';
comment on column public.email_connections.provider_account_email is 'The mailbox''s own address as the provider reported it.';
comment on column public.email_connections.access_token_encrypted is 'OAuth access token, AES-GCM encrypted by the api (key EMAIL_TOKEN_KEY); never granted to users.';
comment on column public.email_connections.refresh_token_encrypted is 'OAuth refresh token, AES-GCM encrypted by the api; never granted to users.';
comment on column public.email_connections.token_expires_at is 'When the access token expires; the api refreshes it before use.';
comment on column public.email_connections.scopes is 'OAuth scopes Google granted (gmail.readonly).';
comment on column public.email_connections.status is 'connected (scanned), expired or revoked (Google refused the tokens: the traveller must reconnect), error.';
comment on column public.email_connections.connected_at is 'When the mailbox was (re)connected.';
comment on column public.email_connections.last_synced_at is 'When a scan last finished reading it; the hourly email_scan_due job rescans mailboxes not synced within the hour.';
comment on column public.email_connections.created_at is 'When the row was written.';
comment on column public.email_connections.updated_at is 'When the row last changed (trigger private.set_updated_at).';
comment on column public.email_connections.history_id is 'Gmail history id reached by the last scan: the next scan reads only what came after (incremental).';
comment on column public.email_connections.last_error is 'Why the provider stopped answering (e.g. token revoked), at most 500 characters.';

comment on table public.email_scans is
  'One row per inbox scan (the first after connecting, then hourly, or on demand), with its progress and counts. At most one open scan per traveller. Written by the api''s email_scan jobs; the traveller reads their own.';
comment on column public.email_scans.id is 'Scan id (the scanId of its email_scan job).';
comment on column public.email_scans.user_id is 'The traveller whose mailbox is scanned.';
comment on column public.email_scans.provider is '''gmail'' or ''sample''.';
comment on column public.email_scans.mode is '''full'' (the whole search window) or ''incremental'' (since the connection''s history_id).';
comment on column public.email_scans.status is 'queued, scanning, waiting (the provider rate-limited it; resumes at retry_at), done or failed.';
comment on column public.email_scans.scanned is 'Emails read so far (a count).';
comment on column public.email_scans.total is 'Emails the scan has to read (a count).';
comment on column public.email_scans.flights_found is 'New flights added from the emails (a count).';
comment on column public.email_scans.flights_updated is 'Existing flights changed by a schedule-change email (a count).';
comment on column public.email_scans.flights_cancelled is 'Flights marked cancelled by a cancellation email (a count).';
comment on column public.email_scans.flights_not_watched is 'Flights found but kept unwatched because the plan''s limit was reached (a count).';
comment on column public.email_scans.started_at is 'When the scan was opened.';
comment on column public.email_scans.finished_at is 'When it ended done or failed.';
comment on column public.email_scans.retry_at is 'While waiting: when it resumes.';
comment on column public.email_scans.error is 'Why it failed, at most 500 characters.';

comment on table public.email_imports is
  'One row per email read for a traveller (Gmail, the sample mailbox, or forwarded to their private address), with what was taken from it; never the body. Written by the api; the traveller reads their own.';
comment on column public.email_imports.id is 'Row id.';
comment on column public.email_imports.user_id is 'The traveller the email was read for.';
comment on column public.email_imports.via is '''gmail'', ''sample'' or ''forwarded''.';
comment on column public.email_imports.message_id is 'The provider''s message id (or the forwarded Message-ID); read once per traveller and via.';
comment on column public.email_imports.sender is 'The From header, at most 400 characters.';
comment on column public.email_imports.subject is 'The Subject header, at most 400 characters.';
comment on column public.email_imports.email_date is 'The email''s Date header.';
comment on column public.email_imports.read_at is 'When FareBack read it.';
comment on column public.email_imports.outcome is 'created, updated, cancelled, not_watched (over the plan''s limit), unchanged, departed (already flown) or not_a_booking.';
comment on column public.email_imports.bookings is 'JSON array of the bookings taken from it (airline, bookingCode, passengerLastName, segments, totalPrice in cents, currency, fareType, ...).';

-- =============================================================================================
-- public.jobs
-- =============================================================================================

comment on table public.jobs is
  'The job queue: every piece of background work (price-check batches, auto-rebooking batches, notification emails and digests, inbox scans, statements). Enqueued by private.enqueue_job, claimed and finished by the api''s workers with a lease. Admins read; see public.ops_failed_jobs.';
comment on column public.jobs.id is 'Job id.';
comment on column public.jobs.kind is 'What it does: a kind declared in private.job_kinds (price_check, auto_rebook_batch, auto_rebook_own, notification_email, notification_digest, notification_passes, email_scan, email_scan_due, commission_statements).';
comment on column public.jobs.payload is 'The kind''s input as a JSON object (e.g. notificationId, sweepId and flight range, runId and flightIds).';
comment on column public.jobs.status is 'queued -> running (claimed, under a lease) -> done; back to queued after a failed attempt (the kind''s backoff); dead (the dead letter: max_attempts used or a permanent error; kept 30 days).';
comment on column public.jobs.run_at is 'Not claimed before this time (set on enqueue and by the retry backoff).';
comment on column public.jobs.attempts is 'Claims so far (each claim is an attempt; a lease that ran out counts as a failed one).';
comment on column public.jobs.max_attempts is 'Attempts allowed before the job is dead, copied from its kind.';
comment on column public.jobs.locked_by is 'The worker holding the current claim; null unless running.';
comment on column public.jobs.lease_expires_at is 'When the current claim runs out (the job may then be claimed again); null unless running.';
comment on column public.jobs.last_error is 'The last failed attempt''s error, at most 1000 characters (kept after a later success).';
comment on column public.jobs.dedupe_key is 'Names one piece of work (e.g. notification_email:<id>, statements:2026-11): enqueueing it again answers this job.';
comment on column public.jobs.created_at is 'When it was enqueued.';
comment on column public.jobs.updated_at is 'When the row last changed (claim, failure, completion).';
comment on column public.jobs.claim_token is 'Token of the current claim: only its holder may complete or fail the job; null unless running.';
comment on column public.jobs.result is 'What the handler answered on completion, as JSON (e.g. a price batch''s checked, drops, quotes).';
comment on column public.jobs.finished_at is 'When it became done or dead (maintenance prunes done jobs after 7 days, dead after 30); null otherwise.';
comment on column public.jobs.priority is 'Higher is claimed first among due jobs of a kind: 10 for premium travellers'' notifications, else 0.';

-- =============================================================================================
-- private: server-only tables (no role but the api''s reads or writes them)
-- =============================================================================================

comment on table private.login_attempts is
  'Each sign-in attempt, by client address and account, to slow repeated failures (a 15-minute lockout window). Written and read by the api; pruned after a day.';
comment on column private.login_attempts.id is 'Row id.';
comment on column private.login_attempts.ip is 'The client address the attempt came from.';
comment on column private.login_attempts.account is 'The account the attempt named (as the api resolved the username or email entered).';
comment on column private.login_attempts.succeeded is 'Whether the password was right.';
comment on column private.login_attempts.attempted_at is 'When it was tried.';

comment on table private.contact_submissions is
  'One row per accepted contact message, for the contact form''s rate limits (3 per sender address and 10 per client address in 10 minutes). Written and read by the api; pruned after a day.';
comment on column private.contact_submissions.id is 'Row id.';
comment on column private.contact_submissions.email is 'The sender''s address, lower-cased.';
comment on column private.contact_submissions.ip is 'The client address the message came from.';
comment on column private.contact_submissions.submitted_at is 'When it was accepted.';

comment on table private.flight_bookings is
  'A flight''s booking exactly as the fare source returned it at retrieval; a rebooking sends the source this, never the flight row users see. One per flight; written by the api.';
comment on column private.flight_bookings.flight_id is 'The flight (public.flights.id).';
comment on column private.flight_bookings.user_id is 'The flight''s owner (kept equal by the composite foreign key).';
comment on column private.flight_bookings.source is 'The fare source that retrieved it: ''simulated'' or ''duffel''.';
comment on column private.flight_bookings.source_reference is 'The source''s own booking id (a Duffel order id), or null.';
comment on column private.flight_bookings.airline is 'Airline as retrieved.';
comment on column private.flight_bookings.booking_code is 'Booking reference as retrieved.';
comment on column private.flight_bookings.passenger_last_name is 'Last name as retrieved.';
comment on column private.flight_bookings.price_paid is 'Price paid in cents, as the source reported it (what credits and commissions are computed from).';
comment on column private.flight_bookings.currency is 'ISO 4217 code of price_paid.';
comment on column private.flight_bookings.cabin_class is 'Cabin as retrieved.';
comment on column private.flight_bookings.fare_type is 'Fare brand as retrieved.';
comment on column private.flight_bookings.fare_changeable is 'Whether the source said the fare may be changed.';
comment on column private.flight_bookings.rebooking_method is '''source'' or ''assisted'', as retrieved.';
comment on column private.flight_bookings.booking is 'The whole retrieved itinerary (RetrievedBooking) as a JSON object, for the re-check before a change.';
comment on column private.flight_bookings.retrieved_at is 'When it was retrieved.';

comment on table private.rebookings is
  'One row per rebooking attempt, written with the claim before the fare source is called and kept whatever happens to the flight. Open (claimed, confirmed) rows are settled by the api or its reconciler.';
comment on column private.rebookings.id is 'Attempt id.';
comment on column private.rebookings.flight_id is 'The flight being rebooked (no foreign key: the record outlives the card).';
comment on column private.rebookings.user_id is 'The flight''s owner.';
comment on column private.rebookings.method is '''source'' or ''assisted''.';
comment on column private.rebookings.state is 'claimed (the source is being asked), confirmed (the source changed it; recording pending), recorded (credit and commission recorded), released (nothing changed; claim given back). At most one open per flight.';
comment on column private.rebookings.request is 'What was sent to the source (RebookRequest) as JSON, so the reconciler asks about the same booking.';
comment on column private.rebookings.result is 'The source''s answer (RebookResult) or the traveller''s confirmation as JSON (prices in cents); set once confirmed.';
comment on column private.rebookings.commission is 'Commission in cents recorded for it, once recorded.';
comment on column private.rebookings.error is 'Why it was released, or the reconciler''s last error.';
comment on column private.rebookings.attempts is 'Reconciler passes that could not settle it yet (the source was down).';
comment on column private.rebookings.claimed_at is 'When the claim was taken.';
comment on column private.rebookings.confirmed_at is 'When the source''s change was written down.';
comment on column private.rebookings.finished_at is 'When it was recorded or released.';
comment on column private.rebookings.updated_at is 'When the row last changed (trigger private.set_updated_at).';

comment on table private.fare_source_calls is
  'Each fare source call a traveller''s request made (a manual add, a Check Now), counted before the call for the per-flight interval (60 s) and the per-traveller hourly budget (60). Sweeps are not counted. Pruned after a day.';
comment on column private.fare_source_calls.id is 'Row id.';
comment on column private.fare_source_calls.user_id is 'The traveller whose request made the call.';
comment on column private.fare_source_calls.flight_id is 'The flight checked, or null for an add.';
comment on column private.fare_source_calls.kind is '''add'' (a manual entry retrieval) or ''check'' (Check Now).';
comment on column private.fare_source_calls.called_at is 'When the call was made.';

comment on table private.email_confirmations is
  'One row per address-confirmation email sent: the link token''s SHA-256 (never the token), valid once before expires_at. Also counts emails sent per account for the re-send limit. Written and read by the api.';
comment on column private.email_confirmations.id is 'Row id.';
comment on column private.email_confirmations.user_id is 'The account (auth.users.id).';
comment on column private.email_confirmations.email is 'The address the link was sent to; it confirms only while the account still has it.';
comment on column private.email_confirmations.token_hash is 'SHA-256 of the link''s token, 64 hex characters.';
comment on column private.email_confirmations.created_at is 'When the email was sent.';
comment on column private.email_confirmations.expires_at is 'After this the link no longer confirms.';
comment on column private.email_confirmations.used_at is 'When the link was used; null while unused.';

comment on table private.job_kinds is
  'Every kind of background job with its retry policy, declared by the migration of the area that adds it; private.enqueue_job refuses an undeclared kind.';
comment on column private.job_kinds.kind is 'The kind''s name, lower snake case (e.g. notification_email).';
comment on column private.job_kinds.description is 'What one job of the kind does and its payload.';
comment on column private.job_kinds.max_attempts is 'Attempts before a job of the kind becomes a dead letter.';
comment on column private.job_kinds.backoff_base_seconds is 'Delay in seconds before the first retry; doubled per attempt.';
comment on column private.job_kinds.backoff_max_seconds is 'Longest delay in seconds between retries.';

comment on table private.airport_countries is
  'Which country each IATA airport is in (generated from the airport-data-js package by dev/db/airport-countries.ts): a route crosses a border when both ends are known and differ.';
comment on column private.airport_countries.iata is 'IATA airport code, three capital letters.';
comment on column private.airport_countries.country_code is 'ISO 3166-1 alpha-2 country code (San Juan is PR).';

comment on table private.auto_rebooking_batches is
  'What each batch of an automatic rebooking run did, written with its job''s completion (so once); the run''s totals are summed from these.';
comment on column private.auto_rebooking_batches.run_id is 'The run (public.auto_rebooking_logs.id).';
comment on column private.auto_rebooking_batches.batch is 'The batch number within the run, from 0.';
comment on column private.auto_rebooking_batches.result is 'The batch''s report as JSON: rebooked, savings (cents), actionNeeded, failed, error.';
comment on column private.auto_rebooking_batches.finished_at is 'When the batch reported.';

comment on table private.circuit_breakers is
  'Circuit breakers shared by every worker (today ''fare_source'' for automatic runs): after a threshold of consecutive failed calls a breaker opens and batches call nothing until opened_until.';
comment on column private.circuit_breakers.name is 'The breaker''s name (''fare_source'').';
comment on column private.circuit_breakers.consecutive_failures is 'Failed calls in a row; a success resets it to 0.';
comment on column private.circuit_breakers.opened_until is 'Open (no calls) until this time; null or past: closed.';
comment on column private.circuit_breakers.last_error is 'The last failed call''s error.';
comment on column private.circuit_breakers.updated_at is 'When a batch last reported to it.';

comment on table private.billing_accounts is
  'One row per traveller who ever paid: their Stripe customer, subscription and its status, and the card saved for commission charges. Written by the api and payment functions.';
comment on column private.billing_accounts.user_id is 'The traveller.';
comment on column private.billing_accounts.customer_id is 'The Stripe customer id (cus_...), unique.';
comment on column private.billing_accounts.subscription_id is 'The Stripe subscription id (sub_...), unique, or null for one-off payments.';
comment on column private.billing_accounts.subscription_status is 'none, active, canceled (ends at period end), past_due or expired.';
comment on column private.billing_accounts.renews is 'Whether the subscription renews at the end of its period.';
comment on column private.billing_accounts.payment_method_id is 'The card saved for off-session commission charges (a Stripe payment method id), or null.';
comment on column private.billing_accounts.updated_at is 'When the row last changed (trigger private.set_updated_at).';

comment on table private.payments is
  'Every payment intent the api created: a plan''s year or the commission owed, its amount in cents and outcome. The billing_transactions row it writes has payment_reference = id.';
comment on column private.payments.id is 'The payment intent id (Stripe pi_..., or the local test mode''s).';
comment on column private.payments.user_id is 'The traveller paying.';
comment on column private.payments.purpose is '''subscription'' or ''commission''.';
comment on column private.payments.plan_id is 'The plan a subscription payment buys; null for commission.';
comment on column private.payments.amount is 'Amount charged in cents (above 0).';
comment on column private.payments.applied is 'What a succeeded commission payment took off commission_owed, in cents (never more than was owed); a refund puts it back.';
comment on column private.payments.status is 'pending, succeeded, failed or refunded (at most one pending commission payment per traveller).';
comment on column private.payments.failure_message is 'Why the card was declined, at most 500 characters.';
comment on column private.payments.statement_id is 'The commission statement (public.billing_transactions.id) an off-session statement charge pays, or null.';
comment on column private.payments.created_at is 'When the intent was created.';
comment on column private.payments.updated_at is 'When the row last changed (trigger private.set_updated_at).';

comment on table private.stripe_events is
  'Each Stripe webhook event id processed, once, so a replayed event does nothing.';
comment on column private.stripe_events.id is 'Stripe event id (evt_...).';
comment on column private.stripe_events.type is 'Stripe event type (e.g. invoice.paid).';
comment on column private.stripe_events.received_at is 'When it was processed.';

comment on table private.local_payment_intents is
  'The local test mode''s stand-in for Stripe payment intents (no card is charged); unused when STRIPE_SECRET_KEY is set.';
comment on column private.local_payment_intents.id is 'Intent id.';
comment on column private.local_payment_intents.customer_id is 'The stand-in customer id.';
comment on column private.local_payment_intents.amount is 'Amount in cents.';
comment on column private.local_payment_intents.currency is 'Lower-case ISO 4217 code, as Stripe writes it (usd).';
comment on column private.local_payment_intents.status is 'requires_payment_method, succeeded or canceled.';
comment on column private.local_payment_intents.metadata is 'The intent''s metadata as a JSON object (what it pays for).';
comment on column private.local_payment_intents.payment_method_id is 'The test card used, or null.';
comment on column private.local_payment_intents.failure_message is 'Why the test card was declined.';
comment on column private.local_payment_intents.created_at is 'When it was created.';

comment on table private.email_oauth_attempts is
  'One-time Gmail OAuth attempts: the SHA-256 of the state sent to Google and the PKCE verifier, spent once by the callback within 10 minutes while the asking session is signed in. Pruned a day after expiry.';
comment on column private.email_oauth_attempts.id is 'Row id.';
comment on column private.email_oauth_attempts.user_id is 'The traveller connecting (no foreign key: a deleted account must still be recognised).';
comment on column private.email_oauth_attempts.session_id is 'The auth session (auth.sessions.id) that asked.';
comment on column private.email_oauth_attempts.state_hash is 'SHA-256 of the OAuth state parameter, unique.';
comment on column private.email_oauth_attempts.code_verifier is 'The PKCE code verifier sent with the code exchange.';
comment on column private.email_oauth_attempts.created_at is 'When the attempt began.';
comment on column private.email_oauth_attempts.expires_at is 'After this (10 minutes) the callback refuses it.';
comment on column private.email_oauth_attempts.used_at is 'When the callback spent it; null while unused.';

comment on table private.email_forwarding_addresses is
  'Each traveller''s private forwarding address trips+<token>@<INBOUND_EMAIL_DOMAIN>; the token is random, so the address says nothing about its owner.';
comment on column private.email_forwarding_addresses.user_id is 'The traveller.';
comment on column private.email_forwarding_addresses.token is 'The address''s random part, 12-32 of a-z 0-9, unique.';
comment on column private.email_forwarding_addresses.created_at is 'When the address was made.';

-- =============================================================================================
-- Functions operators call by hand (Studio's SQL editor, as the project owner)
-- =============================================================================================

comment on function private.make_admin(text) is
  'Flags the account with this email (any case) as an administrator; true when one was found. For operators and the local seed.';
comment on function private.confirm_email_address(text) is
  'Marks the account with this email as confirmed (product email may go to it); true when one was found.';
comment on function private.is_admin() is
  'Whether the signed-in caller (auth.uid()) is an administrator; false for anyone else. Used by policies.';
comment on function private.is_end_user() is
  'True when the statement runs as anon or authenticated (the data API''s roles), false for service_role, the owner and security definer code.';
comment on function private.default_plan_id() is
  'The plan a new account starts on: the active free-tier plan with the lowest id (else the lowest free-tier id).';
comment on function private.refresh_recent_prices(bigint[]) is
  'Rebuilds flights.recent_prices of these flights from public.flight_prices (after writing price history by hand).';
comment on function private.enqueue_job(text, jsonb, timestamptz, text, integer) is
  'Queues a job of a declared kind (payload, not before run_after, dedupe key, priority); answers its id, or the id of the job already holding the key.';
comment on function private.prune_jobs(interval, interval) is
  'Deletes done jobs older than the first interval (7 days) and dead letters older than the second (30 days); answers how many.';
comment on function private.prune_login_attempts() is 'Deletes login attempts older than a day; answers how many.';
comment on function private.prune_fare_source_calls() is 'Deletes fare source call counts older than a day; answers how many.';
comment on function private.enqueue_pending_notifications(integer) is
  'Gives a notification_email job to up to this many instant notifications left pending or sending without one; answers how many.';
comment on function private.run_notification_passes(timestamptz) is
  'Queues what is due at this moment (default now): digests whose time has come, expiring-credit reminders, stranded instant rows. Safe to run any time.';
comment on function private.open_due_email_scans(timestamptz) is
  'Opens an email_scan job for every connected mailbox not synced since this time and without an open scan; answers how many.';
comment on function private.promote_found_flights(uuid) is
  'Makes this traveller''s over-limit flights watched while the plan has room, oldest first; answers how many.';
comment on function private.start_price_sweep(uuid, integer, integer) is
  'Starts a price sweep (or answers the running one): enqueues price_check batches of the flights due (not checked within the interval in minutes), batch size flights each.';
comment on function private.finish_price_sweep(bigint) is
  'Writes a sweep''s totals from its jobs and closes it once no batch is outstanding; idempotent.';
comment on function private.start_auto_rebooking_run(text, uuid, uuid, integer) is
  'Starts an automatic rebooking run (trigger, initiator, optional traveller scope, batch size): enqueues the qualifying price drops in batches; joins a running run of the same scope.';
comment on function private.finish_auto_rebooking_run(bigint) is
  'Closes a run once every batch has reported, summing their results; idempotent.';
comment on function private.close_commission_period(uuid, date, date) is
  'Closes a traveller''s commission period [start, end] with one statement row (amount = all owed in cents); answers its id, the existing one, or null when nothing is owed or earned.';
comment on function private.payment_succeeded(text, text) is
  'Applies a succeeded payment intent (and the card to save): a plan''s year, or commission moved from owed to paid; idempotent.';
comment on function private.payment_failed(text, text) is
  'Marks a pending payment failed with the reason and tells the traveller; idempotent.';
comment on function private.payment_refunded(text) is
  'Applies a refund: a commission goes back on commission_owed; a subscription ends premium at once; idempotent.';
comment on function private.unsubscribe_notification_kind(uuid, text) is
  'Turns one notification kind off for a traveller (what the unsubscribe link does); false for a kind nobody can turn off.';
comment on function private.queue_notification(uuid, text, text, text, jsonb, bigint, text) is
  'The outbox''s one writer: writes a notification once per (traveller, dedupe key) if the traveller wants it and queues its delivery; null when not written.';
comment on function private.rebooking_verdict(public.flights, public.profiles) is
  'Whether a flight''s price drop qualifies for an automatic rebooking under its owner''s thresholds: JSON {netSavings (cents), changePenalty, refundForm, qualifies, international, minNetSavings (cents), reason}.';
comment on function private.flight_is_watched(public.flights) is
  'Watched: not rebooked, not over the limit, not departed or cancelled, departing today or later. What the flight limit counts.';
comment on function private.flight_is_checkable(public.flights) is 'Watched and not being rebooked: a price check may record a quote on it.';
comment on function private.flight_is_due(public.flights, timestamptz) is 'Checkable and not checked since the given time: a sweep''s due rule.';
comment on function private.circuit_open_until(text) is 'Until when the named circuit breaker is open, or null when calls may go ahead.';

// The premium demo traveller's billing: a paid year of Premium (local test mode: a test card on
// file), two rebooked flights with airline credit, last month's commission statement paid after
// one declined attempt, this month's commission owed, and a flight still watched. Written once
// (when the account has no flight yet) and consistent with the ledger: the commissions recorded
// at the rebookings = commission owed + commission paid. Each flight has the price history its
// card's chart shows (dev/demo-prices.ts).
import type postgres from 'postgres';
import { writeDemoPriceHistory } from './demo-prices.ts';

export async function ensurePremiumDemo(sql: postgres.Sql, email: string): Promise<void> {
  await sql.begin(async (tx) => {
    const [profile] = await tx<{ id: string; flights: number }[]>`
      select p.id, (select count(*)::int from public.flights f where f.user_id = p.id) as flights
        from public.profiles p where lower(p.email) = lower(${email}) for update`;
    if (!profile || profile.flights > 0) return;
    const userId = profile.id;
    const compact = userId.replaceAll('-', '');

    // a year of Premium, paid 60 days ago with the test card
    await tx`
      update public.profiles set
        -- the premium offer (_shared/plans/offer.ts): by tier and price, whatever its name
        plan_id = (select id from public.subscription_plans where tier = 'premium' and is_active and price > 0
                    order by price, id limit 1),
        subscription_start_date = now() - interval '60 days',
        subscription_end_date = now() - interval '60 days' + interval '1 year',
        last_billing_date = least(now(), date_trunc('month', now()) + interval '1 hour'),
        auto_rebooking = true
      where id = ${userId}`;
    await tx`
      insert into private.billing_accounts (user_id, customer_id, subscription_status, renews, payment_method_id)
      values (${userId}, ${`cus_test_${compact}`}, 'active', false, 'pm_test_card')
      on conflict (user_id) do nothing`;
    const [plan] = await tx<{ id: number; price: number; rate: number }[]>`
      select sp.id, sp.price, coalesce(sp.commission_rate, 0) as rate
        from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
       where p.id = ${userId}`;
    const subscription = `pi_test_demo_premium_${compact}`;
    await tx`
      insert into private.payments (id, user_id, purpose, plan_id, amount, status, created_at)
      values (${subscription}, ${userId}, 'subscription', ${plan?.id ?? null}, ${plan?.price ?? 2499}, 'succeeded',
              now() - interval '60 days')`;
    await tx`
      insert into public.billing_transactions (user_id, amount, status, type, description, transaction_date,
                                               payment_method, payment_reference)
      values (${userId}, ${plan?.price ?? 2499}, 'completed', 'subscription', 'Premium subscription (one year)',
              now() - interval '60 days', 'card', ${subscription})`;

    // two rebookings: one last month (stated and paid), one this month (owed)
    const rebook = async (r: {
      airline: string;
      flightNumber: string;
      code: string;
      from: string;
      to: string;
      paid: number;
      now: number;
      at: string;
    }) => {
      const credit = r.paid - r.now;
      // the plan's rate, kept with the rebooking, and the ledger's maths, as private.record_rebooking
      // does (which is not called: the demo's rebookings are history, nobody is to be emailed)
      const rate = plan?.rate ?? 0;
      const [{ commission } = { commission: 0 }] = await tx<{ commission: number }[]>`
        select private.commission_on(${credit}, ${rate}) as commission`;
      const [flight] = await tx<{ id: number }[]>`
        insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                    departure_airport, arrival_airport, departure_date, original_price,
                                    current_price, lowest_price, highest_price, fare_type, cabin_class,
                                    is_eligible_for_rebooking, rebooking_method, has_been_rebooked, status,
                                    rebooking_date, rebooking_price, airline_credit, credit_expiry_date,
                                    credit_reference_number, commission_amount, commission_rate, last_checked)
        values (${userId}, ${r.airline}, ${r.flightNumber}, ${r.code}, 'Rivera', ${r.from}, ${r.to},
                current_date + 50, ${r.paid}, ${r.now}, ${r.now}, ${r.paid}, 'Flexible Economy', 'Economy',
                true, 'source', true, 'rebooked', ${r.at}::timestamptz, ${r.now}, ${credit},
                (${r.at}::timestamptz + interval '1 year')::date, ${`CR-${r.code}`}, ${commission}, ${rate},
                ${r.at}::timestamptz)
        returning id::int`;
      await tx`
        insert into private.rebookings (flight_id, user_id, method, state, result, commission, claimed_at, confirmed_at, finished_at)
        values (${flight?.id ?? 0}, ${userId}, 'source', 'recorded',
                ${tx.json({ newPrice: r.now, airlineCredit: credit, creditReference: `CR-${r.code}` })},
                ${commission}, ${r.at}::timestamptz, ${r.at}::timestamptz, ${r.at}::timestamptz)`;
      await tx`
        update public.profiles set total_credits_earned = total_credits_earned + ${credit},
                                   commission_owed = commission_owed + ${commission}
         where id = ${userId}`;
      const [row] = await tx<{ id: number }[]>`
        insert into public.billing_transactions (user_id, amount, status, type, description, transaction_date,
                                                 credits_earned_in_period)
        values (${userId}, ${commission}, 'pending', 'commission',
                ${`${rate}% commission on the ${r.airline} ${r.flightNumber} rebooking`}, ${r.at}::timestamptz, ${credit})
        returning id::int`;
      return { commission, credit, rowId: row?.id ?? 0 };
    };
    const [when] = await tx<
      {
        last_month: string;
        this_month: string;
        period_start: string;
        period_end: string;
        closed: string;
        label: string;
      }[]
    >`
      select (date_trunc('month', now()) - interval '12 days')::text as last_month,
             greatest(date_trunc('month', now()), now() - interval '2 days')::text as this_month,
             (date_trunc('month', now()) - interval '1 month')::date::text as period_start,
             (date_trunc('month', now()) - interval '1 day')::date::text as period_end,
             least(now(), date_trunc('month', now()) + interval '1 hour')::text as closed,
             'Commission statement ' || to_char(date_trunc('month', now()) - interval '1 month', 'Mon FMDD, YYYY')
               || ' - ' || to_char(date_trunc('month', now()) - interval '1 day', 'Mon FMDD, YYYY') as label`;
    if (!when) return;
    const earlier = await rebook({
      airline: 'United Airlines',
      flightNumber: 'UA1234',
      code: 'DEMOP1',
      from: 'SFO',
      to: 'JFK',
      paid: 45_000,
      now: 38_000,
      at: when.last_month,
    });
    await rebook({
      airline: 'Delta Air Lines',
      flightNumber: 'DL402',
      code: 'DEMOP2',
      from: 'ATL',
      to: 'LAX',
      paid: 52_000,
      now: 44_000,
      at: when.this_month,
    });

    // last month's statement: a declined attempt, then paid with the card on file
    const [statement] = await tx<{ id: number }[]>`
      insert into public.billing_transactions (user_id, amount, status, type, description, transaction_date,
                                               billing_period_start, billing_period_end, credits_earned_in_period,
                                               payment_method, payment_reference)
      values (${userId}, ${earlier.commission}, 'completed', 'commission',
              ${when.label}, ${when.closed}::timestamptz,
              ${when.period_start}::date, ${when.period_end}::date, ${earlier.credit}, 'card',
              ${`pi_test_demo_statement_${compact}`})
      returning id::int`;
    await tx`
      insert into private.payments (id, user_id, purpose, amount, applied, status, statement_id, created_at)
      values (${`pi_test_demo_statement_${compact}`}, ${userId}, 'commission', ${earlier.commission},
              ${earlier.commission}, 'succeeded', ${statement?.id ?? null}, ${when.closed}::timestamptz)`;
    await tx`
      insert into private.payments (id, user_id, purpose, amount, status, failure_message, created_at)
      values (${`pi_test_demo_declined_${compact}`}, ${userId}, 'commission', ${earlier.commission}, 'failed',
              'Your card was declined.', ${when.closed}::timestamptz - interval '30 minutes')`;
    await tx`
      insert into public.billing_transactions (user_id, amount, status, type, description, transaction_date,
                                               payment_method, payment_reference)
      values (${userId}, ${earlier.commission}, 'failed', 'commission', 'Commission payment',
              ${when.closed}::timestamptz - interval '30 minutes', 'card', ${`pi_test_demo_declined_${compact}`})`;
    await tx`update public.billing_transactions set status = 'completed' where id = ${earlier.rowId}`;
    await tx`
      update public.profiles set commission_owed = commission_owed - ${earlier.commission},
                                 commission_paid = commission_paid + ${earlier.commission}
       where id = ${userId}`;

    // and one flight still watched
    await tx`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  current_price, lowest_price, highest_price, fare_type, cabin_class,
                                  is_eligible_for_rebooking, rebooking_method, last_checked)
      values (${userId}, 'American Airlines', 'AA100', 'DEMOP3', 'Rivera', 'DFW', 'ORD', current_date + 30,
              31000, 31000, 30500, 31000, 'Refundable Economy', 'Economy', true, 'source', now())`;

    // their cards' charts: the checks that found these prices
    await writeDemoPriceHistory(tx, userId);
  });
}

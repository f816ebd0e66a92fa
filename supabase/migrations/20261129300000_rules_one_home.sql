-- =============================================================================================
-- Each rule one home (issue 22, item 3)
-- =============================================================================================
-- Rules the database enforces live here, once; the api reads them from here instead of writing
-- them again in TypeScript (docs/architecture.md "Where each rule lives"):
--   * the status of a flight no check has found a drop on: private.flight_initial_status
--   * room on the plan: private.room_on_plan
--   * automatic rebooking applies (premium, switched on, the plan allows it):
--     private.auto_rebooking_refusal / private.auto_rebooking_applies
--   * the rebooking ledger (commission maths, the billing row, the notification):
--     private.commission_on and private.record_rebooking, beside the payment ledger's
--     private.record_commission_payment and private.claim_commission_payment
--
-- Intended schema differences (for the catalog comparison of the issue 22 baseline):
--   * dropped: trigger flights_set_initial_status on public.flights and its function
--     private.set_initial_flight_status() (only the system inserts flights since
--     20261123000200_flight_bookings, so it never fired; the api now asks
--     private.flight_initial_status).
--   * new: private.flight_initial_status(boolean) returns text (immutable, inlinable SQL; the api's
--     role only).
--   * new: private.room_on_plan(uuid) returns table (flight_limit, watched, room) (stable SQL,
--     security invoker; EXECUTE granted to authenticated, which runs it under its row-level
--     security for the Add Flight check).
--   * redefined, same signatures, now reading private.room_on_plan: private.enforce_flight_limit()
--     (same refusal, FB409), private.promote_found_flights(uuid), private.unwatch_flights_over_limit(uuid).
--   * new: private.auto_rebooking_refusal(public.profiles, public.subscription_plans) returns text
--     and private.auto_rebooking_applies(public.profiles, public.subscription_plans) returns boolean
--     (immutable, inlinable SQL; the api's role only).
--   * redefined, same signature: private.start_auto_rebooking_run(text, uuid, uuid, integer) counts
--     the travellers private.auto_rebooking_applies to. Behaviour change: a premium plan that does
--     not allow automatic rebooking (subscription_plans.auto_rebooking_enabled false) no longer
--     gets automatic runs (before, the tier and the traveller's switch were enough).
--   * new: private.commission_on(integer, integer) returns integer (immutable, inlinable SQL) and
--     private.record_rebooking(bigint, uuid, bigint, integer, integer, text, date, text,
--     timestamptz, text) returns integer (security definer; the api's role only). Its 'rebooking'
--     notification is a type and data (private.queue_notification of
--     20261129100000_notification_data.sql), the fields the api wrote before: airline,
--     flightNumber, departureAirport, arrivalAirport, newPrice, credit, reference, creditExpiresAt.

-- =============================================================================================
-- The status of a flight no check has found a drop on
-- =============================================================================================
-- A new flight, a check that finds no lower fare, and a rebooking the source refused because the
-- fare is gone all show the flight this way: monitored when its fare can be changed, 'limited'
-- (drops are missed opportunities) when it cannot. Language sql without SET, so a price check's
-- update inlines it.

drop trigger flights_set_initial_status on public.flights;
drop function private.set_initial_flight_status();

create function private.flight_initial_status(p_is_eligible_for_rebooking boolean)
returns text
language sql
immutable
as $$
  select case when p_is_eligible_for_rebooking then 'monitoring' else 'limited' end
$$;

revoke all on function private.flight_initial_status(boolean) from public, anon, authenticated, service_role;
comment on function private.flight_initial_status(boolean) is
  'The status of a flight no check has found a drop on: ''monitoring'' for a fare that can be changed '
  '(is_eligible_for_rebooking), else ''limited''. What the api inserts a flight with, what a check without a '
  'drop and a rebooking refused for a fare now gone leave. Inlinable SQL.';

-- =============================================================================================
-- Room on the plan
-- =============================================================================================
-- How many more flights a traveller's plan watches: its flight limit less the flights watched now
-- (private.flight_is_watched). Security invoker: the Add Flight check runs it as the traveller,
-- under the policies (the traveller sees their own flights and the plan they are on); the
-- triggers and passes below run it as its owner. Callers that decide on the answer lock the
-- traveller's profile row first, so two adds cannot both take the last place.

create function private.room_on_plan(p_user_id uuid)
returns table (flight_limit integer, watched integer, room integer)
language sql
stable
as $$
  select sp.flight_limit,
         w.watched,
         case when sp.flight_limit = -1 then 2147483647 else sp.flight_limit - w.watched end
    from public.profiles p
    join public.subscription_plans sp on sp.id = p.plan_id
   cross join lateral (
     select count(*)::integer as watched
       from public.flights f
      where f.user_id = p.id and private.flight_is_watched(f)
   ) w
   where p.id = p_user_id
$$;

revoke all on function private.room_on_plan(uuid) from public, anon, authenticated, service_role;
grant execute on function private.room_on_plan(uuid) to authenticated;
comment on function private.room_on_plan(uuid) is
  'Room on the traveller''s plan: flight_limit (-1 unlimited), watched (flights private.flight_is_watched counts) '
  'and room, how many more flights it watches (flight_limit - watched; negative when it watches more than the '
  'plan allows, after a downgrade; 2147483647 when unlimited). No row without a profile. Security invoker: '
  'a traveller calling it sees only their own flights.';

-- The flight limit: a watched flight is refused when the plan has no room.
create or replace function private.enforce_flight_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_room record;
begin
  if not private.flight_is_watched(new) then
    return new;
  end if;
  -- the owner's row is locked so two concurrent adds cannot both take the last place
  perform 1 from public.profiles p where p.id = new.user_id for update;
  select * into v_room from private.room_on_plan(new.user_id);
  if v_room.room <= 0 then
    raise exception 'Flight limit reached: your plan monitors up to % flights.', v_room.flight_limit
      using errcode = 'FB409';
  end if;
  return new;
end;
$$;

-- Found-not-watched flights of a traveller become watched while the plan has room, oldest first.
create or replace function private.promote_found_flights(p_user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_room integer;
  v_promoted integer;
begin
  perform 1 from public.profiles p where p.id = p_user_id for update;
  select greatest(r.room, 0) into v_room from private.room_on_plan(p_user_id) r;
  if coalesce(v_room, 0) = 0 then
    return 0;
  end if;
  with chosen as (
    select f.id from public.flights f
     where f.user_id = p_user_id and f.over_limit
       and not f.has_been_rebooked and f.status not in ('rebooked', 'departed', 'cancelled')
       and f.departure_date >= current_date
     order by f.created_at, f.id
     limit v_room
  )
  update public.flights f set over_limit = false from chosen where f.id = chosen.id;
  get diagnostics v_promoted = row_count;
  return v_promoted;
end;
$$;

-- The inverse: the watched flights the plan has no room for are kept with over_limit (not
-- watched), the most recently added first; a flight being rebooked right now stays watched.
create or replace function private.unwatch_flights_over_limit(p_user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_over integer;
  v_count integer;
begin
  perform 1 from public.profiles p where p.id = p_user_id for update;
  select greatest(-r.room, 0) into v_over from private.room_on_plan(p_user_id) r;
  if coalesce(v_over, 0) = 0 then
    return 0;
  end if;
  with ranked as (
    select f.id, row_number() over (order by (f.status = 'rebooking'), f.created_at desc, f.id desc) as n
      from public.flights f
     where f.user_id = p_user_id and private.flight_is_watched(f)
  )
  update public.flights f set over_limit = true
    from ranked r
   where f.id = r.id and r.n <= v_over;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

-- =============================================================================================
-- Automatic rebooking applies
-- =============================================================================================
-- To a traveller on a premium plan that allows automatic rebooking, who switched it on. Why not,
-- in one word the api answers with: 'plan' (the plan is not premium or does not allow it; the
-- tier check is the rule as written, though subscription_plans_tier_derived already makes every
-- plan that allows it premium) or 'switched_off'. Given the traveller's plan row (callers join
-- it on profiles.plan_id), so the functions stay plain expressions the planner inlines into the
-- start of a run, which asks it of every traveller.

create function private.auto_rebooking_refusal(p public.profiles, sp public.subscription_plans)
returns text
language sql
immutable
as $$
  select case
    when not coalesce(sp.id = p.plan_id and sp.tier = 'premium' and sp.auto_rebooking_enabled, false) then 'plan'
    when not p.auto_rebooking then 'switched_off'
  end
$$;

create function private.auto_rebooking_applies(p public.profiles, sp public.subscription_plans)
returns boolean
language sql
immutable
as $$
  select private.auto_rebooking_refusal(p, sp) is null
$$;

revoke all on function private.auto_rebooking_refusal(public.profiles, public.subscription_plans)
  from public, anon, authenticated, service_role;
revoke all on function private.auto_rebooking_applies(public.profiles, public.subscription_plans)
  from public, anon, authenticated, service_role;
comment on function private.auto_rebooking_refusal(public.profiles, public.subscription_plans) is
  'Why automatic rebooking does not apply to this traveller on this plan (their plan_id''s row): ''plan'' (not '
  'their plan, not premium, or it does not allow it: subscription_plans.auto_rebooking_enabled), ''switched_off'' '
  '(profiles.auto_rebooking is off), or null when it applies. Inlinable SQL.';
comment on function private.auto_rebooking_applies(public.profiles, public.subscription_plans) is
  'Automatic rebooking applies to this traveller on their plan: premium, the plan allows it, switched on '
  '(private.auto_rebooking_refusal is null). What a run''s start, its batches and the claim of an automatic rebooking check.';

create or replace function private.start_auto_rebooking_run(
  p_trigger text,
  p_initiated_by uuid,
  p_scope_user uuid,
  p_batch_size integer
)
returns table (run_id bigint, resumed boolean, flights_evaluated integer, flights_qualifying integer, batches integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.auto_rebooking_logs%rowtype;
  v_evaluated integer;
  v_qualifying integer;
  v_batches integer;
begin
  if p_batch_size is null or p_batch_size < 1 then
    raise exception 'batch size must be at least 1' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtext('fareback.auto_rebooking.start'));

  update public.auto_rebooking_logs l
     set status = 'failed', success = false, finished_at = now(),
         error_message = coalesce(l.error_message || '; ', '')
           || 'The run did not finish within an hour; its flights are evaluated again by the next run.'
   where l.status = 'running' and l.started_at < now() - interval '1 hour';

  select * into v_run from public.auto_rebooking_logs l
   where l.status = 'running' and l.scope_user_id is not distinct from p_scope_user
   order by l.id limit 1;
  if found then
    return query select v_run.id, true, v_run.total_flights_evaluated,
      coalesce((v_run.additional_data ->> 'flightsQualifying')::integer, 0), v_run.batches;
    return;
  end if;

  insert into public.auto_rebooking_logs (status, trigger, initiated_by, scope_user_id, success)
  values ('running', p_trigger, p_initiated_by, p_scope_user, false)
  returning * into v_run;

  with watched as (
    select f.id, f.status, f as flight, p as traveller
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
      join public.flights f on f.user_id = p.id
     where private.auto_rebooking_applies(p, sp)
       and (p_scope_user is null or p.id = p_scope_user)
       and private.flight_is_watched(f)
  ),
  qualifying as (
    select w.id, (row_number() over (order by w.id) - 1) / p_batch_size as batch
      from watched w
     where w.status = 'price_drop'
       and private.rebooking_qualifies(w.flight, w.traveller)
  ),
  grouped as (
    select q.batch, jsonb_agg(q.id order by q.id) as flight_ids
      from qualifying q
     group by q.batch
  ),
  enqueued as (
    select private.enqueue_job(
             case when p_scope_user is null then 'auto_rebook_batch' else 'auto_rebook_own' end,
             jsonb_build_object('runId', v_run.id, 'batch', g.batch, 'flightIds', g.flight_ids),
             null,
             'auto_rebook:run:' || v_run.id || ':batch:' || g.batch) as job_id
      from grouped g
  )
  select (select count(*) from watched)::integer,
         (select count(*) from qualifying)::integer,
         (select count(*) from enqueued)::integer
    into v_evaluated, v_qualifying, v_batches;

  update public.auto_rebooking_logs l
     set total_flights_evaluated = v_evaluated,
         batches = v_batches,
         additional_data = jsonb_build_object('flightsQualifying', v_qualifying, 'batchSize', p_batch_size)
   where l.id = v_run.id;

  if v_batches = 0 then
    perform private.finish_auto_rebooking_run(v_run.id);
  end if;

  return query select v_run.id, false, v_evaluated, v_qualifying, v_batches;
end;
$$;

-- =============================================================================================
-- The rebooking ledger
-- =============================================================================================
-- Beside the payment ledger (private.claim_commission_payment, private.record_commission_payment:
-- 20261128200000_commission_payments.sql, 20261128200200_own_commission_payment.sql): what a
-- completed rebooking changes, in the transaction that records it.

-- The commission on a rebooking: the plan's rate (integer percent) of the airline credit,
-- rounded to the cent (half up); nothing on no credit or no rate.
create function private.commission_on(p_airline_credit integer, p_commission_rate integer)
returns integer
language sql
immutable
as $$
  select case
    when coalesce(p_airline_credit, 0) <= 0 or coalesce(p_commission_rate, 0) <= 0 then 0
    else round(p_airline_credit::numeric * p_commission_rate / 100)::integer
  end
$$;

revoke all on function private.commission_on(integer, integer) from public, anon, authenticated, service_role;
-- the admin's flight list shows what a rebooking would be charged; it runs as the admin
grant execute on function private.commission_on(integer, integer) to authenticated;
comment on function private.commission_on(integer, integer) is
  'Commission in cents on a rebooking: round(airline credit (cents) x commission rate (percent) / 100), half up; '
  '0 without a credit or a rate. Inlinable SQL.';

-- Records a completed rebooking once: the owner's credits and, for a plan with a commission
-- rate, the commission owed plus a pending commission billing row; the flight (when it still
-- exists and is not already rebooked) with the commission and the rate it was charged at (a later
-- change of the plan's rate changes neither); the rebooking record as recorded; the traveller's
-- notification. Answers the commission charged, or null when the record is not open (already
-- recorded or released) or the traveller is gone. The credit is the traveller's whatever happened
-- to the card since the claim: the airline change was made.
create function private.record_rebooking(
  p_rebooking_id bigint,
  p_user_id uuid,
  p_flight_id bigint,
  p_new_price integer,
  p_airline_credit integer,
  p_credit_reference text,
  p_credit_expiry_date date,
  p_seat_number text,
  p_rebooked_at timestamptz,
  p_credit_review text default null
)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_rate integer;
  v_commission integer;
  v_airline text;
  v_flight_number text;
  v_departure_airport text;
  v_arrival_airport text;
begin
  perform 1 from private.rebookings r
   where r.id = p_rebooking_id and r.user_id = p_user_id and r.state in ('claimed', 'confirmed')
   for update;
  if not found then
    return null;
  end if;

  -- the owner's row first, as every ledger change does: a traveller's credit and commission move
  -- one rebooking at a time. The rate is the plan's the traveller is on (by id: a renamed or
  -- retired plan keeps it).
  select coalesce(sp.commission_rate, 0) into v_rate
    from public.profiles p
    join public.subscription_plans sp on sp.id = p.plan_id
   where p.id = p_user_id
   for update of p;
  if not found then
    return null;
  end if;
  v_commission := private.commission_on(p_airline_credit, v_rate);

  update public.flights f set
    has_been_rebooked = true,
    status = 'rebooked',
    rebooking_claimed_at = null,
    rebooking_date = p_rebooked_at,
    rebooking_price = p_new_price,
    current_price = p_new_price,
    lowest_price = least(coalesce(f.lowest_price, p_new_price), p_new_price),
    airline_credit = p_airline_credit,
    credit_reference_number = p_credit_reference,
    credit_expiry_date = p_credit_expiry_date,
    seat_number = coalesce(p_seat_number, f.seat_number),
    commission_amount = v_commission,
    commission_rate = v_rate,
    credit_review = p_credit_review
   where f.id = p_flight_id and f.user_id = p_user_id and not f.has_been_rebooked
  returning f.airline, f.flight_number, f.departure_airport, f.arrival_airport
       into v_airline, v_flight_number, v_departure_airport, v_arrival_airport;

  update public.profiles p set
    total_credits_earned = p.total_credits_earned + p_airline_credit,
    commission_owed = p.commission_owed + v_commission
   where p.id = p_user_id;

  if v_commission > 0 then
    insert into public.billing_transactions
      (user_id, amount, status, type, description, transaction_date, credits_earned_in_period)
    values (
      p_user_id, v_commission, 'pending', 'commission',
      v_rate || '% commission on '
        || case when v_airline is not null then 'the ' || v_airline || ' ' || v_flight_number || ' rebooking'
                else 'rebooking #' || p_rebooking_id end,
      p_rebooked_at, p_airline_credit);
  end if;

  update private.rebookings r set
    state = 'recorded', commission = v_commission, finished_at = now(),
    result = coalesce(r.result, jsonb_build_object(
      'newPrice', p_new_price,
      'airlineCredit', p_airline_credit,
      'creditReference', p_credit_reference,
      'creditExpiryDate', p_credit_expiry_date,
      'seatNumber', p_seat_number,
      'rebookedAt', to_char(p_rebooked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
   where r.id = p_rebooking_id;

  -- the traveller hears of it through the outbox, once per rebooking: the facts only, the
  -- rebooking template writes the email (notification-templates/data.ts 'rebooking')
  if v_airline is not null then
    perform private.queue_notification(
      p_user_id, 'rebooking',
      jsonb_build_object(
        'airline', v_airline,
        'flightNumber', v_flight_number,
        'departureAirport', v_departure_airport,
        'arrivalAirport', v_arrival_airport,
        'newPrice', p_new_price,
        'credit', p_airline_credit,
        'reference', p_credit_reference,
        'creditExpiresAt', p_credit_expiry_date),
      p_flight_id,
      'rebooking:' || p_rebooking_id);
  end if;

  return v_commission;
end;
$$;

revoke all on function private.record_rebooking(bigint, uuid, bigint, integer, integer, text, date, text, timestamptz, text)
  from public, anon, authenticated, service_role;
comment on function private.record_rebooking(bigint, uuid, bigint, integer, integer, text, date, text, timestamptz, text) is
  'Records a completed rebooking once (rebooking id, traveller, flight, new price and airline credit in cents, credit '
  'reference and expiry, seat, when, credit review): credits, commission owed and a pending commission billing row '
  '(private.commission_on at the plan''s rate), the flight rebooked with that commission and rate, the record '
  'recorded, the rebooking notification. Answers the commission in cents, or null when the record is not open. '
  'The api''s role only.';

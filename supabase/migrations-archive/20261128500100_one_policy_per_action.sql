-- =============================================================================================
-- One permissive policy per table, role and action
-- =============================================================================================
-- Supabase's database linter (the Performance Advisor's `multiple_permissive_policies`, lint
-- 0006 of supabase/splinter) warned on seven pairs: an admin policy beside a user policy for the
-- same role (authenticated) and action. PostgreSQL ORs permissive policies, so each pair is
-- rewritten as one policy whose condition is the OR of the two: who may read or write what is
-- unchanged (supabase/tests/rls-matrix.test.ts holds every actor x command), and the lint now
-- finds nothing (supabase/tests/database-lints.test.ts runs its query over the whole schema, so a
-- table that gets a second permissive policy fails CI).
--
-- Both sides keep the initplan form: `(select auth.uid())` and `(select private.is_admin())` are
-- evaluated once per statement, not once per row (lint 0003, auth_rls_initplan).

-- ---------------------------------------------------------------------------------------------
-- billing_transactions
-- ---------------------------------------------------------------------------------------------
drop policy "Users can view their own billing transactions" on public.billing_transactions;
drop policy "Admins can view every billing transaction" on public.billing_transactions;
create policy "Users can view their own billing rows, admins every one"
  on public.billing_transactions for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- flight_prices
-- ---------------------------------------------------------------------------------------------
drop policy "Users can view their own flight prices" on public.flight_prices;
drop policy "Admins can view every flight price" on public.flight_prices;
create policy "Users can view their own flight prices, admins every one"
  on public.flight_prices for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- flights
-- ---------------------------------------------------------------------------------------------
drop policy "Users can view their own flights" on public.flights;
drop policy "Admins can view every flight" on public.flights;
create policy "Users can view their own flights, admins every flight"
  on public.flights for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- notification_history
-- ---------------------------------------------------------------------------------------------
drop policy "Users can view their own notifications" on public.notification_history;
drop policy "Admins can view every notification" on public.notification_history;
create policy "Users can view their own notifications, admins every one"
  on public.notification_history for select
  to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- profiles: read and update
-- ---------------------------------------------------------------------------------------------
-- What a traveller may change in their own row is still decided by the column grants and the
-- profile triggers (premium-only settings, is_admin for admins only, the last-admin rule); the
-- policy only says whose rows.
drop policy "Users can view their own profile" on public.profiles;
drop policy "Admins can view every profile" on public.profiles;
create policy "Users can view their own profile, admins every profile"
  on public.profiles for select
  to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));

drop policy "Users can update their own profile" on public.profiles;
drop policy "Admins can update any profile" on public.profiles;
create policy "Users can update their own profile, admins any profile"
  on public.profiles for update
  to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()))
  with check (id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- subscription_plans: what a signed-in user reads
-- ---------------------------------------------------------------------------------------------
-- The active plans (the comparison grid), the plan they are on even when retired (its terms
-- still apply to them), and for admins every plan. Visitors (anon) keep their own single policy.
drop policy "Users can view active plans" on public.subscription_plans;
drop policy "Users can view the plan they are on" on public.subscription_plans;
drop policy "Admins can view every plan" on public.subscription_plans;
create policy "Users can view active plans and their own, admins every plan"
  on public.subscription_plans for select
  to authenticated
  using (
    is_active
    or id = (select p.plan_id from public.profiles p where p.id = (select auth.uid()))
    or (select private.is_admin())
  );

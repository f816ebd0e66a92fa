-- =============================================================================================
-- Admin audit log
-- =============================================================================================
-- Every admin action (admin granted or revoked, plan created or changed, commission payment
-- recorded, manual price check or auto-rebooking run) leaves one row here, written in the same
-- transaction as the change itself: who acted, what they did, to what, when, and the values
-- before and after. Admins read it (the admin area's Audit tab); nobody changes or removes it.
--
-- The rows are written only by private.record_admin_action(): by the triggers below (admin flag,
-- plans) and by the api for what is not a row change of its own (commission payments, runs).
--
-- No foreign keys: an audit row must outlive the admin and the user it names, unchanged. An
-- `on delete set null` would UPDATE the row (which nothing may do), and a plain foreign key would
-- stop accounts from being deleted. So the row keeps the ids as they were and snapshots the
-- names (actor_name, target_label) at the time of the action.
--
-- Immutable for everyone, the owner included: no role is granted UPDATE, DELETE or TRUNCATE, and
-- a statement trigger refuses all three (42501) even for the owner, who holds every privilege on
-- its own table. A row-level trigger refuses INSERT from anywhere but the writer function. (The
-- owner can still drop those triggers: that is a migration, reviewed and append-only.)
--
-- Error code raised here, for the api to map (see private_helpers for the others):
--   FBADM (custom) -> 409 'The last admin cannot be removed'
create table public.admin_audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid,
  actor_name text not null,
  action text not null,
  target_type text not null,
  target_id text,
  target_label text,
  before jsonb,
  after jsonb,

  constraint admin_audit_log_action_check check (action in (
    'admin.grant', 'admin.revoke', 'plan.create', 'plan.update', 'commission.payment',
    'run.price_check', 'run.auto_rebooking', 'payment.dispute',
    'airline_rule.create', 'airline_rule.update', 'airline.automation')),
  constraint admin_audit_log_target_type_check check (target_type in ('user', 'plan', 'run', 'airline_rule', 'airline')),
  constraint admin_audit_log_before_object check (before is null or jsonb_typeof(before) = 'object'),
  constraint admin_audit_log_after_object check (after is null or jsonb_typeof(after) = 'object')
);

alter table public.admin_audit_log enable row level security;

comment on table public.admin_audit_log is
  'One row per admin action (admin flag, plans, commission payments, manual runs), written in the '
  'action''s own transaction by private.record_admin_action. Immutable: nobody may update, delete or '
  'truncate it. No foreign keys, so rows outlive the accounts they name.';

comment on column public.admin_audit_log.id is 'Row id, in the order the rows were written.';
comment on column public.admin_audit_log.at is 'When the action''s transaction ran (timestamptz).';
comment on column public.admin_audit_log.actor_id is
  'The acting admin''s user id (auth.users.id, not a foreign key: it outlives the account); null for '
  'a change made outside the app, e.g. by an operator in Studio or a migration.';
comment on column public.admin_audit_log.actor_name is
  'The actor''s username at the time of the action, or the database role that made the change when '
  'there is no signed-in actor (postgres, service_role).';
comment on column public.admin_audit_log.action is
  'What was done: admin.grant, admin.revoke, plan.create, plan.update, commission.payment, '
  'run.price_check, run.auto_rebooking, payment.dispute, airline_rule.create, airline_rule.update or airline.automation '
  '(AUDIT_ACTIONS in _shared/types/admin.ts).';
comment on column public.admin_audit_log.target_type is 'What the action was done to: user, plan, run, airline_rule or airline.';
comment on column public.admin_audit_log.target_id is
  'The target''s id as text (a user''s uuid, a plan''s id, a run''s id); null when there is none.';
comment on column public.admin_audit_log.target_label is
  'A readable name for the target at the time: the username, the plan''s name, the run''s kind.';
comment on column public.admin_audit_log.before is
  'The values the action changed, before it, in the API''s names (money in cents, rates in percent); '
  'null for a creation or a run.';
comment on column public.admin_audit_log.after is
  'The values after the action, in the API''s names (money in cents, rates in percent); for a run, '
  'the counts it answered.';

-- The Audit tab pages newest first (at desc, id desc: rows of one transaction share `at`); the
-- other indexes answer "what did this admin do" and "what happened to this user or plan".
create index admin_audit_log_at_idx on public.admin_audit_log (at desc, id desc);
create index admin_audit_log_actor_idx on public.admin_audit_log (actor_id, at desc);
create index admin_audit_log_target_idx on public.admin_audit_log (target_type, target_id, at desc);
create index admin_audit_log_action_idx on public.admin_audit_log (action, at desc);

-- =============================================================================================
-- Grants and policies
-- =============================================================================================
-- Admins read every row through row-level security; service_role (operators' key) may read.
-- Nobody but the owner holds INSERT, and the owner's inserts go through the writer only.
revoke all on table public.admin_audit_log from public, anon, authenticated, service_role;
grant select on table public.admin_audit_log to authenticated, service_role;

create policy "Admins can view the audit log"
  on public.admin_audit_log for select
  to authenticated
  using ((select private.is_admin()));

-- =============================================================================================
-- Immutability
-- =============================================================================================
create or replace function private.refuse_audit_log_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The admin audit log cannot be changed (% refused).', tg_op
    using errcode = '42501';
end;
$$;

revoke all on function private.refuse_audit_log_change() from public, anon, authenticated, service_role;

comment on function private.refuse_audit_log_change() is
  'Trigger: refuses every UPDATE, DELETE and TRUNCATE of public.admin_audit_log (42501), the owner''s too.';

-- statement level, so a statement is refused even when it would touch no row
create trigger admin_audit_log_immutable
  before update or delete or truncate on public.admin_audit_log
  for each statement execute function private.refuse_audit_log_change();

-- The writer's call is on the stack (PG_CONTEXT names the calling functions): set_config or any
-- other session setting could be set by whoever inserts, the call stack cannot.
create or replace function private.guard_audit_log_insert()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  stack text;
begin
  get diagnostics stack = pg_context;
  if position('function private.record_admin_action(uuid,text,text,text,text,jsonb,jsonb)' in stack) = 0 then
    raise exception 'Audit rows are written only by private.record_admin_action.'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

revoke all on function private.guard_audit_log_insert() from public, anon, authenticated, service_role;

comment on function private.guard_audit_log_insert() is
  'Trigger: refuses an INSERT into public.admin_audit_log that does not come from private.record_admin_action (42501).';

create trigger admin_audit_log_insert_through_writer
  before insert on public.admin_audit_log
  for each row execute function private.guard_audit_log_insert();

-- =============================================================================================
-- The writer
-- =============================================================================================

-- Who acts when no user does: the role the statement runs as (set role / the data API's role),
-- else the login role (an operator in Studio is `postgres`). SECURITY DEFINER changes
-- current_user but not the `role` setting, so this reads the caller's role from inside one.
create or replace function private.acting_role_name()
returns text
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(nullif(current_setting('role', true), ''), 'none'), session_user::text)
$$;

revoke all on function private.acting_role_name() from public, anon, authenticated, service_role;

comment on function private.acting_role_name() is
  'The database role a statement runs as (the role set for it, else the login role): the actor name '
  'of an audit row written without a signed-in user.';

create or replace function private.record_admin_action(
  p_actor uuid,
  p_action text,
  p_target_type text,
  p_target_id text,
  p_target_label text,
  p_before jsonb,
  p_after jsonb
)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor_name text;
  row_id bigint;
begin
  if p_actor is not null then
    select p.username into actor_name from public.profiles p where p.id = p_actor;
  end if;
  actor_name := coalesce(actor_name, case when p_actor is null then private.acting_role_name() else p_actor::text end);

  insert into public.admin_audit_log
    (actor_id, actor_name, action, target_type, target_id, target_label, before, after)
  values
    (p_actor, actor_name, p_action, p_target_type, p_target_id, p_target_label, p_before, p_after)
  returning id into row_id;
  return row_id;
end;
$$;

-- only the api's role (the owner) and the triggers below (security definer, owned by it)
revoke all on function private.record_admin_action(uuid, text, text, text, text, jsonb, jsonb)
  from public, anon, authenticated, service_role;

comment on function private.record_admin_action(uuid, text, text, text, text, jsonb, jsonb) is
  'Writes one admin audit row and returns its id: the actor (user id, or null for a change outside the '
  'app), the action (AUDIT_ACTIONS), the target (type, id, label) and the values before and after. '
  'The actor''s name is resolved here: their username, else the acting database role. Callable by the '
  'api''s role only.';

-- =============================================================================================
-- Audit triggers: the admin flag
-- =============================================================================================
-- The actor is auth.uid(): the admin when the api runs the change as them (asUser) or the data API
-- does; null (the acting role is named) for an operator, the seed or private.make_admin.
create or replace function private.audit_admin_flag()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_admin_action(
    (select auth.uid()),
    case when new.is_admin then 'admin.grant' else 'admin.revoke' end,
    'user',
    new.id::text,
    new.username,
    jsonb_build_object('isAdmin', old.is_admin),
    jsonb_build_object('isAdmin', new.is_admin));
  return null;
end;
$$;

revoke all on function private.audit_admin_flag() from public, anon, authenticated, service_role;

comment on function private.audit_admin_flag() is
  'Trigger: writes admin.grant or admin.revoke to the audit log when profiles.is_admin changes.';

create trigger profiles_audit_admin_flag
  after update of is_admin on public.profiles
  for each row
  when (old.is_admin is distinct from new.is_admin)
  execute function private.audit_admin_flag();

-- =============================================================================================
-- The last admin
-- =============================================================================================
-- There is always an admin: a change or delete that would leave none is refused (FBADM), for the
-- api, the data API and operators alike. Removals of admins take one transaction-level lock, so
-- two admins revoking each other at the same moment are serialized: the second sees the first's
-- change (read committed: each statement of the function takes a fresh snapshot after the lock)
-- and is refused. Locking the admin rows themselves instead would deadlock in exactly that case
-- (each transaction already holds the row it is changing). Fires after profiles_guard_update
-- (names in order), so an admin removing their own flag still gets that trigger's refusal.
create or replace function private.keep_an_admin()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  removes_an_admin boolean := old.is_admin;
begin
  if tg_op = 'UPDATE' then
    removes_an_admin := old.is_admin and not new.is_admin;
  end if;

  if removes_an_admin then
    perform pg_advisory_xact_lock(hashtextextended('fareback.profiles.is_admin', 0));
    if not exists (select 1 from public.profiles p where p.is_admin and p.id <> old.id) then
      raise exception 'The last admin cannot be removed'
        using errcode = 'FBADM';
    end if;
  end if;

  if tg_op = 'DELETE' then
    return old;
  end if;
  return new;
end;
$$;

revoke all on function private.keep_an_admin() from public, anon, authenticated, service_role;

comment on function private.keep_an_admin() is
  'Trigger: refuses (FBADM) revoking or deleting the last admin; removals of admins are serialized by '
  'a transaction-level advisory lock.';

create trigger profiles_keep_an_admin
  before update of is_admin or delete on public.profiles
  for each row execute function private.keep_an_admin();

-- =============================================================================================
-- Audit triggers: plans
-- =============================================================================================

-- A plan's fields as the admin API names them (money in cents, rates in percent).
create or replace function private.plan_audit_fields(p public.subscription_plans)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'name', p.name,
    'tier', p.tier,
    'price', p.price,
    'flightLimit', p.flight_limit,
    'commissionRate', coalesce(p.commission_rate, 0),
    'description', p.description,
    'autoRebookingEnabled', p.auto_rebooking_enabled,
    'isActive', p.is_active)
$$;

revoke all on function private.plan_audit_fields(public.subscription_plans) from public, anon, authenticated, service_role;

comment on function private.plan_audit_fields(public.subscription_plans) is
  'A plan''s audited fields in the API''s names: name, tier, price (cents), flightLimit (-1 unlimited), '
  'commissionRate (percent), description, autoRebookingEnabled, isActive.';

create or replace function private.audit_plan_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  before_fields jsonb;
  after_fields jsonb := private.plan_audit_fields(new);
begin
  if tg_op = 'INSERT' then
    perform private.record_admin_action(
      (select auth.uid()), 'plan.create', 'plan', new.id::text, new.name, null, after_fields);
    return null;
  end if;

  before_fields := private.plan_audit_fields(old);
  if before_fields = after_fields then
    return null;
  end if;
  perform private.record_admin_action(
    (select auth.uid()), 'plan.update', 'plan', new.id::text, new.name, before_fields, after_fields);
  return null;
end;
$$;

revoke all on function private.audit_plan_change() from public, anon, authenticated, service_role;

comment on function private.audit_plan_change() is
  'Trigger: writes plan.create for a new plan and plan.update (before and after) when an audited field '
  'of a plan changes.';

create trigger subscription_plans_audit
  after insert or update on public.subscription_plans
  for each row execute function private.audit_plan_change();

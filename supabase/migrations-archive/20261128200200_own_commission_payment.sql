-- =============================================================================================
-- An admin may not record their own commission as paid
-- =============================================================================================
-- Issue 21, finding 11: POST /api/stripe/pay-commission {userId, amount} with the admin's own id
-- moved their own debt to paid. private.record_commission_payment (migration 20261126110000) is
-- the one writer of a recorded payment, so the rule lives there: the actor and the traveller must
-- differ (42501 with the message, answered 403; nothing written, no audit row). The function is
-- otherwise as before.

create or replace function private.record_commission_payment(p_actor uuid, p_user_id uuid, p_amount integer)
returns table (transaction_id bigint, commission_owed integer, commission_paid integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owed integer;
  v_paid integer;
  v_username text;
  v_transaction bigint;
begin
  if p_amount is null or p_amount <= 0 then
    raise exception 'Amount must be above 0' using errcode = 'FB400';
  end if;
  if not exists (select 1 from public.profiles a where a.id = p_actor and a.is_admin) then
    raise exception 'Admin access required' using errcode = '42501';
  end if;
  -- the admin's own debt: recording it would be paying oneself off (issue 21, finding 11)
  if p_actor = p_user_id then
    raise exception 'Another admin must record a payment of your own commission.' using errcode = '42501';
  end if;

  select p.commission_owed, p.commission_paid, p.username
    into v_owed, v_paid, v_username
    from public.profiles p
   where p.id = p_user_id
   for update;
  if not found then
    return;
  end if;
  if p_amount > v_owed then
    raise exception 'Amount exceeds the commission owed ($%)', to_char(v_owed / 100.0, 'FM999999990.00')
      using errcode = 'FB400';
  end if;

  insert into public.billing_transactions (user_id, amount, status, type, description, payment_method)
  values (p_user_id, p_amount, 'completed', 'commission', 'Commission payment (recorded by FareBack)', 'manual')
  returning id into v_transaction;

  update public.profiles p
     set commission_owed = p.commission_owed - p_amount,
         commission_paid = p.commission_paid + p_amount,
         last_billing_date = now()
   where p.id = p_user_id;

  if p_amount = v_owed then
    update public.billing_transactions b
       set status = 'completed'
     where b.user_id = p_user_id
       and b.type = 'commission'
       and b.status in ('pending', 'failed')
       and (b.payment_reference is null or b.billing_period_start is not null)
       and b.id <> v_transaction;
  end if;

  perform private.record_admin_action(
    p_actor, 'commission.payment', 'user', p_user_id::text, v_username,
    jsonb_build_object('commissionOwed', v_owed, 'commissionPaid', v_paid),
    jsonb_build_object('commissionOwed', v_owed - p_amount, 'commissionPaid', v_paid + p_amount));

  return query select v_transaction, v_owed - p_amount, v_paid + p_amount;
end;
$$;

comment on function private.record_commission_payment(uuid, uuid, integer) is
  'An admin (p_actor) records a commission payment of p_amount cents made outside the app by traveller p_user_id: a completed manual commission billing row, the amount moved from commission_owed to commission_paid, an audit row. FB400 for an amount above what is owed; 42501 when the actor is the traveller (another admin must record it); no row for an unknown traveller. The api''s role only.';

revoke all on function private.record_commission_payment(uuid, uuid, integer) from public, anon, authenticated, service_role;

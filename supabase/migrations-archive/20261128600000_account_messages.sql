-- =============================================================================================
-- Account messages of issue 21: a Premium year that ended, money refunded or held, an admin alert
-- =============================================================================================
-- The notification types added by the subscription expiry (subscription_expired), the commission
-- refund (payment_refunded, or refund_held when the refund keeps failing) and its operator alert
-- (admin_alert) tell a traveller or an admin
-- about their account and their money, as payment_failed and commission_statement do: they are
-- sent while the account exists, carry no unsubscribe link and are no kind a link may store in
-- profiles.unsubscribed_kinds. Redefined here (the schema baseline of the next issue folds it into
-- the notifications area's single definition); unchanged for every other type.

create or replace function private.notification_kind(p_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_type = 'price_drop' then 'price_drop'
    when p_type in ('rebooking', 'action_needed') then 'rebooking'
    when p_type = 'flight_cancelled' then 'flight_cancelled'
    when p_type in ('payment_failed', 'commission_statement', 'email_reconnect',
                    'subscription_expired', 'payment_refunded', 'refund_held', 'admin_alert') then null
    else p_type
  end
$$;

revoke all on function private.notification_kind(text) from public, anon, authenticated, service_role;

-- Subscription plans (idempotent). Prices in cents: Premium is $24.99 per year.
-- Demo accounts are created by the local stack through the auth server; it then flags the demo
-- admin with `select private.make_admin('<admin email>')`.

insert into public.subscription_plans
  (name, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active, features)
values
  ('Free', 0, 5, false, 0,
   'Monitor up to 5 flights with email price-drop alerts and manual rebooking.',
   true,
   '["Up to 5 monitored flights", "Email price-drop alerts", "Manual rebooking"]'::jsonb),
  ('Premium', 2499, -1, true, 25,
   'Unlimited monitoring and automatic rebooking when savings pass your threshold. Billed annually; 25% commission on airline credits, charged only on success.',
   true,
   '["Unlimited flight monitoring", "Automatic price drop detection", "Auto-rebooking when savings exceed your threshold", "Customizable rebooking thresholds", "Priority email notifications"]'::jsonb)
on conflict do nothing;

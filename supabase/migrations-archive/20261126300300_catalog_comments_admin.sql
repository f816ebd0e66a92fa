-- =============================================================================================
-- Catalog comments brought up to date with the admin area's rules
-- =============================================================================================
-- Migration 20261126110000_admin_plans.sql tightened the plans' columns (a flight limit of -1 or
-- at least 1; "no commission" is 0; an active free and an active paid premium plan always remain)
-- and lets an admin record a commission payment made outside the app. The comments of
-- 20261126300000_catalog_comments.sql that describe those columns say so now.

comment on column public.subscription_plans.flight_limit is
  'How many watched flights the plan allows: -1 (unlimited) or at least 1.';
comment on column public.subscription_plans.commission_rate is
  'Commission on airline credit won by a rebooking, integer percent 0-100 (Premium: 25); 0 (the default) is none, and null is read as 0.';
comment on column public.subscription_plans.is_active is
  'Offered to new buyers. A retired plan (false) keeps its travellers and their terms; an active free plan and an active paid premium plan always remain (trigger private.keep_plans_on_offer).';
comment on column public.billing_transactions.type is
  'subscription, commission (a rebooking''s commission; a monthly statement when billing_period_start is set; a payment an admin recorded when payment_method is ''manual''), refund, credit or adjustment.';

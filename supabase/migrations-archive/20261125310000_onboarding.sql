-- Onboarding remembered (issue 13). A new account lands on /onboarding until its owner finishes
-- or skips the wizard; profiles.onboarding_completed_at records when, so it is not shown again.
-- Set only by the api (POST /api/onboarding/complete, through the service connection naming the
-- account): travellers hold no privilege on the column.
alter table public.profiles add column onboarding_completed_at timestamptz;

comment on column public.profiles.onboarding_completed_at is
  'When the owner finished or skipped the onboarding wizard; null: /onboarding is still due.';

-- Accounts made before the wizard existed have been using the product already: not sent back to it.
update public.profiles set onboarding_completed_at = created_at where onboarding_completed_at is null;

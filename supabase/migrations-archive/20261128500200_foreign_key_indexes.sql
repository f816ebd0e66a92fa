-- =============================================================================================
-- Indexes for the foreign keys that had none
-- =============================================================================================
-- Supabase's linter (lint 0001 of supabase/splinter, unindexed_foreign_keys) lists foreign keys
-- without a covering index. Deleting or re-keying the referenced row then reads the whole
-- referencing table: deleting a traveller read every auto-rebooking run, deleting a statement
-- every payment. These three had no index starting with any of their columns; the nine others
-- the lint names are covered by an index that starts with the key's columns in another order,
-- with more columns after them, or with a key column that alone finds a handful of rows (a
-- flight's id), which PostgreSQL uses as well (supabase/tests/database-lints.test.ts accepts
-- those). Partial on `is not null`: most rows hold no reference, and the lookups PostgreSQL
-- makes for the key (`= value`) imply it.
create index auto_rebooking_logs_scope_user_id_idx
  on public.auto_rebooking_logs (scope_user_id) where scope_user_id is not null;
create index payments_plan_id_idx on private.payments (plan_id) where plan_id is not null;
create index payments_statement_id_idx on private.payments (statement_id) where statement_id is not null;

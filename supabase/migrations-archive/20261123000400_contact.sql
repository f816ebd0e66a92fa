-- =============================================================================================
-- Contact messages are written by the api only
-- =============================================================================================
-- Migration 20261122000800_contact.sql let anon and authenticated insert contact messages, for
-- the api to store them as the sender. On Supabase that grant is also a public endpoint
-- (POST /rest/v1/contact_messages with the anon key), which took 1,000 rows in one request and
-- skipped the contact form's validation, rate limits and mail. The api
-- validates and rate-limits every message, then inserts it on its service connection, naming
-- the signed-in sender's id itself; nobody else writes the table. Admins still read and update
-- it (the select and update grants and policies of that migration stay).

revoke insert on table public.contact_messages from anon, authenticated;

drop policy "Visitors can send contact messages" on public.contact_messages;
drop policy "Users can send contact messages as themselves" on public.contact_messages;

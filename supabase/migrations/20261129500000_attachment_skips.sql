-- Attachments the email import did not read (issue 28).
--
-- Intended schema differences (nothing structural; the import already had a reason column):
-- 1. public.email_imports.outcome_reason's comment: besides why an email was not read to the end
--    (outcome not_read), it now names, with any outcome, the attachments (PDF e-tickets, Apple
--    Wallet passes) the extractor skipped and why ('Not read: ticket.pdf is encrypted'). The
--    column, its 300-character check and its grants are unchanged.

comment on column public.email_imports.outcome_reason is
  'Why the email was not read to the end (too large, or over the time budget) for outcome not_read; with any other outcome, the attachments not read and why (''Not read: ticket.pdf is encrypted''); else null.';

/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of the api function: `/api` locally, `https://<ref>.supabase.co/functions/v1/api` on Supabase. */
  readonly VITE_API_URL?: string;
  /** Supabase project URL; defaults to the page's origin (the local gateway). */
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  /** Support address shown on the contact, help and legal pages; default support@fareback.app. */
  readonly VITE_SUPPORT_EMAIL?: string;
  /** Stripe publishable key (pk_...) for the card form; unset: local test mode, no real card charged. */
  readonly VITE_STRIPE_PUBLISHABLE_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

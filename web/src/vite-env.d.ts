/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of the api function: `/api` locally, `https://<ref>.supabase.co/functions/v1/api` on Supabase. */
  readonly VITE_API_URL?: string;
  /** Supabase project URL; defaults to the page's origin (the local gateway). */
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  /** Support address shown on the contact, help and legal pages; default support@fareback.app. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

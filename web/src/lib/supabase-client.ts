import { createClient } from '@supabase/supabase-js';
import { SUPABASE_URL } from './supabase';

/*
 * The browser's Supabase Auth session. The api function issues sessions (login, register) and
 * the app hands them to supabase-js, which stores, refreshes and attaches them. Google sign-in
 * returns with the session in the URL fragment, which detectSessionInUrl picks up (implicit
 * flow). Import this module only through `loadSupabase()` in ./supabase.ts: supabase-js is some
 * 80 KB of gzipped JavaScript that a visitor without a session never needs.
 */
export const supabase = createClient(SUPABASE_URL, import.meta.env.VITE_SUPABASE_ANON_KEY ?? 'local-anon-key', {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: 'implicit',
  },
});

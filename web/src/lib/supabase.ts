import type { AuthChangeEvent, SupabaseClient } from '@supabase/supabase-js';

/*
 * supabase-js loads on demand: when this browser holds a session, when the URL carries one
 * (the Google return), or when the app signs someone in. A visitor reading the landing page
 * never downloads it. Everything else in the app goes through these functions.
 */

/**
 * False while the public pages are rendered at build time (entry-server.tsx): there is no
 * browser then, so no stored session and no URL to read.
 */
const inBrowser = typeof window !== 'undefined';

export const SUPABASE_URL: string = import.meta.env.VITE_SUPABASE_URL ?? (inBrowser ? window.location.origin : '');

/** supabase-js's default storage key: `sb-<first label of the project host>-auth-token`. */
export function sessionStorageKey(): string {
  const ref = new URL(SUPABASE_URL).hostname.split('.')[0] ?? '';
  return `sb-${ref}-auth-token`;
}

/** Whether supabase-js has a session saved in this browser (read synchronously). */
export function hasStoredSession(): boolean {
  try {
    return window.localStorage.getItem(sessionStorageKey()) !== null;
  } catch {
    return false;
  }
}

/** An implicit-flow redirect (Google sign-in) puts the session in the URL fragment. */
function urlCarriesSession(): boolean {
  return /[#&]access_token=/.test(window.location.hash);
}

/**
 * A failed Google sign-in returns with `error`/`error_description` in the fragment instead of a
 * session. Reports whether it did, and removes the fragment so a reload does not repeat it.
 */
export function takeUrlAuthError(): boolean {
  const hash = window.location.hash;
  if (!/[#&]error(_description)?=/.test(hash)) return false;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  return true;
}

type AuthListener = (event: AuthChangeEvent) => void;
const listeners = new Set<AuthListener>();
let client: Promise<SupabaseClient> | null = null;

export function loadSupabase(): Promise<SupabaseClient> {
  client ??= import('./supabase-client').then(({ supabase }) => {
    supabase.auth.onAuthStateChange((event) => {
      for (const listener of listeners) listener(event);
    });
    return supabase;
  });
  return client;
}

/** Whether a session may exist: then the client must load before the first api call. */
export function sessionMayExist(): boolean {
  if (!inBrowser) return false;
  return client !== null || hasStoredSession() || urlCarriesSession();
}

/** Runs `listener` on supabase-js auth events once (and if) the client loads. */
export function onAuthEvent(listener: AuthListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current access token, after supabase-js has finished restoring or refreshing it. */
export async function getAccessToken(): Promise<string | null> {
  if (!sessionMayExist()) return null;
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}

/** Makes a session the api handed over (sign-in, sign-up, password change) this browser's session. */
export async function adoptSession(session: { access_token: string; refresh_token: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.setSession({
    access_token: session.access_token,
    refresh_token: session.refresh_token,
  });
  if (error) throw error;
}

/**
 * Forgets this browser's session after the api has ended it at Auth (logout, account deletion).
 * supabase-js's signOut would first ask Auth to end it again with the dead token, which Auth
 * refuses with a 403 in the console; with the stored copy removed first, signOut finds no token
 * to send and only clears what is left, telling the listeners (SIGNED_OUT).
 */
export async function forgetSession(): Promise<void> {
  const supabase = await loadSupabase();
  window.localStorage.removeItem(sessionStorageKey());
  await supabase.auth.signOut({ scope: 'local' });
}

// Response shapes of the account endpoints.
import type { CurrentUser } from './user.ts';

/** The Supabase Auth session register and login hand back; the web app gives it to supabase-js. */
export interface AuthSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  expires_in: number;
  token_type: string;
}

/** `POST /api/auth/register` (201) and `POST /api/auth/login` (200). */
export interface AuthResponse {
  user: CurrentUser;
  session: AuthSession;
}

/** Every error, and the plain acknowledgements (logout, forgot and reset password). */
export interface MessageResponse {
  message: string;
}

/** `GET /api/health` */
export interface HealthResponse {
  status: 'ok';
  database: 'ok' | 'unreachable';
}

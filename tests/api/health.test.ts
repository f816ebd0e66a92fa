import { describe, expect, it } from 'vitest';
import { apiClient } from './client.ts';

const api = apiClient();

describe('GET /api/health', () => {
  it('reports the function and its database', async () => {
    const res = await api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('is served under Supabase function path too, through the gateway', async () => {
    const res = await fetch(`${api.stack.url}/functions/v1/api/health`);
    expect(res.status).toBe(200);
  });

  it('answers CORS preflights from the site origin with credentials', async () => {
    const res = await fetch(`${api.stack.apiUrl}/auth/login`, {
      method: 'OPTIONS',
      headers: {
        Origin: api.stack.url,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(api.stack.url);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('answers unknown paths with JSON, never HTML', async () => {
    const res = await api.get('/no-such-thing');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated' });
  });
});

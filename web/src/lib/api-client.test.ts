import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { ApiError, apiRequest, apiUrl, errorMessage } from './api-client';

describe('apiRequest', () => {
  it('returns the parsed JSON of a success', async () => {
    mockApi({ 'GET /api/flights': { body: { flights: [{ id: 1 }] } } });
    await expect(apiRequest('GET', '/flights')).resolves.toEqual({ flights: [{ id: 1 }] });
  });

  it("throws '<status>: <body text>' for a non-success status, exposing status and message", async () => {
    mockApi({ 'POST /api/auth/login': { status: 401, body: { message: 'Invalid username or password' } } });
    const error = await apiRequest('POST', '/auth/login', { username: 'a', password: 'b' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe('401: {"message":"Invalid username or password"}');
    expect(apiError.status).toBe(401);
    expect(apiError.serverMessage).toBe('Invalid username or password');
    expect(apiError.body).toEqual({ message: 'Invalid username or password' });
  });

  it('uses the status text when the error body is empty', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/health')).rejects.toThrow('503: Service Unavailable');
  });

  it('keeps a non-JSON error body as the message text', async () => {
    vi.stubGlobal('fetch', async () => new Response('upstream timed out', { status: 502 }));
    const error = (await apiRequest('GET', '/health').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('502: upstream timed out');
    expect(error.serverMessage).toBeUndefined();
  });

  it('sends cookies, and a JSON body only when there is a payload', async () => {
    const api = mockApi({ 'GET /api/auth/me': { status: 200, body: {} }, 'POST /api/auth/logout': {} });
    await apiRequest('GET', '/auth/me');
    await apiRequest('POST', '/auth/logout');
    await apiRequest('POST', '/auth/logout', { reason: 'test' });

    const [getCall, emptyPost, jsonPost] = api.fetch.mock.calls.map(([, init]) => init as RequestInit);
    expect(getCall?.credentials).toBe('include');
    expect(getCall?.body).toBeUndefined();
    expect(new Headers(getCall?.headers).has('Content-Type')).toBe(false);
    expect(emptyPost?.body).toBeUndefined();
    expect(jsonPost?.body).toBe('{"reason":"test"}');
    expect(new Headers(jsonPost?.headers).get('Content-Type')).toBe('application/json');
  });

  it('appends query parameters, encoded, leaving out undefined and null', async () => {
    const api = mockApi({ 'GET /api/admin/users': { body: { items: [], total: 0, page: 2, pageSize: 25 } } });
    await apiRequest('GET', '/admin/users', undefined, {
      query: { page: 2, pageSize: 25, q: "o'brien & co/ü", sort: undefined, order: null, active: false, empty: '' },
    });
    const [input] = api.fetch.mock.calls[0] ?? [];
    const url = new URL(String(input), 'http://localhost');
    expect(url.pathname).toBe('/api/admin/users');
    expect(url.search).toBe('?page=2&pageSize=25&q=o%27brien+%26+co%2F%C3%BC&active=false&empty=');
    expect(url.searchParams.get('q')).toBe("o'brien & co/ü");
    expect(url.searchParams.has('sort')).toBe(false);
    expect(url.searchParams.has('order')).toBe(false);
  });

  it('adds to a query string the path already has, and adds none for no parameters', () => {
    expect(apiUrl('/flights?status=open', { page: 1 })).toBe('/api/flights?status=open&page=1');
    expect(apiUrl('/flights', { q: undefined })).toBe('/api/flights');
    expect(apiUrl('flights')).toBe('/api/flights');
  });

  it('sends no Authorization header without a session', async () => {
    const api = mockApi({ 'GET /api/auth/me': { body: {} } });
    await apiRequest('GET', '/auth/me');
    const init = api.fetch.mock.calls[0]?.[1] as RequestInit;
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
  });
});

describe('errorMessage', () => {
  it("prefers the server's message, then the fallback", () => {
    expect(errorMessage(new ApiError(409, 'Conflict', '{"message":"Username already taken"}'), 'x')).toBe(
      'Username already taken',
    );
    expect(errorMessage(new ApiError(500, 'Internal Server Error', ''), 'Please try again.')).toBe('Please try again.');
    expect(errorMessage(new TypeError('Failed to fetch'), 'x')).toBe('Failed to fetch');
    expect(errorMessage('weird', 'fallback')).toBe('fallback');
  });
});

import { vi } from 'vitest';
import { storeSession } from './session';

export interface MockResponse {
  status?: number;
  body?: unknown;
}

export type MockRoute = MockResponse | ((request: Request) => MockResponse | Promise<MockResponse>);

/**
 * Replaces fetch with a table of `"METHOD /path"` -> response. Unknown calls answer 404 so a
 * test notices them. Returns the mock; `calls(route)` lists the requests a route received.
 */
export function mockApi(routes: Record<string, MockRoute>) {
  const requests: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(
      new URL(String(input instanceof Request ? input.url : input), 'http://localhost'),
      init,
    );
    requests.push(request);
    const key = `${request.method} ${new URL(request.url).pathname}`;
    const route = routes[key];
    const { status = 200, body } = route
      ? typeof route === 'function'
        ? await route(request.clone())
        : route
      : { status: 404, body: { message: `No mock for ${key}` } };
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    calls: (key: string) => requests.filter((r) => `${r.method} ${new URL(r.url).pathname}` === key),
  };
}

/**
 * The me endpoint for a signed-in user, or a 401 for a visitor. A signed-in user also gets a
 * session stored in this browser (./session.ts), as after a sign-in: without one the app does not
 * ask the api who is signed in.
 */
export function meRoute<T extends { id: string }>(user: T | null | undefined): MockResponse {
  if (!user) return { status: 401, body: { message: 'Not signed in' } };
  storeSession(user.id);
  return { body: { user } };
}

import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiRequest } from '@/lib/api-client';
import { mockApi, type MockRoute } from '@/testing/mock-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { QueryState } from './query-state';

function Trips() {
  const trips = useQuery({ queryKey: ['trips'], queryFn: () => apiRequest<string[]>('GET', '/trips') });
  return (
    <QueryState
      query={trips}
      loadingLabel="Loading trips"
      errorTitle="Your trips could not be loaded"
      empty={{
        when: (list) => list.length === 0,
        title: 'No trips yet',
        description: 'Trips you add appear here.',
        action: <button type="button">Add a trip</button>,
      }}
    >
      {(list) => (
        <ul aria-label="Trips">
          {list.map((trip) => (
            <li key={trip}>{trip}</li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function serve(route: MockRoute) {
  const api = mockApi({ 'GET /api/trips': route });
  renderWithProviders(<Trips />);
  return api;
}

describe('QueryState', () => {
  it('shows a busy skeleton until the data arrives, then the content', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    serve(async () => {
      await released;
      return { body: ['Lisbon', 'Osaka'] };
    });
    expect(await screen.findByRole('status', { name: 'Loading trips' })).toHaveAttribute('aria-busy', 'true');
    release();
    const list = await screen.findByRole('list', { name: 'Trips' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Lisbon', 'Osaka']);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("shows the empty state's title, description and action when the data is empty", async () => {
    serve({ body: [] });
    expect(await screen.findByRole('heading', { name: 'No trips yet' })).toBeInTheDocument();
    expect(screen.getByText('Trips you add appear here.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a trip' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Trips' })).not.toBeInTheDocument();
  });

  it("shows the server's message on failure, and Retry fetches again", async () => {
    let fail = true;
    const api = serve(() => (fail ? { status: 503, body: { message: 'Try again shortly' } } : { body: ['Rome'] }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your trips could not be loaded');
    expect(alert).toHaveTextContent('Try again shortly');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Rome')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.calls('GET /api/trips')).toHaveLength(2);
  });

  it('falls back to a general message when the failure carries none', async () => {
    serve({ status: 500 });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please try again in a moment.');
  });
});

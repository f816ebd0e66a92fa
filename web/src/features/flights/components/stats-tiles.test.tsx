import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { StatsTiles } from './stats-tiles';

describe('StatsTiles', () => {
  it('shows the four figures in whole dollars and says potential savings are the claimable drops', async () => {
    mockApi({
      'GET /api/dashboard/stats': {
        body: { monitoredFlights: 3, priceDropsFound: 2, potentialSavings: 7_000, actualSavings: 12_550 },
      },
    });
    renderWithProviders(<StatsTiles />);
    const tiles = screen.getByRole('list', { name: 'Your savings at a glance' });
    const potential = within(tiles).getByText('Total Potential Savings').closest('li');
    expect(potential).not.toBeNull();
    expect(await within(potential as HTMLElement).findByText('$70')).toBeInTheDocument();
    expect(within(potential as HTMLElement).getByText('Drops you can claim, after change fees')).toBeInTheDocument();
    expect(within(tiles).getByText('$126')).toBeInTheDocument();
  });
});

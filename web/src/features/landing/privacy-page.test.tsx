import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meRoute, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('privacy policy', () => {
  it('carries the Limited Use disclosure and says how deletion and the export work', async () => {
    mockApi({ 'GET /api/auth/me': meRoute(null) });
    renderApp('/privacy');
    await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 });
    expect(
      screen.getByText(/adheres to the Google API Services User Data Policy, including the Limited Use/),
    ).toBeInTheDocument();
    expect(screen.getByText(/Gmail access is revoked at Google and its tokens deleted/)).toBeInTheDocument();
    expect(screen.getByText(/payment records to be kept for 7 years/)).toBeInTheDocument();
    expect(screen.getByText(/gives you, at once, a JSON file of everything we hold/)).toBeInTheDocument();
  });
});

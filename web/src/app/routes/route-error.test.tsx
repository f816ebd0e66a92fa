import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useLocation, useNavigate } from 'react-router';
import { renderWithProviders } from '@/testing/render-with-providers';
import { RouteErrorBoundary } from './route-error';

/** A page that fails to render at / only. */
function Page() {
  const { pathname } = useLocation();
  if (pathname === '/') throw new Error('page failed');
  return <p>Page at {pathname}</p>;
}

function Frame() {
  const navigate = useNavigate();
  return (
    <>
      <button onClick={() => void navigate('/elsewhere')}>Leave</button>
      <RouteErrorBoundary>
        <Page />
      </RouteErrorBoundary>
    </>
  );
}

describe('RouteErrorBoundary', () => {
  it('shows the route error when a page throws, and the next page after a navigation', () => {
    // React reports the error it caught.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<Frame />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(screen.getByText('Page at /elsewhere')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });
});

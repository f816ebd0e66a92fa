import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAtPath } from '@/testing/render-at-path';
import { useUrlTab } from './use-url-tab';

const TABS = ['profile', 'email', 'billing'] as const;

function TabProbe() {
  const [tab, selectTab] = useUrlTab(TABS);
  return (
    <div>
      <output aria-label="selected">{tab}</output>
      {[...TABS, 'nonsense'].map((name) => (
        <button key={name} type="button" onClick={() => selectTab(name)}>
          {name}
        </button>
      ))}
    </div>
  );
}

const selected = () => screen.getByLabelText('selected');

describe('useUrlTab', () => {
  it('reads the tab from ?tab=, the first tab when the URL names none or an unknown one', async () => {
    const { unmount } = await renderAtPath(<TabProbe />, '/account?tab=email');
    expect(selected()).toHaveTextContent('email');
    unmount();
    const unknown = await renderAtPath(<TabProbe />, '/account?tab=admin');
    expect(selected()).toHaveTextContent('profile');
    unknown.unmount();
    await renderAtPath(<TabProbe />, '/account');
    expect(selected()).toHaveTextContent('profile');
  });

  it('writes the tab into the URL in place of the current entry, keeping other parameters', async () => {
    const { history } = await renderAtPath(<TabProbe />, '/account?from=mail');
    fireEvent.click(screen.getByRole('button', { name: 'billing' }));
    expect(await screen.findByText('billing', { selector: 'output' })).toBeInTheDocument();
    expect(history.location.search).toBe('?from=mail&tab=billing');
    expect(history.index).toBe(0);

    // the default tab leaves the URL; an unknown name selects the default
    fireEvent.click(screen.getByRole('button', { name: 'email' }));
    expect(await screen.findByText('email', { selector: 'output' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'nonsense' }));
    expect(await screen.findByText('profile', { selector: 'output' })).toBeInTheDocument();
    expect(history.location.search).toBe('?from=mail');
    expect(history.index).toBe(0);
  });

  it('follows the URL when it changes from outside (Back to an entry that named another tab)', async () => {
    const { history } = await renderAtPath(<TabProbe />, '/account?tab=email');
    act(() => history.push('/account?tab=billing'));
    expect(await screen.findByText('billing', { selector: 'output' })).toBeInTheDocument();
    act(() => history.go(-1));
    expect(await screen.findByText('email', { selector: 'output' })).toBeInTheDocument();
  });
});

import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useNavigate, type NavigateFunction, type NavigateOptions } from 'react-router';
import { KEEP_SCROLL } from '@/lib/navigation-state';
import { ScrollRestoration } from './scroll-restoration';

function renderAt(path: string) {
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  let navigate: NavigateFunction = () => undefined;
  function Navigator() {
    navigate = useNavigate();
    return null;
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <section id="pricing">Pricing</section>
      <Navigator />
      <ScrollRestoration />
    </MemoryRouter>,
  );
  const go = (to: string | number, options?: NavigateOptions) =>
    act(async () => {
      await (typeof to === 'number' ? navigate(to) : navigate(to, options));
    });
  return { scrollTo, go };
}

describe('ScrollRestoration', () => {
  it('starts a new page at the top', async () => {
    const { scrollTo, go } = renderAt('/');
    scrollTo.mockClear();
    await go('/contact');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('scrolls to the element a hash names', async () => {
    const { scrollTo, go } = renderAt('/contact');
    const section = document.getElementById('pricing');
    if (!section) throw new Error('no section');
    const scrollIntoView = vi.spyOn(section, 'scrollIntoView');
    scrollTo.mockClear();
    await go('/#pricing');
    expect(scrollIntoView).toHaveBeenCalled();
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('returns to the saved position on Back', async () => {
    const { scrollTo, go } = renderAt('/');
    Object.defineProperty(window, 'scrollY', { value: 640, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await go('/contact');
    scrollTo.mockClear();
    await go(-1);
    expect(scrollTo).toHaveBeenCalledWith(0, 640);
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });

  it('leaves the scroll where it is for a change of view within the page', async () => {
    const { scrollTo, go } = renderAt('/dashboard');
    scrollTo.mockClear();
    await go('/dashboard?tab=history', { replace: true, state: KEEP_SCROLL });
    await go('/admin?tab=users&page=2', { state: KEEP_SCROLL });
    expect(scrollTo).not.toHaveBeenCalled();
    await go('/contact');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });
});

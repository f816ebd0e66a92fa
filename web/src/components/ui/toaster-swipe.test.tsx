import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render-with-providers';
import { notify } from './toaster';

// jsdom has no TransitionEvent, whose propertyName says which transition ended (the test setup
// gives it a PointerEvent).
class TestTransitionEvent extends Event {
  readonly propertyName: string;
  constructor(type: string, init: TransitionEventInit = {}) {
    super(type, init);
    this.propertyName = init.propertyName ?? '';
  }
}
const nativeTransitionEvent = Object.getOwnPropertyDescriptor(window, 'TransitionEvent');

beforeEach(() => {
  Object.defineProperty(window, 'TransitionEvent', { value: TestTransitionEvent, configurable: true, writable: true });
});
afterEach(() => {
  if (nativeTransitionEvent) Object.defineProperty(window, 'TransitionEvent', nativeTransitionEvent);
  else Reflect.deleteProperty(window, 'TransitionEvent');
});

async function showToast() {
  renderWithProviders(<div />);
  notify({ title: 'Settings saved', description: 'Your alerts follow the new threshold.', status: 'success' });
  const title = await screen.findByText('Settings saved');
  const root = title.closest<HTMLElement>('[data-scope="toast"][data-part="root"]');
  if (!root) throw new Error('the toast has no root');
  return root;
}

/** A touch that lands at x = 100 and moves through `xs`, then lifts at the last of them. */
function swipe(root: HTMLElement, xs: number[]) {
  fireEvent.pointerDown(root, { pointerId: 7, pointerType: 'touch', clientX: 100, clientY: 20 });
  for (const x of xs) fireEvent.pointerMove(root, { pointerId: 7, pointerType: 'touch', clientX: x, clientY: 22 });
  const last = xs.at(-1) ?? 100;
  return () => fireEvent.pointerUp(root, { pointerId: 7, pointerType: 'touch', clientX: last, clientY: 22 });
}

describe('swiping a toast', () => {
  it('follows the finger to the right and slides back when let go within 50 px', async () => {
    const root = await showToast();
    const lift = swipe(root, [110, 125, 140]);
    expect(root.style.transform).toBe('translateX(40px)');
    lift();
    expect(root.style.transform).toBe('');
    expect(root.style.transition).toBe('transform 200ms ease-out');
    expect(root).toHaveAttribute('data-state', 'open');
    expect(screen.getByText('Settings saved')).toBeInTheDocument();
    // once back in place, the toast's own transitions apply again
    fireEvent.transitionEnd(root, { propertyName: 'transform' });
    expect(root.style.transition).toBe('');
  });

  it('dismisses the toast past 50 px', async () => {
    const root = await showToast();
    const lift = swipe(root, [120, 140, 151]);
    expect(root.style.transform).toBe('translateX(51px)');
    lift();
    await waitFor(() => expect(root).toHaveAttribute('data-state', 'closed'));
  });

  it('never moves to the left, and a swipe that ends to the left keeps the toast', async () => {
    const root = await showToast();
    const lift = swipe(root, [160, 90, 20]);
    expect(root.style.transform).toBe('');
    lift();
    expect(root).toHaveAttribute('data-state', 'open');
  });

  it('leaves a tap to what it lands on: the close button still closes the toast', async () => {
    const root = await showToast();
    const close = screen.getByRole('button', { name: 'Dismiss notification' });
    fireEvent.pointerDown(close, { pointerId: 3, pointerType: 'mouse', button: 0, clientX: 300 });
    fireEvent.pointerMove(close, { pointerId: 3, pointerType: 'mouse', clientX: 302 });
    fireEvent.pointerUp(close, { pointerId: 3, pointerType: 'mouse', button: 0, clientX: 302 });
    expect(root.style.transform).toBe('');
    fireEvent.click(close);
    await waitFor(() => expect(root).toHaveAttribute('data-state', 'closed'));
  });
});

import { TOAST_SWIPE_THRESHOLD_PX } from '@shared/constants.ts';
import { useRef, useState, type CSSProperties, type PointerEvent, type TransitionEvent } from 'react';

// Movement under this is a tap (on the close button, say), not a swipe: the pointer is only
// captured past it, so a tap still clicks what it landed on.
const TAP_SLOP_PX = 5;

interface Drag {
  pointerId: number;
  startX: number;
  captured: boolean;
  offset: number;
}

interface SwipeOptions {
  onDismiss: () => void;
  /** The pointer took hold of the toast: pause its timer. */
  onHold?: () => void;
  /** Let go within the threshold; `pointerType` says whether a mouse still rests on the toast. */
  onRelease?: (pointerType: string) => void;
}

/**
 * Swipe a toast to the right to dismiss it, with a finger, pen or mouse: the toast follows the
 * pointer (never to the left), slides back into place when let go within the threshold (50 px)
 * and is dismissed past it. Spread `handlers` and `style` on the toast's root.
 *
 * The offset is a `transform`, apart from the `translate`, `opacity` and their transitions that
 * the toast machine animates, so its enter and exit animations are left alone; only the slide
 * back adds a transition of its own, until it ends.
 */
export function useSwipeToDismiss({ onDismiss, onHold, onRelease }: SwipeOptions) {
  const drag = useRef<Drag | null>(null);
  const [offset, setOffset] = useState(0);
  const [settling, setSettling] = useState(false);

  const end = (event: PointerEvent<HTMLElement>, dismiss: boolean) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (!current.captured) return;
    if (event.currentTarget.hasPointerCapture?.(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId);
    }
    if (dismiss) {
      onDismiss();
      return;
    }
    // A transition only runs (and ends) when there is a way back to slide.
    setSettling(current.offset > 0);
    setOffset(0);
    onRelease?.(event.pointerType);
  };

  const handlers = {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      if (drag.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
      drag.current = { pointerId: event.pointerId, startX: event.clientX, captured: false, offset: 0 };
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      const current = drag.current;
      if (!current || current.pointerId !== event.pointerId) return;
      const moved = event.clientX - current.startX;
      if (!current.captured) {
        if (Math.abs(moved) < TAP_SLOP_PX) return;
        current.captured = true;
        event.currentTarget.setPointerCapture?.(event.pointerId);
        setSettling(false);
        onHold?.();
      }
      current.offset = Math.max(0, moved);
      setOffset(current.offset);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const startX = drag.current?.startX ?? event.clientX;
      end(event, event.clientX - startX > TOAST_SWIPE_THRESHOLD_PX);
    },
    onPointerCancel: (event: PointerEvent<HTMLElement>) => end(event, false),
    onTransitionEnd: (event: TransitionEvent<HTMLElement>) => {
      if (event.propertyName === 'transform') setSettling(false);
    },
  };

  const style: CSSProperties = {
    // Horizontal moves are the toast's; vertical ones still scroll the page.
    touchAction: 'pan-y',
    transform: offset > 0 ? `translateX(${offset}px)` : undefined,
    transition: settling ? 'transform 200ms ease-out' : undefined,
  };

  return { handlers, style, offset };
}

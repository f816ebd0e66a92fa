import { Box, Flex, IconButton, Tabs } from '@chakra-ui/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu';
import { DASHBOARD_TABS, type DashboardTab } from '../tabs';
import { useIsMobile } from './use-is-mobile';

/**
 * The tab bar: scrolls sideways, with left and right arrow buttons, and centres
 * the selected tab whenever it changes. Must sit inside Tabs.Root.
 */
export function ScrollingTabList({ selected }: { selected: DashboardTab }) {
  const isMobile = useIsMobile();
  const scroller = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ atStart: true, atEnd: true });

  const updateEdges = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    // One pixel of slack: scroll positions are fractional on zoomed or high-density screens.
    setEdges({ atStart: el.scrollLeft <= 1, atEnd: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 });
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    updateEdges();
    const observer = new ResizeObserver(updateEdges);
    observer.observe(el);
    return () => observer.disconnect();
  }, [updateEdges, isMobile]);

  useEffect(() => {
    const el = scroller.current;
    const tab = el?.querySelector<HTMLElement>(`[data-tab="${selected}"]`);
    if (!el || !tab) return;
    const left = tab.offsetLeft - (el.clientWidth - tab.offsetWidth) / 2;
    el.scrollTo?.({ left: Math.max(0, left), behavior: 'smooth' });
  }, [selected, isMobile]);

  const scrollBy = (direction: -1 | 1) => {
    const el = scroller.current;
    el?.scrollBy?.({ left: direction * Math.max(120, el.clientWidth * 0.6), behavior: 'smooth' });
  };

  return (
    <Flex align="center" gap="1" borderBottomWidth="1px" minW="0">
      <IconButton
        aria-label="Scroll tabs left"
        variant="ghost"
        size="sm"
        onClick={() => scrollBy(-1)}
        disabled={edges.atStart}
      >
        <LuChevronLeft />
      </IconButton>
      <Box
        ref={scroller}
        onScroll={updateEdges}
        flex="1"
        minW="0"
        position="relative"
        overflowX="auto"
        // The arrows replace the scrollbar, which would otherwise sit under the tabs.
        scrollbarWidth="none"
        css={{ '&::-webkit-scrollbar': { display: 'none' } }}
      >
        <Tabs.List borderBottomWidth="0" width="max-content" minW="full">
          {DASHBOARD_TABS.map((tab) => (
            <Tabs.Trigger key={tab.id} value={tab.id} data-tab={tab.id} whiteSpace="nowrap" px={{ base: '3', md: '4' }}>
              {isMobile ? tab.shortLabel : tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Box>
      <IconButton
        aria-label="Scroll tabs right"
        variant="ghost"
        size="sm"
        onClick={() => scrollBy(1)}
        disabled={edges.atEnd}
      >
        <LuChevronRight />
      </IconButton>
    </Flex>
  );
}

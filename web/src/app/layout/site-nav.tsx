import { Box, Button, Container, Flex, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { createContext, use, useEffect, useId, useState, type MouseEvent } from 'react';
import { IconMenu, IconX } from '@/components/ui/icons';
import { Link as RouterLink, useLocation } from 'react-router';

/*
 * The public pages' navigation: the landing page has Home, Pricing (#pricing),
 * FAQs (#faq) and Contact Us; the contact page Home, Pricing and Contact Us. A route opts in
 * with `handle: { siteNav: [...] }` in routes.tsx; AppRoutes provides the matched routes' links
 * and the header and footer read them, so the app's other pages keep the plain header.
 */

export type SiteLinkKey = 'home' | 'pricing' | 'faq' | 'contact';
export interface SiteNavHandle {
  siteNav: readonly SiteLinkKey[];
}

interface SiteLink {
  key: SiteLinkKey;
  label: string;
  pathname: string;
  hash?: string;
}

export const SITE_LINKS: Record<SiteLinkKey, SiteLink> = {
  home: { key: 'home', label: 'Home', pathname: '/' },
  pricing: { key: 'pricing', label: 'Pricing', pathname: '/', hash: 'pricing' },
  faq: { key: 'faq', label: 'FAQs', pathname: '/', hash: 'faq' },
  contact: { key: 'contact', label: 'Contact Us', pathname: '/contact' },
};

function isSiteNavHandle(handle: unknown): handle is SiteNavHandle {
  return typeof handle === 'object' && handle !== null && Array.isArray((handle as SiteNavHandle).siteNav);
}

/** The site links of the deepest matched route that declares them, or null for app pages. */
export function siteNavLinks(matches: readonly { route: { handle?: unknown } }[] | null): SiteLink[] | null {
  for (let i = (matches?.length ?? 0) - 1; i >= 0; i -= 1) {
    const handle = matches?.[i]?.route.handle;
    if (isSiteNavHandle(handle)) return handle.siteNav.map((key) => SITE_LINKS[key]);
  }
  return null;
}

export const SiteNavContext = createContext<SiteLink[] | null>(null);

/** The current page's site links, or null for app pages. */
export function useSiteNav(): SiteLink[] | null {
  return use(SiteNavContext);
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Scrolls to a section of the landing page and moves focus there, so keyboard and screen-reader
 * users land where sighted users look. Sections carry tabIndex -1 and a scroll margin that
 * clears the sticky header.
 */
export function scrollToSection(id: string): boolean {
  const section = document.getElementById(id);
  if (!section) return false;
  section.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  section.focus({ preventScroll: true });
  return true;
}

/** Link props for a site link: a same-page section link scrolls even when the hash is unchanged. */
function useSiteLinkProps(link: SiteLink, onNavigate?: () => void) {
  const location = useLocation();
  const to = link.hash ? { pathname: link.pathname, hash: `#${link.hash}` } : link.pathname;
  const current = !link.hash && location.pathname === link.pathname && !location.hash;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onNavigate?.();
    if (link.hash && location.pathname === link.pathname && location.hash === `#${link.hash}`) {
      // Same URL: the router would not scroll again, so do it here.
      event.preventDefault();
      scrollToSection(link.hash);
    }
  };
  return { to, onClick, 'aria-current': current ? ('page' as const) : undefined };
}

function SiteNavLink({ link, onNavigate }: { link: SiteLink; onNavigate?: () => void }) {
  const { to, onClick, 'aria-current': ariaCurrent } = useSiteLinkProps(link, onNavigate);
  return (
    <Link
      asChild
      fontWeight="medium"
      color={ariaCurrent ? 'brand.fg' : 'fg.muted'}
      _hover={{ color: 'fg', textDecoration: 'none' }}
      px="3"
      py="2"
      borderRadius="md"
    >
      <RouterLink to={to} onClick={onClick} aria-current={ariaCurrent}>
        {link.label}
      </RouterLink>
    </Link>
  );
}

/** The links in a row, shown from 768 px up. */
export function SiteNavLinks({ links, dashboard }: { links: SiteLink[]; dashboard: boolean }) {
  return (
    <HStack as="ul" listStyleType="none" gap="1" hideBelow="md" aria-label="Site">
      {links.map((link) => (
        <li key={link.key}>
          <SiteNavLink link={link} />
        </li>
      ))}
      {dashboard && (
        <li>
          <Link
            asChild
            fontWeight="medium"
            color="fg.muted"
            _hover={{ color: 'fg', textDecoration: 'none' }}
            px="3"
            py="2"
          >
            <RouterLink to="/dashboard">Dashboard</RouterLink>
          </Link>
        </li>
      )}
    </HStack>
  );
}

/**
 * Below 768 px a visitor gets a menu button that opens the links and the Log In / Sign Up
 * buttons under the header bar. A plain disclosure rather than a drawer: the landing page loads
 * no dialog machinery. Escape closes it and returns focus to the button; following a link
 * closes it.
 */
export function SiteMobileMenu({ links }: { links: SiteLink[] }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname, location.hash]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      document.getElementById(`${panelId}-button`)?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, panelId]);

  const close = () => setOpen(false);

  return (
    <>
      <IconButton
        id={`${panelId}-button`}
        hideFrom="md"
        variant="ghost"
        aria-label={open ? 'Close menu' : 'Open menu'}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? <IconX /> : <IconMenu />}
      </IconButton>
      <Box
        id={panelId}
        hidden={!open}
        hideFrom="md"
        position="absolute"
        top="16"
        insetX="0"
        bg="bg"
        borderBottomWidth="1px"
        boxShadow="md"
      >
        <Container maxW="6xl" py="4">
          <Stack as="ul" listStyleType="none" gap="1" aria-label="Site">
            {links.map((link) => (
              <li key={link.key}>
                <MobileSiteLink link={link} onNavigate={close} />
              </li>
            ))}
          </Stack>
          <Flex gap="3" pt="4" mt="3" borderTopWidth="1px">
            <Button asChild variant="outline" flex="1" onClick={close}>
              <RouterLink to="/login">Log In</RouterLink>
            </Button>
            <Button asChild flex="1" onClick={close}>
              <RouterLink to="/sign-up">Sign Up</RouterLink>
            </Button>
          </Flex>
        </Container>
      </Box>
    </>
  );
}

function MobileSiteLink({ link, onNavigate }: { link: SiteLink; onNavigate: () => void }) {
  const { to, onClick, 'aria-current': ariaCurrent } = useSiteLinkProps(link, onNavigate);
  return (
    <Link
      asChild
      display="block"
      px="3"
      py="3"
      borderRadius="md"
      fontWeight="medium"
      color={ariaCurrent ? 'brand.fg' : 'fg'}
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
    >
      <RouterLink to={to} onClick={onClick} aria-current={ariaCurrent}>
        {link.label}
      </RouterLink>
    </Link>
  );
}

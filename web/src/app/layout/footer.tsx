import { Box, Container, Flex, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ComponentType, SVGProps } from 'react';
import { Link as RouterLink } from 'react-router';
import { IconFacebook, IconInstagram, IconLinkedin, IconTwitter } from '@/components/ui/icons';
import { Brand } from './header';
import { useSiteNav } from './site-nav';

/* Every page's footer has the copyright line and these three links (the site
 * footer has them in its Support and Legal columns). */
const legalLinks = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/help', label: 'Help Center' },
];

/*
 * The public pages (landing, contact, help, privacy, terms) get the full footer the contact page
 * describes: Company, Support and Legal columns and social icons. Where a column entry has no
 * page of its own yet, it points at the nearest real content (the landing page's sections, the
 * help center) rather than at '#'.
 */
const columns: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: 'Company',
    links: [
      { to: '/#how-it-works', label: 'How It Works' },
      { to: '/#pricing', label: 'Pricing' },
      { to: '/#testimonials', label: 'Reviews' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/help', label: 'Help Center' },
      { to: '/#faq', label: 'FAQs' },
      { to: '/contact', label: 'Contact Us' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
    ],
  },
];

type IconType = ComponentType<SVGProps<SVGSVGElement>>;

const socials: { href: string; label: string; icon: IconType }[] = [
  { href: 'https://x.com/fareback', label: 'FareBack on X (Twitter)', icon: IconTwitter },
  { href: 'https://www.facebook.com/fareback', label: 'FareBack on Facebook', icon: IconFacebook },
  { href: 'https://www.instagram.com/fareback', label: 'FareBack on Instagram', icon: IconInstagram },
  { href: 'https://www.linkedin.com/company/fareback', label: 'FareBack on LinkedIn', icon: IconLinkedin },
];

function Copyright() {
  return (
    <Text fontSize="sm" color="fg.muted">
      © {new Date().getFullYear()} FareBack. All rights reserved.
    </Text>
  );
}

function LegalLinks() {
  return (
    <nav aria-label="Footer">
      <HStack as="ul" gap="5" listStyleType="none" flexWrap="wrap">
        {legalLinks.map(({ to, label }) => (
          <li key={to}>
            <Link asChild fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to={to}>{label}</RouterLink>
            </Link>
          </li>
        ))}
      </HStack>
    </nav>
  );
}

function SiteFooter() {
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle">
      <Container maxW="6xl" pt={{ base: '10', md: '14' }} pb="8">
        <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '8', md: '10' }}>
          <Stack gap="4" gridColumn={{ base: 'span 2', md: 'auto' }}>
            <Box>
              <Brand />
            </Box>
            <Text fontSize="sm" color="fg.muted" maxW="xs">
              We watch the flights you&apos;ve booked and help you rebook when the price drops.
            </Text>
            <HStack as="ul" listStyleType="none" gap="1" aria-label="FareBack on social media">
              {socials.map(({ href, label, icon: Icon }) => (
                <li key={href}>
                  <Link
                    href={href}
                    aria-label={label}
                    target="_blank"
                    rel="noopener noreferrer"
                    display="inline-flex"
                    alignItems="center"
                    justifyContent="center"
                    boxSize="10"
                    borderRadius="md"
                    color="fg.muted"
                    fontSize="lg"
                    _hover={{ color: 'brand.fg', bg: 'bg.muted' }}
                  >
                    <Icon aria-hidden="true" />
                  </Link>
                </li>
              ))}
            </HStack>
          </Stack>
          {columns.map((column) => (
            <nav key={column.title} aria-labelledby={`footer-${column.title.toLowerCase()}`}>
              <Heading
                as="h2"
                id={`footer-${column.title.toLowerCase()}`}
                fontSize="sm"
                fontWeight="semibold"
                textTransform="uppercase"
                letterSpacing="wider"
                mb="4"
              >
                {column.title}
              </Heading>
              <Stack as="ul" listStyleType="none" gap="3">
                {column.links.map(({ to, label }) => (
                  <li key={label}>
                    <Link asChild fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
                      <RouterLink to={to}>{label}</RouterLink>
                    </Link>
                  </li>
                ))}
              </Stack>
            </nav>
          ))}
        </SimpleGrid>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          justify="space-between"
          align={{ base: 'flex-start', md: 'center' }}
          gap="3"
          mt="10"
          pt="6"
          borderTopWidth="1px"
        >
          <Copyright />
          <Text fontSize="sm" color="fg.muted">
            Fares are set by airlines; airline credit is issued under each airline&apos;s rules.
          </Text>
        </Flex>
      </Container>
    </Box>
  );
}

export function Footer() {
  const siteLinks = useSiteNav();
  if (siteLinks) return <SiteFooter />;
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle">
      <Container maxW="6xl" py="6">
        <Flex
          direction={{ base: 'column', md: 'row' }}
          justify="space-between"
          align={{ base: 'flex-start', md: 'center' }}
          gap="3"
        >
          <Copyright />
          <LegalLinks />
        </Flex>
      </Container>
    </Box>
  );
}

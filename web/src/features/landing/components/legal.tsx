import { Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** A readable column of prose for the help, privacy and terms pages. */
export function Prose({ updated, children }: { updated?: string; children: ReactNode }) {
  return (
    <Stack gap="10" maxW="3xl" fontSize={{ base: 'md', md: 'lg' }} lineHeight="tall">
      {updated && (
        <Text color="fg.muted" fontSize="sm">
          Last updated {updated}
        </Text>
      )}
      {children}
    </Stack>
  );
}

export function ProseSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box as="section" aria-labelledby={id}>
      <Heading as="h2" id={id} fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="tight" mb="4">
        {title}
      </Heading>
      <Stack gap="4" color="fg">
        {children}
      </Stack>
    </Box>
  );
}

export function Question({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="2">
      <Heading as="h3" fontSize={{ base: 'md', md: 'lg' }}>
        {title}
      </Heading>
      <Stack gap="3" color="fg.muted">
        {children}
      </Stack>
    </Stack>
  );
}

export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <Stack as="ul" gap="2" ps="6" listStyleType="disc">
      {items.map((item, index) => (
        // the lists are static text, so the position is a stable key
        <li key={index}>{item}</li>
      ))}
    </Stack>
  );
}

export function InlineLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link asChild color="brand.fg" fontWeight="medium" textDecoration="underline">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

export function MailLink({ address }: { address: string }) {
  return (
    <Link href={`mailto:${address}`} color="brand.fg" fontWeight="medium" textDecoration="underline">
      {address}
    </Link>
  );
}
